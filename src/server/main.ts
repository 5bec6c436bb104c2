/**
 * Start-up before the server (`src/server/start.mjs`, the entry point, imports
 * it; `node src/server/main.ts` works too). Node's compile cache goes on first
 * (start.mjs has already turned it on: a no-op then), so the server's ~1,000 modules — TypeScript stripped of its
 * types, then compiled — are read from the cache on every start after the
 * first (in the OS temporary folder; a folder that cannot be written only
 * turns the cache off), and drizzle-orm's ~450 files skip Node's per-file
 * package lookup (start-up-resolve.ts). Then the server itself, serve.ts. See
 * docs/decisions/048-database-endpoints-and-start-up.md.
 *
 * On the embedded database (no DATABASE_URL), a first start creates its data
 * folder before the server's modules load: initdb's peak (~550 MB for a few
 * seconds, in a process of its own) does not add up with the server's
 * (docs/decisions/054-embedded-database-memory.md).
 */
import { enableCompileCache } from 'node:module';
import path from 'node:path';
import { resolveDrizzleDirectly } from './start-up-resolve.ts';

enableCompileCache();
resolveDrizzleDirectly();
// Read from the environment directly, as config.ts reads them (DATABASE_URL
// empty means unset; DATA_DIR defaults to ./data): loading config.ts here
// (zod) would add ~35 MB to the peak. A configuration serve.ts then refuses
// has only created the folder it would need anyway.
if (!process.env.DATABASE_URL) {
  const { createPgliteDataDir, DataDirLockedError } = await import('./db/pglite-data-dir.ts');
  // The folder openDatabase (client.ts) opens.
  await createPgliteDataDir(path.join(process.env.DATA_DIR ?? './data', 'pglite')).catch((error: unknown) => {
    console.error(error instanceof DataDirLockedError ? error.message : error);
    process.exit(1);
  });
}
await import('./serve.ts');
