import privacyPolicy from 'virtual:legal/privacy-policy';
import { LegalPage } from '../../components/marketing/legal-page.tsx';
import type { RouteHandle } from '../../lib/meta.ts';

export const handle: RouteHandle = {
  meta: () => ({ title: privacyPolicy.title, description: privacyPolicy.description, path: '/privacy-policy' }),
};

export function Component() {
  return <LegalPage document={privacyPolicy} />;
}
