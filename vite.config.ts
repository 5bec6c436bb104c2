import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { contentPlugin } from './src/build/content-plugin.ts';

export default defineConfig({
  plugins: [react(), tailwindcss(), contentPlugin()],
  build: {
    manifest: true,
    sourcemap: false,
  },
});
