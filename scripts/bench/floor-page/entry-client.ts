/**
 * The Lighthouse floor's client (scripts/bench/floor-page.ts): React 19 and the
 * react-router 7 data router hydrating one lazy route, as the app's entry does
 * (src/client/entry-client.tsx) without anything of ours.
 */
import { createElement as h, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, RouterProvider, type RouteObject } from 'react-router-dom';

const routes: RouteObject[] = [{ path: '*', lazy: () => import('./page.ts') }];

async function hydrate() {
  const matched = matchRoutes(routes, window.location) ?? [];
  await Promise.all(
    matched.map(async (m) => {
      const load = m.route.lazy as () => Promise<Record<string, unknown>>;
      Object.assign(m.route, { ...(await load()), lazy: undefined });
    }),
  );
  const router = createBrowserRouter(routes, { hydrationData: (window as { __staticRouterHydrationData?: never }).__staticRouterHydrationData });
  hydrateRoot(document.getElementById('root')!, h(StrictMode, null, h(RouterProvider, { router })));
}

void hydrate();
