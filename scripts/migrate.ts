/**
 * Applies the SQL migrations in `drizzle/` and exits:
 *   npm run db:migrate          (DATABASE_URL from the environment or .env)
 * With DATABASE_URL: PostgreSQL, under the same advisory lock the server takes at
 * start-up, so several nodes (or a deploy job and a starting node) may run it at
 * once: the first applies, the others wait and find nothing left to do.
 * Without it: the embedded database in DATA_DIR (stop the server first).
 * The server also migrates at start-up; this is for a deploy step that must
 * finish before new code takes traffic.
 */
import path from 'node:path';
import { loadConfig } from '../src/server/config.ts';
import { DataDirLockedError, openDatabase, queryRows } from '../src/server/db/client.ts';
import { sql } from 'drizzle-orm';

async function main() {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    const [row] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    const where = config.DATABASE_URL ? new URL(config.DATABASE_URL).pathname.slice(1) : path.resolve(config.DATA_DIR, 'pglite');
    console.log(`Database ${where} is up to date (${row?.n ?? 0} migrations applied).`);
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof DataDirLockedError || (error instanceof Error && error.message.startsWith('Invalid configuration')) ? error.message : error);
  process.exit(1);
});
