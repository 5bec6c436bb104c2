import { createElement, useEffect, useRef, type ComponentType } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { followLink } from '../../lib/follow-link.ts';
import { whenElementNear } from '../../lib/when-near.ts';

/**
 * The page of a first load that hydrates as its server HTML (src/client/server-html.ts,
 * docs/decisions/051): set by entry-client.tsx before hydrating, kept until the
 * router has loaded the page's own module (a client-side navigation to it).
 */
export const firstPage: { pathname: string; html: string; route: { element?: unknown; Component?: unknown } | null } = {
  pathname: '',
  html: '',
  route: null,
};

/** The server's HTML of the page while it stands in for the page's component, else null. */
export function useServerHtml(): string | null {
  const { pathname } = useLocation();
  const route = firstPage.route;
  return route && pathname === firstPage.pathname && route.element == null && route.Component == null ? firstPage.html : null;
}

/** The routed page: its component, or the server's HTML of it on a first load (see server-html.ts). */
export function PageOutlet({ serverHtml }: { serverHtml: string | null }) {
  if (serverHtml === null) {
    return (
      <div key="page" className="flex-1">
        <Outlet />
      </div>
    );
  }
  return <ServerHtmlPage key="server-html" html={serverHtml} />;
}

/** Interactive parts of a server-HTML page, each hydrated on its own when it comes near. */
const islands: Record<string, () => Promise<ComponentType<never>>> = {
  'share-buttons': () => import('../marketing/share-buttons.tsx').then((m) => m.ShareButtons),
};

function ServerHtmlPage({ html }: { html: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const navigate = useNavigate();

  useEffect(() => {
    let active = true;
    const roots: Root[] = [];
    for (const element of ref.current!.querySelectorAll<HTMLElement>('[data-island]')) {
      const load = islands[element.dataset.island!];
      if (!load) continue;
      void whenElementNear(element)
        .then(load)
        .then((Island) => {
          if (active) roots.push(hydrateRoot(element, createElement(Island, JSON.parse(element.dataset.props ?? '{}') as never)));
        });
    }
    return () => {
      active = false;
      // Not while React commits this root's unmount.
      setTimeout(() => roots.forEach((root) => root.unmount()));
    };
  }, []);

  // React keeps the server's DOM for `dangerouslySetInnerHTML` when hydrating; the
  // string is the same HTML, read from the page just before hydration.
  return <div ref={ref} className="flex-1" onClick={(event) => followLink(event, navigate)} dangerouslySetInnerHTML={{ __html: html }} />;
}
