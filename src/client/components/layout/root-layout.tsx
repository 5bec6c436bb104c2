import { useEffect } from 'react';
import { Outlet, useLocation, useMatches, useRouteError } from 'react-router-dom';
import { applyMetaToDocument, resolveMeta } from '../../lib/meta.ts';
import { Toaster } from '../ui/toast.tsx';
import { ChatLauncher } from './chat-launcher.tsx';
import { Footer } from './footer.tsx';
import { Header } from './header.tsx';

/** Header, page, footer; keeps the head and scroll position right on navigation. */
export function RootLayout() {
  useRouteHead();
  useScrollToTopOnNavigate();
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only z-[100] rounded bg-white px-4 py-2 font-semibold text-blue-800 focus:not-sr-only focus:fixed focus:left-4 focus:top-4"
      >
        Skip to main content
      </a>
      <Header />
      <div className="flex-1">
        <Outlet />
      </div>
      <Footer />
      {/* Room below the footer for the corner chat button (md and up), so the last line can scroll clear of it. */}
      <div aria-hidden="true" className="hidden h-16 bg-slate-900 md:block 2xl:h-20" />
      <Toaster />
      <ChatLauncher />
    </div>
  );
}

function useRouteHead() {
  const matches = useMatches();
  const error = useRouteError();
  useEffect(() => {
    const loaderData = Object.fromEntries(matches.map((m) => [m.id, m.data]));
    const is404 = (error as { status?: number } | undefined)?.status === 404;
    applyMetaToDocument(resolveMeta(matches as never, loaderData, is404));
  }, [matches, error]);
}

/** Every route change starts at the top — except in-page anchors, which scroll to their section. */
function useScrollToTopOnNavigate() {
  const { pathname, hash } = useLocation();
  useEffect(() => {
    if (hash) return;
    window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
  }, [pathname, hash]);
}
