import { startTransition, StrictMode, useEffect, useState, type ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, RouterProvider, type RouteObject } from 'react-router-dom';
import { firstPage } from './components/layout/page-outlet.tsx';
import { PublicConfigProvider } from './lib/public-config.tsx';
import { loadRouteError, routes } from './routes.tsx';
import { serverHtmlRoutes } from './server-html.ts';
import './styles.css';

// Zod probes `new Function` once to decide whether to compile its parsers; our
// CSP has no 'unsafe-eval', so the probe is reported as a policy violation.
// Interpreted parsing is plenty fast for form validation. Set through Zod's
// global config object so this entry does not have to bundle Zod itself.
(globalThis as { __zod_globalConfig?: { jitless?: boolean } }).__zod_globalConfig = { jitless: true };

/**
 * Gives React the clicks and submissions the page held until now
 * (src/server/http/hold-until-hydrated.ts), then marks <html data-hydrated> (for journeys
 * that must not race hydration). Not in the hydrating commit's own effects but in the
 * commit after: what those effects set (a file chosen before hydration, taken over by
 * the wizard's first step) is then in the handlers the held clicks reach.
 */
function HydrationMarker({ children }: { children: ReactNode }) {
  const [settled, setSettled] = useState(false);
  useEffect(() => {
    if (!settled) return setSettled(true);
    window.__afterHydration?.();
    document.documentElement.dataset.hydrated = 'true';
  }, [settled]);
  return children;
}

async function hydrate() {
  const matched = matchRoutes(routes, window.location) ?? [];
  // A page listed in server-html.ts hydrates as the server's HTML, without its module
  // (docs/decisions/051): its `lazy` is set aside until the router exists, so the
  // router neither loads it now nor waits for it, and is given back for later navigations.
  const page = matched.at(-1);
  const fullPath = `/${matched.map((m) => m.route.path?.replace(/^\/|\/$/g, '') ?? '').filter(Boolean).join('/')}`;
  let setAside: RouteObject['lazy'];
  if (page && serverHtmlRoutes.has(fullPath) && !window.__staticRouterHydrationData?.errors) {
    const main = document.getElementById('main');
    if (main?.parentElement) {
      firstPage.pathname = window.location.pathname;
      firstPage.html = main.parentElement.innerHTML;
      setAside = page.route.lazy;
      page.route.lazy = undefined;
    }
  }
  // Lazy route modules matched by the server-rendered page must be loaded
  // before hydrating, or React would render a fallback over the real HTML;
  // so must the error page when the server rendered one.
  if (window.__staticRouterHydrationData?.errors) await loadRouteError();
  await Promise.all(
    matched
      .filter((m) => typeof m.route.lazy === 'function')
      .map(async (m) => {
        const loadRoute = m.route.lazy as () => Promise<Record<string, unknown>>;
        const routeModule = await loadRoute();
        Object.assign(m.route, { ...routeModule, lazy: undefined });
      }),
  );
  const router = createBrowserRouter(routes, { hydrationData: window.__staticRouterHydrationData });
  if (setAside) {
    const route = router.state.matches.at(-1)!.route;
    firstPage.route = route;
    route.lazy = setAside as typeof route.lazy;
  }
  // As a transition, hydration yields to the browser every few milliseconds
  // instead of running as one long task (the page is already painted from the
  // server's HTML; total blocking time on a slow phone drops accordingly).
  startTransition(() => {
    hydrateRoot(
      document.getElementById('root')!,
      <StrictMode>
        <PublicConfigProvider value={window.__PUBLIC_CONFIG__!}>
          <HydrationMarker>
            {/* Navigations commit synchronously: as transitions, an address change could wait on a
                commit React had suspended (images, a toast's update in between) and never show —
                Back in the booking wizard left the old step on screen (docs/decisions/039). */}
            <RouterProvider router={router} useTransitions={false} />
          </HydrationMarker>
        </PublicConfigProvider>
      </StrictMode>,
    );
  });
}

void hydrate();

declare global {
  interface Window {
    /** Set by a page whose entry loads after its first paint: replays the clicks it held. */
    __afterHydration?: () => void;
    __staticRouterHydrationData?: Parameters<typeof createBrowserRouter>[1] extends infer O
      ? O extends { hydrationData?: infer H }
        ? H
        : never
      : never;
  }
}
