import { readFileSync } from 'node:fs';
import path from 'node:path';
import { matchRoutes } from 'react-router-dom';
import { withEntryAfterFirstPaint } from './entry-after-paint.ts';
import { routePreloadsFile, routePreloadsMarker, type RoutePreloads } from '../../build/route-chunks.ts';

/**
 * The `modulepreload` links for the page's own chunks (its route module and what
 * it imports beyond the entry), written where the built template marks them, so
 * the browser fetches them with the entry instead of after it has run
 * (docs/decisions/050-first-paint-and-route-preloads.md). Low priority, as the
 * entry's: no script is needed to paint a server-rendered page.
 *
 * Routes are matched as react-router ranks them (`/admin/login` before
 * `/admin/*`, `/blog/:slug` before `/*`). A build without the list (or
 * development, whose template has no marker) writes no links. A page that
 * hydrates as its server HTML has no links of its own, and its entry is asked
 * for after the first paint (entry-after-paint.ts).
 */
export interface RoutePreloader {
  /** The template with the route's preloads written in, or, for a server-HTML page, its entry after the first paint. */
  apply(template: string, pathname: string): string;
  /** Whether the page at `pathname` hydrates as its server HTML (docs/decisions/051). */
  isServerHtml(pathname: string): boolean;
}

/** `stylesheet`: the whole sheet's URL, loaded after the first paint by server-HTML pages that carry only its critical part. */
export function loadRoutePreloads(clientDir: string, stylesheet?: string): RoutePreloader {
  let built: RoutePreloads;
  try {
    built = JSON.parse(readFileSync(path.join(clientDir, routePreloadsFile), 'utf8')) as RoutePreloads;
  } catch {
    return { apply: (template) => template.replace(routePreloadsMarker, ''), isServerHtml: () => false };
  }
  const routes = built.routes.map(({ route, files, serverHtml }) => ({
    path: route,
    links: files.map((file) => `<link rel="modulepreload" fetchpriority="low" crossorigin href="${file}">`).join('\n    '),
    serverHtml,
  }));
  const matching = (pathname: string) => matchRoutes(routes, pathname)?.at(-1)?.route;
  return {
    apply(template, pathname) {
      const match = matching(pathname);
      const page = template.replace(routePreloadsMarker, () => match?.links ?? '');
      return match?.serverHtml ? withEntryAfterFirstPaint(page, stylesheet) : page;
    },
    isServerHtml: (pathname) => matching(pathname)?.serverHtml ?? false,
  };
}
