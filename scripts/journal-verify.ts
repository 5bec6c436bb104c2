/**
 * Checks the notary journal's hash chain against its signed checkpoints
 * (docs/decisions/036 and 090):
 *   npm run journal:verify
 *   npm run journal:verify -- --checkpoint njc1.…          (a checkpoint kept outside the database)
 *   npm run journal:verify -- --checkpoint journal.csv     (or a file holding one: an export, an email)
 * Uses DATABASE_URL (PostgreSQL) or the embedded database in DATA_DIR, and the
 * journal key (JOURNAL_SIGNING_KEY, or the generated one opened with
 * DATA_ENCRYPTION_KEY), like the server. Entries are read in batches: memory
 * stays flat whatever the journal's length.
 * Exit code 0: intact; 1: the first entry affected is named; 2: could not run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/server/config.ts';
import { secretBoxFromConfig } from '../src/server/crypto/secret-box.ts';
import { openDatabase } from '../src/server/db/client.ts';
import { decodeCheckpoint, type DecodedCheckpoint } from '../src/server/features/journal/anchor.ts';
import { verifyJournal } from '../src/server/features/journal/service.ts';

function readCheckpoint(value: string): DecodedCheckpoint {
  const text = existsSync(value) ? readFileSync(value, 'utf8') : value;
  // A checkpoint printed over several lines (the PDF export) reads back with the breaks removed.
  const decoded = decodeCheckpoint(text) ?? decodeCheckpoint(text.replace(/\s+/g, ''));
  if (!decoded) throw new Error(`no journal checkpoint (njc1.…) found in ${value.length > 40 ? `${value.slice(0, 40)}…` : value}`);
  return decoded;
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { checkpoint: { type: 'string', multiple: true } } });
  const outside = (values.checkpoint ?? []).map(readCheckpoint);
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    const result = await verifyJournal({ config, db: database.db, secrets: secretBoxFromConfig(config) }, { outside });
    if (!result.ok) {
      console.log(`Journal BROKEN at entry ${result.problem!.seq}: ${result.problem!.reason}.`);
      return 1;
    }
    const latest = result.latestCheckpoint;
    console.log(
      `Journal intact: ${result.entries} entries, hash chain verified` +
        (latest
          ? ` against the signed checkpoint of ${latest.takenAt.toISOString()} (entry ${latest.seq}, ${latest.source}${latest.timestampAuthority ? `, timestamped by ${latest.timestampAuthority}` : ''}).`
          : '.'),
    );
    if (!latest && result.entries > 0) console.log('No signed checkpoint yet: deleting the newest entries or rewriting the chain could not be detected.');
    if (result.unanchored > 0) console.log(`${result.unanchored} newest entr${result.unanchored === 1 ? 'y is' : 'ies are'} not yet covered by a checkpoint (one is taken after every act and hourly).`);
    return 0;
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
