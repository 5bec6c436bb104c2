import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/**
 * Writes `<file>.br` (brotli, highest quality) and `<file>.gz` next to every
 * compressible client asset, once at build time: the server sends these bytes
 * as they are (src/server/http/pages.ts, builtFiles) instead of compressing
 * each response. Fonts and images are already compressed and are left alone.
 */
export function precompressPlugin(): Plugin {
  return {
    name: 'notary:precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      if (this.environment?.config.build.ssr || !options.dir) return;
      for (const file of Object.keys(bundle)) {
        if (!/\.(js|mjs|css|svg|json|html|txt|xml)$/.test(file) || file.endsWith('index.html')) continue;
        const absolute = path.join(options.dir, file);
        const output = bundle[file]!;
        const source = Buffer.from(output.type === 'chunk' ? output.code : output.source);
        const br = brotliCompressSync(source, { params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: source.length } });
        const gz = gzipSync(source, { level: 9 });
        if (br.length < source.length) writeFileSync(`${absolute}.br`, br);
        if (gz.length < source.length) writeFileSync(`${absolute}.gz`, gz);
      }
    },
  };
}
