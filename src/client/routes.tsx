import { Suspense, use, type ComponentType } from 'react';
import type { RouteObject } from 'react-router-dom';
import { RootLayout } from './components/layout/root-layout.tsx';

// The error and Not Found pages are a chunk of their own: no first load of a working page
// needs them (docs/decisions/051). The server, and the browser when it hydrates an error
// page, load it before rendering, so both render it in place inside the same Suspense boundary;
// a client-side navigation that fails waits for it there.
let LoadedRouteError: ComponentType | undefined;
let routeErrorLoading: Promise<void> | undefined;
export function loadRouteError(): Promise<void> {
  return (routeErrorLoading ??= import('./pages/route-error.tsx').then((m) => {
    LoadedRouteError = m.RouteError;
  }));
}
function RouteError() {
  if (!LoadedRouteError) use(loadRouteError());
  const Loaded = LoadedRouteError!;
  return <Loaded />;
}
const routeError = (
  <Suspense fallback={null}>
    <RouteError />
  </Suspense>
);

/**
 * Every route of the product. Pages are lazy modules exporting `Component`,
 * optionally `loader` and `handle` (see `lib/meta.ts`), so each page's code is
 * its own chunk: a marketing page never downloads the booking wizard.
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <RootLayout />,
    errorElement: routeError,
    children: [
      {
        // Pathless: errors and 404s render inside the header and footer.
        errorElement: routeError,
        children: [
          { index: true, lazy: () => import('./pages/home.tsx') },
          { path: 'schedule', lazy: () => import('./pages/schedule.tsx') },
          { path: 'electronic-signatures', lazy: () => import('./pages/electronic-signatures.tsx') },
          { path: 'remote-notarization', lazy: () => import('./pages/remote-notarization.tsx') },
          { path: 'identity-verification', lazy: () => import('./pages/identity-verification.tsx') },
          { path: 'document-management', lazy: () => import('./pages/document-management.tsx') },
          { path: 'business-solutions', lazy: () => import('./pages/business-solutions.tsx') },
          { path: 'blog', lazy: () => import('./pages/blog/blog-list.tsx') },
          { path: 'blog/:slug', lazy: () => import('./pages/blog/blog-article.tsx') },
          { path: 'terms-of-service', lazy: () => import('./pages/legal/terms-of-service.tsx') },
          { path: 'privacy-policy', lazy: () => import('./pages/legal/privacy-policy.tsx') },
          { path: 'cookie-policy', lazy: () => import('./pages/legal/cookie-policy.tsx') },
          { path: 'esign-consent', lazy: () => import('./pages/legal/esign-consent.tsx') },
          { path: 'accessibility', lazy: () => import('./pages/legal/accessibility.tsx') },
          { path: 'sitemap', lazy: () => import('./pages/sitemap.tsx') },
          { path: 'verify', lazy: () => import('./pages/verify.tsx') },
          { path: 'booking/:token', lazy: () => import('./pages/manage-booking.tsx') },
          { path: 'booking/:token/session', lazy: () => import('./pages/session-room.tsx') },
          { path: 'invitation/:token/*', lazy: () => import('./pages/invitation.tsx') },
          { path: '*', lazy: () => import('./pages/not-found.tsx') },
        ],
      },
    ],
  },
  // The console's open pages load without the console (no tRPC client, React Query or Zod before sign-in).
  { path: '/admin/login', lazy: () => import('./pages/admin/auth.tsx').then((m) => ({ Component: m.LoginPage, handle: m.handle })), errorElement: routeError },
  { path: '/admin/two-factor', lazy: () => import('./pages/admin/auth.tsx').then((m) => ({ Component: m.TwoFactorPage, handle: m.handle })), errorElement: routeError },
  { path: '/admin/invite/:token', lazy: () => import('./pages/admin/auth.tsx').then((m) => ({ Component: m.InvitePage, handle: m.handle })), errorElement: routeError },
  // The staff console has its own layout and its own routes inside.
  { path: '/admin/*', lazy: () => import('./pages/admin/admin-app.tsx'), errorElement: routeError },
];
