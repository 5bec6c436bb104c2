import type { RouteHandle } from '../../lib/meta.ts';

/**
 * The console's open pages (sign in, second factor, invitation) as their own
 * routes, apart from the console's chunk: see docs/decisions/040-first-load-budgets.md.
 */
export { InvitePage, LoginPage, TwoFactorPage } from '../../features/admin/auth-pages.tsx';

export const handle: RouteHandle = {
  meta: () => ({ title: 'Staff Console', description: 'NotaryOnline staff console.', path: '/admin', noindex: true }),
};
