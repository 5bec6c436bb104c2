/**
 * The process entry point (`node src/server/start.mjs`; `npm run serve`, the
 * Dockerfile). Plain JavaScript on purpose: Node strips TypeScript with a
 * WebAssembly compiler that it loads on the first `.ts` file, ~0.1 s on an
 * idle machine and 0.3–0.5 s on a busy one — on every start when that first
 * file is the entry itself, before any cache can help. Here the compile cache
 * goes on first, so main.ts and the ~1,000 modules after it are read already
 * stripped and compiled, and the stripper is never loaded on a restart
 * (docs/decisions/048-database-endpoints-and-start-up.md, "Later: the entry").
 * `node src/server/main.ts` still works, paying that cost.
 */
import { enableCompileCache } from 'node:module';

enableCompileCache();
await import('./main.ts');
