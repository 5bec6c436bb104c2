import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { serverHtmlRoutes } from '../client/server-html.ts';
import { readRoutes, routeOnlyFiles, routePreloadsFile, routePreloadsMarker, type Manifest, type RoutePreloads } from './route-chunks.ts';

/**
 * First-load JavaScript, asked for with the HTML (docs/decisions/050-first-paint-and-route-preloads.md):
 *
 * - `route-preloads.json` lists, per route, the chunks its page module adds to
 *   the entry's, so the server can announce them as `modulepreload` links in the
 *   page instead of the browser discovering them only once the entry has run.
 * - Every script the built page names (the entry and its preloads) is fetched at
 *   low priority: none is needed to paint (the HTML is server-rendered and its
 *   style sheet inline), so the font and images go first, and Lighthouse's
 *   simulation no longer counts module scripts as render-blocking
 *   (GoogleChrome/lighthouse#17163). The route preloads get the same attribute.
 */
export function routePreloadPlugin(): Plugin {
  let root = process.cwd();
  return {
    name: 'notary:route-preloads',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.bundle) return html;
        return lowPriorityScripts(html);
      },
    },
    writeBundle(options, bundle) {
      if (this.environment?.config.build.ssr || !options.dir) return;
      const manifestAsset = bundle['.vite/manifest.json'];
      if (!manifestAsset || manifestAsset.type !== 'asset') return;
      const manifest = JSON.parse(String(manifestAsset.source)) as Manifest;
      const routes = readRoutes(readFileSync(path.join(root, 'src/client/routes.tsx'), 'utf8'));
      const preloads: RoutePreloads = {
        // A page hydrated as its server HTML does not load its module on a first load (docs/decisions/051).
        routes: routes.map(({ route, module }) => {
          const serverHtml = serverHtmlRoutes.has(route);
          return { route, files: serverHtml ? [] : routeOnlyFiles(manifest, module).map((file) => `/${file}`), serverHtml };
        }),
      };
      writeFileSync(path.join(options.dir, routePreloadsFile), `${JSON.stringify(preloads, null, 1)}\n`);
    },
  };
}

/** `fetchpriority="low"` on every module script and module preload of a page, and the route preloads' place. */
export function lowPriorityScripts(html: string): string {
  const low = html
    .replaceAll('<script type="module" crossorigin', '<script type="module" fetchpriority="low" crossorigin')
    .replaceAll('<link rel="modulepreload" crossorigin', '<link rel="modulepreload" fetchpriority="low" crossorigin');
  const lastScriptTag = Math.max(low.lastIndexOf('<link rel="modulepreload"'), low.lastIndexOf('<script type="module"'));
  if (lastScriptTag < 0) return low;
  const end = low.indexOf('>', lastScriptTag) + 1;
  const after = low.startsWith('</script>', end) ? end + '</script>'.length : end;
  return `${low.slice(0, after)}\n    ${routePreloadsMarker}${low.slice(after)}`;
}
