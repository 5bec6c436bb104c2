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
    sourcemap: false,
    // Every browser the site supports understands <link rel="modulepreload"> (Safari 17+);
    // an older one ignores the links and loads the same modules when they are imported.
    // The polyfill was ~0.2 KB gzip on every first load (docs/decisions/050).
    modulePreload: { polyfill: false },
  },
});
