import { useEffect } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { notFoundMeta, type RouteHandle } from '../lib/meta.ts';

/** Unknown paths answer HTTP 404 (the server logs the path) and render NotFound. */
export function loader() {
  throw new Response(null, { status: 404, statusText: 'Not Found' });
}

export const handle: RouteHandle = { meta: () => notFoundMeta };

export function NotFound() {
  const location = useLocation();
  useEffect(() => {
    console.warn(`404: no page at ${location.pathname}`);
  }, [location.pathname]);
  return (
    <main id="main" className="mx-auto flex min-h-[60vh] max-w-2xl flex-col items-center justify-center gap-6 px-6 py-24 text-center">
      <p className="text-6xl font-extrabold text-blue-700" aria-hidden="true">
        404
      </p>
      <h1 className="text-3xl font-bold text-slate-900">Page Not Found</h1>
      <p className="text-lg text-slate-700">The page you are looking for does not exist or has moved.</p>
      <Link
        to="/"
        className="inline-flex h-11 items-center rounded-md bg-blue-700 px-6 font-semibold text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
      >
        Return to Home
      </Link>
    </main>
  );
}

export const Component = NotFound;
