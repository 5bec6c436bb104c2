/**
 * The process entry point (`node src/server/main.ts`). Node's compile cache
 * goes on first, so the server's ~1,000 modules — TypeScript stripped of its
 * types, then compiled — are read from the cache on every start after the
 * first (in the OS temporary folder; a folder that cannot be written only
 * turns the cache off). Then the server itself, serve.ts. See
 * docs/decisions/048-database-endpoints-and-start-up.md.
 *
 * On the embedded database (no DATABASE_URL), a first start creates its data
 * folder before the server's modules load: initdb's peak (~550 MB for a few
 * seconds, in a process of its own) does not add up with the server's
 * (docs/decisions/054-embedded-database-memory.md).
 */
import { enableCompileCache } from 'node:module';
import path from 'node:path';

enableCompileCache();
// Only for a configuration serve.ts will accept; otherwise it reports what is wrong.
const config = await import('./config.ts').then(({ assertDeployable, loadConfig }) => {
  try {
    const loaded = loadConfig();
    assertDeployable(loaded);
    return loaded;
  } catch {
    return undefined;
  }
});
if (config && !config.DATABASE_URL) {
  const { createPgliteDataDir, DataDirLockedError } = await import('./db/pglite-data-dir.ts');
  // The folder openDatabase (client.ts) opens.
  await createPgliteDataDir(path.join(config.DATA_DIR, 'pglite')).catch((error: unknown) => {
    console.error(error instanceof DataDirLockedError ? error.message : error);
    process.exit(1);
  });
}
await import('./serve.ts');
