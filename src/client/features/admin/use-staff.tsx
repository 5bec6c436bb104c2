import { createContext, useContext, type ReactNode } from 'react';
import { trpc } from '../../lib/trpc.ts';
import type { StaffRole } from '../../../shared/staff.ts';
import { businessTimeZone } from '../../../shared/time.ts';

export interface StaffSession {
  user: { id: string; email: string; name: string; role: StaffRole; timeZone: string };
  /** ok: signed in; verify: a TOTP code is owed; enrol: an admin must set up TOTP. */
  twoFactor: 'ok' | 'verify' | 'enrol';
  totpEnabled: boolean;
}

interface StaffContextValue {
  staff: StaffSession | null;
  loading: boolean;
  refresh: () => Promise<unknown>;
}

const StaffContext = createContext<StaffContextValue | null>(null);

/** Who is signed in to the console, from `staff.me` (null when nobody). */
export function StaffProvider({ children }: { children: ReactNode }) {
  const me = trpc.staff.me.useQuery(undefined, { staleTime: 60_000 });
  return (
    <StaffContext.Provider value={{ staff: (me.data as StaffSession | null | undefined) ?? null, loading: me.isLoading, refresh: () => me.refetch() }}>
      {children}
    </StaffContext.Provider>
  );
}

/** The zone the console shows times in: the member's own, or the business zone before it loads. */
export function staffZone(staff: StaffSession | null): string {
  return staff?.user.timeZone ?? businessTimeZone;
}

export function useStaff(): StaffContextValue {
  const value = useContext(StaffContext);
  if (!value) throw new Error('useStaff outside StaffProvider');
  return value;
}
