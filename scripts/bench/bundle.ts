import { readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import { entryKeyOf, readRoutes, staticClosure, type Manifest } from '../../src/build/route-chunks.ts';
import { serverHtmlRoutes } from '../../src/client/server-html.ts';

export interface RouteBundle {
  route: string;
  module: string;
  files: string[];
  rawBytes: number;
  gzipBytes: number;
  /** Brotli (quality 11): what a browser receives for the precompressed assets. */
  brotliBytes: number;
  marketing: boolean;
  /** Hydrated as its server HTML: the first load is the entry alone (docs/decisions/051). */
  serverHtml: boolean;
  /** First-load budget in bytes (gzip), or null when the route has none. */
  budget: number | null;
}

/** Pages that are not marketing pages (booking, payment, chat and admin code split out). */
const nonMarketing = new Set(['/schedule', '/booking/:token', '/booking/:token/session', '/invitation/:token/*', '/admin/*', '/*']);
/** First-load budgets (gzip), see docs/decisions/040-first-load-budgets.md. */
const budgets: Record<string, number> = { '/schedule': 150, '/admin/login': 110, '/admin/two-factor': 110, '/admin/invite/:token': 110 };
export function budgetFor(route: string): number | null {
  if (route in budgets) return budgets[route]! * 1024;
  if (route.startsWith('/admin') || nonMarketing.has(route)) return null;
  return 100 * 1024;
}

/**
 * JavaScript a browser downloads on the first load of each route: the entry
 * chunk and its static imports, plus the route's lazy chunk and its static
 * imports (Vite preloads both). Gzip level 6, as the server's compression sends.
 */
export function measureBundles(root: string): RouteBundle[] {
  const clientDir = path.join(root, 'dist/client');
  const manifest = JSON.parse(readFileSync(path.join(clientDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  const entryKey = entryKeyOf(manifest);
  const closure = (key: string, into: Set<string>) => staticClosure(manifest, key, into);
  const sizes = new Map<string, { raw: number; gzip: number; brotli: number }>();
  const sizeOf = (file: string) => {
    let size = sizes.get(file);
    if (!size) {
      const bytes = readFileSync(path.join(clientDir, file));
      size = {
        raw: bytes.length,
        gzip: gzipSync(bytes, { level: 6 }).length,
        brotli: brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }).length,
      };
      sizes.set(file, size);
    }
    return size;
  };

  return readRoutes(readFileSync(path.join(root, 'src/client/routes.tsx'), 'utf8')).map(({ route, module }) => {
    const files = new Set<string>();
    closure(entryKey, files);
    // A module imported statically elsewhere (e.g. the Not Found page) has no chunk of its own: it is in the entry.
    // A page hydrated as its server HTML loads none of its own code on a first load.
    const serverHtml = serverHtmlRoutes.has(route);
    if (manifest[module] && !serverHtml) closure(module, files);
    const list = [...files].filter((file) => file.endsWith('.js'));
    return {
      route,
      module,
      files: list,
      rawBytes: list.reduce((sum, file) => sum + sizeOf(file).raw, 0),
      gzipBytes: list.reduce((sum, file) => sum + sizeOf(file).gzip, 0),
      brotliBytes: list.reduce((sum, file) => sum + sizeOf(file).brotli, 0),
      marketing: !nonMarketing.has(route) && !route.startsWith('/admin'),
      serverHtml,
      budget: budgetFor(route),
    };
  });
}
