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
export function loadRoutePreloads(clientDir: string): (template: string, pathname: string) => string {
  let preloads: RoutePreloads;
  try {
    preloads = JSON.parse(readFileSync(path.join(clientDir, routePreloadsFile), 'utf8')) as RoutePreloads;
  } catch {
    return (template) => template.replace(routePreloadsMarker, '');
  }
  const routes = preloads.routes.map(({ route, files, serverHtml }) => ({
    path: route,
    links: files.map((file) => `<link rel="modulepreload" fetchpriority="low" crossorigin href="${file}">`).join('\n    '),
    serverHtml,
  }));
  return (template, pathname) => {
    const match = matchRoutes(routes, pathname)?.at(-1)?.route;
    const page = template.replace(routePreloadsMarker, () => match?.links ?? '');
    return match?.serverHtml ? withEntryAfterFirstPaint(page) : page;
  };
}
