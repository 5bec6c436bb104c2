/**
 * Checks the notary journal's hash chain against its signed checkpoints
 * (docs/decisions/036 and 090):
 *   npm run journal:verify
 *   npm run journal:verify -- --checkpoint njc1.…          (a checkpoint kept outside the database)
 *   npm run journal:verify -- --checkpoint journal.csv     (or a file holding one: an export, an email)
 * Uses DATABASE_URL (PostgreSQL) or the embedded database in DATA_DIR, and the
 * journal key (JOURNAL_SIGNING_KEY, or the generated one opened with
 * DATA_ENCRYPTION_KEY), like the server. Entries are read in batches: memory
 * stays flat whatever the journal's length. On PostgreSQL it loads only `pg`
 * and the check itself (no ORM, no schema, no config schema: decision 128),
 * and changes nothing: it neither migrates nor creates a key.
 * Exit code 0: intact; 1: the first entry affected is named; 2: could not run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { parseKey, secretBoxFromConfig } from '../src/server/crypto/secret-box.ts';
import { decodeCheckpoint, type DecodedCheckpoint } from '../src/server/features/journal/checkpoint.ts';
import { journalKeyForCheck, verifyJournalWith, type JournalQuery } from '../src/server/features/journal/verify.ts';

/**
 * The few settings the check reads, as src/server/config.ts names them (the
 * server's zod schema is not loaded here: ~16 MB). An empty value is unset.
 */
function settings(env: NodeJS.ProcessEnv) {
  const set = (name: string) => env[name]?.trim() || undefined;
  const signingKey = set('JOURNAL_SIGNING_KEY');
  const seed = signingKey ? parseKey(signingKey) : null;
  if (signingKey && !seed) throw new Error('Invalid configuration in the environment:\n  JOURNAL_SIGNING_KEY: must be 32 random bytes in base64 or hex (e.g. `openssl rand -base64 32`)');
  return {
    databaseUrl: set('DATABASE_URL'),
    dataDir: set('DATA_DIR') ?? './data',
    seed,
    encryptionKey: set('DATA_ENCRYPTION_KEY'),
    previousEncryptionKey: set('DATA_ENCRYPTION_KEY_PREVIOUS'),
  };
}

/** A connection to the journal's database: a bare `pg` client on PostgreSQL, the embedded database's otherwise. */
async function connect(config: ReturnType<typeof settings>): Promise<{ query: JournalQuery; close: () => Promise<void> }> {
  if (config.databaseUrl) {
    const client = new pg.Client({ connectionString: config.databaseUrl });
    await client.connect();
    return { query: async (text, values) => (await client.query(text, values)).rows, close: () => client.end() };
  }
  const { openDatabase } = await import('../src/server/db/client.ts');
  const database = await openDatabase({ dataDir: config.dataDir });
  return { query: async (text, values) => (await database.queryPool.query(text, values)).rows, close: () => database.close() };
}

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
  const config = settings(process.env);
  const database = await connect(config);
  try {
    const secrets = () => secretBoxFromConfig({ DATA_ENCRYPTION_KEY: config.encryptionKey, DATA_ENCRYPTION_KEY_PREVIOUS: config.previousEncryptionKey, DATA_DIR: config.dataDir });
    const key = await journalKeyForCheck(database.query, config.seed, (sealed, purpose) => secrets().open(sealed, purpose));
    const result = await verifyJournalWith(database.query, key, { outside });
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
