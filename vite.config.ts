import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { contentPlugin } from './src/build/content-plugin.ts';
import { precompressPlugin } from './src/build/precompress-plugin.ts';
import { routePreloadPlugin } from './src/build/route-preload-plugin.ts';

export default defineConfig({
  plugins: [react(), tailwindcss(), contentPlugin(), precompressPlugin(), routePreloadPlugin()],
  ssr: {
    // Bundled into the server build (only the icons and functions used) instead of
    // loaded from node_modules at start-up: lucide-react's Node entry is one
    // 1.3 MB file of every icon, date-fns's is a barrel of ~250 modules.
    noExternal: ['lucide-react', 'date-fns'],
  },
  build: {
    manifest: true,
    rolldownOptions: {
      // The site's facts are plain data: a module that imports them without using them (the
      // footer, rendered only on the server) does not need them run.
      treeshake: { moduleSideEffects: (id: string) => !/src\/shared\/(site|brand)\.ts$/.test(id) },
      output: {
        // The site's facts are shared by several pages but by nothing on a first load of the
        // layout: a chunk of their own instead of the entry (docs/decisions/051).
        codeSplitting: { groups: [{ name: 'site', test: /src\/shared\/site\.ts$/ }] },
      },
    },
    sourcemap: false,
    // Every browser the site supports understands <link rel="modulepreload"> (Safari 17+);
    // an older one ignores the links and loads the same modules when they are imported.
    // The polyfill was ~0.2 KB gzip on every first load (docs/decisions/050).
    modulePreload: {
      polyfill: false,
      // The entry (assets/index-*.js, from index.html) lists no dependencies for its dynamic
      // imports: the list of every route's chunks was ~1 KB gzip on every first load, and a
      // first load gets its route's chunks from the HTML (route-preloads); a client-side
      // navigation fetches a route chunk's imports when it runs (docs/decisions/051).
      // Chunks loaded later (the booking wizard's steps) keep theirs.
      resolveDependencies: (_file, deps, { hostId, hostType }) => (hostType === 'js' && /^assets\/index-[^/]+\.js$/.test(hostId) ? [] : deps),
    },
  },
});
