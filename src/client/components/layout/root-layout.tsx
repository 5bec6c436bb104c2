import { useEffect, useRef } from 'react';
import { useLocation, useMatches, useNavigate, useRouteError } from 'react-router-dom';
import { ChatLauncher } from './chat-launcher.tsx';
import { Footer } from './footer.tsx';
import { Header } from './header.tsx';
import { controlHeader, headerClass, type HeaderControl } from './header-controller.ts';
import { followLink } from '../../lib/follow-link.ts';
import { PageOutlet, useServerHtml } from './page-outlet.tsx';

/** Header, page, footer; keeps the head and scroll position right on navigation. */
export function RootLayout() {
  const serverHtml = useServerHtml();
  // A page shown as its server HTML keeps the server's head (it has no route handle in the browser yet).
  useRouteHead(serverHtml === null);
  const pathname = useScrollToTopOnNavigate();
  // The room is a call, not a marketing page: no header, footer or chat button a tap could leave it by.
  // Its links out are plain ones (a whole page load), so a room loaded first never lends its missing header to another page.
  const chrome = !pathname.endsWith('/session');
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only z-[100] rounded bg-white px-4 py-2 font-semibold text-blue-800 focus:not-sr-only focus:fixed focus:left-4 focus:top-4"
      >
        Skip to main content
      </a>
      {chrome && (import.meta.env.SSR ? <Header /> : <ServerHeader />)}
      <PageOutlet serverHtml={serverHtml} />
      {chrome && (
        <>
          {import.meta.env.SSR ? <Footer /> : <ServerFooter />}
          {/* Room below the footer for the corner chat button (md and up), so the last line can scroll clear of it. */}
          <div aria-hidden="true" className="hidden h-16 bg-slate-900 md:block 2xl:h-20" />
          <ChatLauncher />
        </>
      )}
    </div>
  );
}

/**
 * The footer is the same on every page and has nothing to hydrate: in the browser it stays the
 * server's HTML (its links navigate through the router), so its code is not on any first load
 * (docs/decisions/051). Read once, before hydration.
 */
const footerHtml = typeof document === 'undefined' ? '' : (document.querySelector('#root > div > footer')?.innerHTML ?? '');
/** The header too: the same markup on every page, its behaviour from header-controller.ts. */
const headerHtml = typeof document === 'undefined' ? '' : (document.querySelector('#root > div > header')?.innerHTML ?? '');

function ServerHeader() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const ref = useRef<HTMLElement>(null);
  const control = useRef<HeaderControl>(null);
  useEffect(() => {
    control.current = controlHeader(ref.current!);
    return () => control.current!.dispose();
  }, []);
  useEffect(() => control.current!.navigated(pathname), [pathname]);
  return (
    <header
      ref={ref}
      data-scrolled="false"
      className={headerClass(false)}
      onClick={(event) => followLink(event, navigate)}
      dangerouslySetInnerHTML={{ __html: headerHtml }}
    />
  );
}

function ServerFooter() {
  const navigate = useNavigate();
  return <footer className="bg-slate-900 text-slate-300" onClick={(event) => followLink(event, navigate)} dangerouslySetInnerHTML={{ __html: footerHtml }} />;
}

function useRouteHead(enabled: boolean) {
  const matches = useMatches();
  const error = useRouteError();
  const isFirstRender = useRef(true);
  useEffect(() => {
    // The server wrote the first page's head; meta.ts arrives with the first navigation (docs/decisions/051).
    if (isFirstRender.current) {
      isFirstRender.current = false;
      return;
    }
    if (!enabled) return;
    const loaderData = Object.fromEntries(matches.map((m) => [m.id, m.data]));
    const is404 = (error as { status?: number } | undefined)?.status === 404;
    void import('../../lib/meta.ts').then(({ applyMetaToDocument, resolveMeta }) => applyMetaToDocument(resolveMeta(matches as never, loaderData, is404, window.__PUBLIC_CONFIG__)));
  }, [matches, error, enabled]);
}

/**
 * Every route change starts at the top — except in-page anchors, which scroll to their
 * section. Not the first render: that is the page the browser loaded, hydrating, and a
 * visitor who scrolled before its scripts arrived stays where they are. Returns the path.
 */
function useScrollToTopOnNavigate() {
  const { pathname, hash } = useLocation();
  const isFirstRender = useRef(true);
  useEffect(() => {
    if (isFirstRender.current) {
      isFirstRender.current = false;
      return;
    }
    if (hash) return;
    window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
  }, [pathname, hash]);
  return pathname;
}
