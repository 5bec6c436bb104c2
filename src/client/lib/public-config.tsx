import { createContext, useContext, type ReactNode } from 'react';
import type { PublicConfig } from '../../shared/public-config.ts';

declare global {
  interface Window {
    __PUBLIC_CONFIG__?: PublicConfig;
  }
}

const PublicConfigContext = createContext<PublicConfig | null>(null);

export function PublicConfigProvider({ value, children }: { value: PublicConfig; children: ReactNode }) {
  return <PublicConfigContext.Provider value={value}>{children}</PublicConfigContext.Provider>;
}

export function usePublicConfig(): PublicConfig {
  const value = useContext(PublicConfigContext);
  if (!value) throw new Error('usePublicConfig outside PublicConfigProvider');
  return value;
}
