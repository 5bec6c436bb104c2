import esignConsent from 'virtual:legal/esign-consent';
import { LegalPage } from '../../components/marketing/legal-page.tsx';
import type { RouteHandle } from '../../lib/meta.ts';

export const handle: RouteHandle = {
  meta: () => ({ title: esignConsent.title, description: esignConsent.description, path: '/esign-consent' }),
};

export function Component() {
  return <LegalPage document={esignConsent} />;
}
