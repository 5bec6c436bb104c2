import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { NotFound } from './not-found.tsx';

/**
 * The router's fallback. A 404 (unknown path, unknown blog slug) shows the
 * Not Found page; anything else shows what went wrong without a stack trace.
 */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : 'Something went wrong.';
  return (
    <main id="main" className="mx-auto flex min-h-[60vh] max-w-2xl flex-col items-center justify-center gap-4 px-6 py-24 text-center">
      <h1 className="text-3xl font-bold text-slate-900">Unexpected Application Error!</h1>
      <p className="text-lg text-slate-700">{detail}</p>
      <a href="/" className="font-semibold text-blue-700 underline underline-offset-4 hover:text-blue-800">
        Return to Home
      </a>
    </main>
  );
}
