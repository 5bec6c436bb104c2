import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface RouteBundle {
  route: string;
  module: string;
  files: string[];
  rawBytes: number;
  gzipBytes: number;
  marketing: boolean;
}

/** Pages whose first load must stay under the 100 KB budget (booking, payment, chat and admin code split out). */
const nonMarketing = new Set(['/schedule', '/booking/:token', '/admin/*']);

/** The routes of src/client/routes.tsx and the module each one lazily imports. */
export function readRoutes(root: string): Array<{ route: string; module: string }> {
  const source = readFileSync(path.join(root, 'src/client/routes.tsx'), 'utf8');
  const pattern = /\{\s*(?:index:\s*true|path:\s*'([^']+)')\s*,\s*lazy:\s*\(\)\s*=>\s*import\('\.\/([^']+)'\)/g;
  return [...source.matchAll(pattern)].map((m) => {
    const raw = m[1];
    const route = raw === undefined ? '/' : raw.startsWith('/') ? raw : `/${raw}`;
    return { route, module: `src/client/${m[2]}` };
  });
}

/**
 * JavaScript a browser downloads on the first load of each route: the entry
 * chunk and its static imports, plus the route's lazy chunk and its static
 * imports (Vite preloads both). Gzip level 6, as the server's compression sends.
 */
export function measureBundles(root: string): RouteBundle[] {
  const clientDir = path.join(root, 'dist/client');
  const manifest = JSON.parse(readFileSync(path.join(clientDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  const entryKey = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (!entryKey) throw new Error('no entry chunk in the Vite manifest');

  const closure = (key: string, into: Set<string>) => {
    const chunk = manifest[key];
    if (!chunk || into.has(chunk.file)) return;
    into.add(chunk.file);
    for (const imported of chunk.imports ?? []) closure(imported, into);
  };
  const sizes = new Map<string, { raw: number; gzip: number }>();
  const sizeOf = (file: string) => {
    let size = sizes.get(file);
    if (!size) {
      const bytes = readFileSync(path.join(clientDir, file));
      size = { raw: bytes.length, gzip: gzipSync(bytes, { level: 6 }).length };
      sizes.set(file, size);
    }
    return size;
  };

  return readRoutes(root).map(({ route, module }) => {
    const files = new Set<string>();
    closure(entryKey, files);
    // A module imported statically elsewhere (e.g. the Not Found page) has no chunk of its own: it is in the entry.
    if (manifest[module]) closure(module, files);
    const list = [...files].filter((file) => file.endsWith('.js'));
    return {
      route,
      module,
      files: list,
      rawBytes: list.reduce((sum, file) => sum + sizeOf(file).raw, 0),
      gzipBytes: list.reduce((sum, file) => sum + sizeOf(file).gzip, 0),
      marketing: !nonMarketing.has(route) && route !== '/*',
    };
  });
}
