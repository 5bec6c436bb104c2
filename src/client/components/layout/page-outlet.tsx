import { createElement, useEffect, useRef } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { followLink } from '../../lib/follow-link.ts';
import { whenElementNear } from '../../lib/when-near.ts';
import { scrollToSection } from '../marketing/motion.ts';
import { observeReveals } from '../marketing/reveal-observer.ts';

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

function ServerHtmlPage({ html }: { html: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const navigate = useNavigate();

  useEffect(() => {
    let active = true;
    const roots: Root[] = [];
    const page = ref.current!;
    // The home page's "/#section" arrival (docs/product.md §3.3), as its component does.
    if (page.querySelector('[data-scroll-on-arrival]') && window.location.hash.length > 1) scrollToSection(decodeURIComponent(window.location.hash.slice(1)));
    // Fade-ins (components/marketing/reveal.tsx), by a small observer: in the entry, as a chunk
    // of its own it would be one more file on the first load of most marketing pages.
    const stopReveals = observeReveals(page);
    for (const element of page.querySelectorAll<HTMLElement>('[data-island]')) {
      void whenElementNear(element)
        .then(() => import('./islands.ts'))
        .then(({ islands }) => islands[element.dataset.island!]?.())
        .then((Island) => {
          if (active && Island) roots.push(hydrateRoot(element, createElement(Island, JSON.parse(element.dataset.props ?? '{}') as never)));
        });
    }
    return () => {
      active = false;
      stopReveals();
      // Not while React commits this root's unmount.
      setTimeout(() => roots.forEach((root) => root.unmount()));
    };
  }, []);

  // React keeps the server's DOM for `dangerouslySetInnerHTML` when hydrating; the
  // string is the same HTML, read from the page just before hydration.
  return (
    <div
      ref={ref}
      className="flex-1"
      onClick={(event) => {
        // Buttons that scroll to a section ("Learn More" on the home page, docs/product.md §3.3).
        const scrollTo = (event.target as Element).closest<HTMLElement>('[data-scroll-to]');
        if (scrollTo) scrollToSection(scrollTo.dataset.scrollTo!);
        else followLink(event, navigate);
      }}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
