/**
 * Which JavaScript each route of `src/client/routes.tsx` needs on a first load,
 * read from the Vite manifest. Shared by the build (the route preloads the server
 * writes into each page, see `route-preload-plugin.ts`) and the bench's bundle
 * figures (`scripts/bench/bundle.ts`), so both count the same files.
 */

export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

/** Written next to Vite's manifest by route-preload-plugin.ts, read by src/server/http/route-preloads.ts. */
export const routePreloadsFile = '.vite/route-preloads.json';
/** Where the server writes a page's route preloads in the built template: right after the entry's own, ahead of the style sheet. */
export const routePreloadsMarker = '<!--route-preloads-->';

/**
 * `dist/client/.vite/route-preloads.json`: each route's own JavaScript (absolute URLs), in load
 * order, and whether its page hydrates as its server HTML (docs/decisions/051), whose entry
 * then loads after the first paint (docs/decisions/055).
 */
export interface RoutePreloads {
  routes: Array<{ route: string; files: string[]; serverHtml: boolean }>;
}

export interface RouteModule {
  /** The route's full path, as react-router matches it ('/', '/blog/:slug', '/admin/*'). */
  route: string;
  /** The module its `lazy` imports, relative to the repository ('src/client/pages/home.tsx'). */
  module: string;
}

/** The routes of src/client/routes.tsx (its source text) and the module each one lazily imports. */
export function readRoutes(source: string): RouteModule[] {
  const pattern = /\{\s*(?:index:\s*true|path:\s*'([^']+)')\s*,\s*lazy:\s*\(\)\s*=>\s*import\('\.\/([^']+)'\)/g;
  return [...source.matchAll(pattern)].map((m) => {
    const raw = m[1];
    const route = raw === undefined ? '/' : raw.startsWith('/') ? raw : `/${raw}`;
    return { route, module: `src/client/${m[2]}` };
  });
}

export function entryKeyOf(manifest: Manifest): string {
  const key = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
  if (!key) throw new Error('no entry chunk in the Vite manifest');
  return key;
}

/** A chunk's file and the files of everything it imports statically, in load order. */
export function staticClosure(manifest: Manifest, key: string, into = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk || into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const imported of chunk.imports ?? []) staticClosure(manifest, imported, into);
  return into;
}

/**
 * The JavaScript files a route's module adds to the entry's: its chunk and its
 * static imports that the entry does not already load. Empty for a module
 * that has no chunk of its own (e.g. the Not Found page, imported statically
 * by the error page, lives in the entry).
 */
export function routeOnlyFiles(manifest: Manifest, module: string): string[] {
  if (!manifest[module]) return [];
  const entry = staticClosure(manifest, entryKeyOf(manifest));
  return [...staticClosure(manifest, module)].filter((file) => file.endsWith('.js') && !entry.has(file));
}
