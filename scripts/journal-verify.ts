/**
 * Checks the notary journal's hash chain:
 *   npm run journal:verify
 * Uses DATABASE_URL (PostgreSQL) or the embedded database in DATA_DIR, like the
 * server. Exit code 0: intact; 1: the first bad entry is named; 2: could not run.
 */
import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/client.ts';
import { verifyJournal } from '../src/server/features/journal/service.ts';

async function main(): Promise<number> {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    const result = await verifyJournal(database.db);
    if (result.ok) {
      console.log(`Journal intact: ${result.entries} entries, hash chain verified.`);
      return 0;
    }
    console.log(`Journal BROKEN at entry ${result.problem!.seq}: ${result.problem!.reason}.`);
    return 1;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.log(`journal:verify could not run: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  },
);
