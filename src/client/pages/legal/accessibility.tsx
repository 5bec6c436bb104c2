import accessibility from 'virtual:legal/accessibility';
import { LegalPage } from '../../components/marketing/legal-page.tsx';
import type { RouteHandle } from '../../lib/meta.ts';

export const handle: RouteHandle = {
  meta: () => ({ title: accessibility.title, description: accessibility.description, path: '/accessibility' }),
};

export function Component() {
  return <LegalPage document={accessibility} />;
}
