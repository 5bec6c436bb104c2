import termsOfService from 'virtual:legal/terms-of-service';
import { LegalPage } from '../../components/marketing/legal-page.tsx';
import type { RouteHandle } from '../../lib/meta.ts';

export const handle: RouteHandle = {
  meta: () => ({ title: termsOfService.title, description: termsOfService.description, path: '/terms-of-service' }),
};

export function Component() {
  return <LegalPage document={termsOfService} />;
}
