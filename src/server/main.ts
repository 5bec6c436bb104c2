/**
 * The process entry point (`node src/server/main.ts`). Node's compile cache
 * goes on first, so the server's ~1,000 modules — TypeScript stripped of its
 * types, then compiled — are read from the cache on every start after the
 * first (in the OS temporary folder; a folder that cannot be written only
 * turns the cache off). Then the server itself, serve.ts. See
 * docs/decisions/048-database-endpoints-and-start-up.md.
 */
import { enableCompileCache } from 'node:module';

enableCompileCache();
await import('./serve.ts');
