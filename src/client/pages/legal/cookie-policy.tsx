import cookiePolicy from 'virtual:legal/cookie-policy';
import { LegalPage } from '../../components/marketing/legal-page.tsx';
import type { RouteHandle } from '../../lib/meta.ts';

export const handle: RouteHandle = {
  meta: () => ({ title: cookiePolicy.title, description: cookiePolicy.description, path: '/cookie-policy' }),
};

export function Component() {
  return <LegalPage document={cookiePolicy} />;
}
