/**
 * `npm run journal:verify`'s memory as the journal grows (issue 31: constant
 * memory, ≤ 100 MB at 1M entries). For each size: a fresh PostgreSQL database,
 * that many chained entries (realistic act data, ~0.9 KB of JSON each) and a
 * signed checkpoint after every `--checkpoint-every` entries, then the real
 * script as a child process, its peak RSS read from /proc (VmHWM).
 *
 *   node scripts/bench/journal-verify.ts                          # 10k, 100k, 1M entries
 *   node scripts/bench/journal-verify.ts --sizes 1000 --checkpoint-every 1
 *   node scripts/bench/journal-verify.ts --sizes 1000000 --checkpoint-every 1000 --keep journal_1m   # seeds once, kept, verified again on the next run
 *
 * Uses BENCH_DATABASE_URL or TEST_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/test)
 * as the server to create the databases on; each is dropped afterwards.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes, randomUUID, sign } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { loadConfig } from '../../src/server/config.ts';
import { createSecretBox } from '../../src/server/crypto/secret-box.ts';
import { openPostgres } from '../../src/server/db/client.ts';
import { journalCheckpoints, journalEntries } from '../../src/server/db/schema.ts';
import { encodeCheckpoint, journalKey } from '../../src/server/features/journal/anchor.ts';
import { canonicalJson, currentChainVersion, entryHash, genesisHash } from '../../src/server/features/journal/chain.ts';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000,1000000' },
    'checkpoint-every': { type: 'string', default: '1' },
    /** Node flags for the script instead of package.json's (to compare). */
    'node-flags': { type: 'string' },
    /** A database of this name (one size only) is seeded once and kept, so a change to the script can be measured again without seeding. */
    keep: { type: 'string' },
  },
});
const sizes = values.sizes!.split(',').map(Number);
const checkpointEvery = Number(values['checkpoint-every']);
const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const root = new URL('../../', import.meta.url).pathname;
/** A kept database's entries are signed with a key derived from its name, so a later run verifies them. */
const seed = values.keep ? createHash('sha256').update(`journal-bench ${values.keep}`).digest('base64') : randomBytes(32).toString('base64');
if (values.keep && (sizes.length !== 1 || !/^[a-z0-9_]+$/.test(values.keep))) throw new Error('--keep takes one size and a database name of a-z, 0-9 and _');
const config = loadConfig({ JOURNAL_SIGNING_KEY: seed });

/** A fresh database, dropped afterwards; or with --keep, the kept one (`fresh` tells whether it still needs seeding). */
async function withDatabase<T>(run: (url: string, fresh: boolean) => Promise<T>): Promise<T> {
  if (values.keep) return withKeptDatabase(values.keep, run);
  const name = `bench_journal_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  try {
    return await run(url.toString(), true);
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

async function withKeptDatabase<T>(name: string, run: (url: string, fresh: boolean) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  const exists = (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
  if (!exists) await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  let fresh = !exists;
  if (exists) {
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    const { rows } = await client.query<{ n: string }>('select count(*) as n from journal_entries').catch(() => ({ rows: [{ n: '0' }] }));
    await client.end();
    if (Number(rows[0]!.n) !== sizes[0]) throw new Error(`${name} holds ${rows[0]!.n} entries, not ${sizes[0]}: drop it first`);
    fresh = false;
  }
  return run(url.toString(), fresh);
}

async function seedJournal(url: string, count: number) {
  const database = await openPostgres(url, { max: 2 });
  const deps = { config, db: database.db, secrets: createSecretBox(randomBytes(32)) };
  const key = await journalKey(deps);
  const notaryId = randomUUID();
  let prevHash = genesisHash;
  const batch = 2000;
  for (let start = 1; start <= count; start += batch) {
    const rows = [];
    const checkpoints = [];
    for (let seq = start; seq < Math.min(start + batch, count + 1); seq++) {
      const performedAt = new Date(Date.UTC(2020, 0, 1) + seq * 60_000);
      const data = {
        actType: 'acknowledgment',
        documentTitle: `Affidavit of residence ${seq}.pdf`,
        pageCount: 3,
        signerName: 'Grace Brewster Hopper',
        signerAddress: null,
        identity: { provider: 'stripe', verificationId: `vs_${createHash('sha256').update(String(seq)).digest('hex').slice(0, 24)}`, idType: 'driving_license', issuingState: 'IA', expiresOn: '2031-05-31' },
        feeCents: 2500,
        currency: 'usd',
        recordingRef: randomUUID(),
        sealedSha256: createHash('sha256').update(`sealed ${seq}`).digest('hex'),
        notaryName: 'Nora Notary',
        bookingReference: `NOTARY-${String(seq).padStart(8, '0')}`,
        verificationCode: 'ABCD-EFGH-JKMN',
        commissionNumber: 'IA-778899',
        commissionState: 'Iowa',
        commissionExpiresOn: '2029-06-30',
        signatureLevel: 'PDF signature (adbe.pkcs7.detached), signing time from the server clock',
        timestampAuthority: null,
      };
      const fields = { seq, notaryId, bookingId: randomUUID(), kind: 'act' as const, correctsSeq: null, performedAt, data, prevHash, createdAt: performedAt, chainVersion: currentChainVersion };
      const hash = entryHash(fields);
      rows.push({ ...fields, hash });
      prevHash = hash;
      if (seq % checkpointEvery === 0 || seq === count) {
        const payloadBytes = Buffer.from(canonicalJson({ v: 1, seq, hash, takenAt: performedAt.toISOString(), keyId: key.id }));
        checkpoints.push({ seq, headHash: hash, entryCount: seq, takenAt: performedAt, keyId: key.id, encoded: encodeCheckpoint(payloadBytes, sign(null, payloadBytes, key.privateKey), null), timestampAuthority: null });
      }
    }
    await database.db.insert(journalEntries).values(rows);
    if (checkpoints.length) await database.db.insert(journalCheckpoints).values(checkpoints);
  }
  await database.db.execute('analyze journal_entries' as never);
  await database.close();
}

/** The node flags `npm run journal:verify` runs with (package.json), so the figure is the script's as shipped. */
const shippedFlags = (JSON.parse(readFileSync(new URL('package.json', `file://${root}`), 'utf8')) as { scripts: Record<string, string> }).scripts['journal:verify']!
  .split(/\s+/)
  .filter((arg) => arg.startsWith('--max-'));
const scriptFlags = values['node-flags'] !== undefined ? values['node-flags'].split(/\s+/).filter(Boolean) : shippedFlags;

/**
 * Runs journal:verify; its peak RSS (VmHWM), polled from /proc until it exits.
 * `compileCache` is the NODE_COMPILE_CACHE folder package.json gives it: empty
 * on a first run (Node then loads its TypeScript stripper, ~17 MB), filled after.
 */
function verify(url: string, compileCache: string): Promise<{ code: number; out: string; peakBytes: number; seconds: number; cpuSeconds: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(process.execPath, [...scriptFlags, 'scripts/journal-verify.ts'], { cwd: root, env: { PATH: process.env.PATH, DATABASE_URL: url, JOURNAL_SIGNING_KEY: seed, LOG_LEVEL: 'silent', NODE_COMPILE_CACHE: compileCache } });
    let out = '';
    let peakBytes = 0;
    let cpuTicks = 0;
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const poll = setInterval(() => {
      try {
        const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (match) peakBytes = Math.max(peakBytes, Number(match[1]) * 1024);
        // utime + stime (fields 14 and 15 of /proc/<pid>/stat, after the command's parentheses), in clock ticks.
        const statText = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
        const stat = statText.slice(statText.lastIndexOf(')') + 2).split(' ');
        cpuTicks = Math.max(cpuTicks, Number(stat[11]) + Number(stat[12]));
      } catch {
        // Exited between two polls.
      }
    }, 20);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(poll);
      resolve({ code: code ?? -1, out: out.trim(), peakBytes, seconds: (Date.now() - started) / 1000, cpuSeconds: cpuTicks / 100 });
    });
  });
}

console.log(`Node flags: ${scriptFlags.join(' ') || '(none)'}\n`);
console.log(`| Entries | Checkpoints | Run | journal:verify peak RSS | CPU time | Wall time | Result |`);
console.log(`|---|---|---|---|---|---|---|`);
for (const size of sizes) {
  await withDatabase(async (url, fresh) => {
    if (fresh) await seedJournal(url, size);
    // The first run on an empty compile cache, then a run as every later one is.
    const cache = mkdtempSync(path.join(tmpdir(), 'journal-verify-cache-'));
    try {
      for (const run of ['first (empty compile cache)', 'later']) {
        const result = await verify(url, cache);
        if (result.code !== 0) throw new Error(`journal:verify failed on ${size} entries: ${result.out}`);
        console.log(`| ${size.toLocaleString('en-US')} | ${Math.ceil(size / checkpointEvery).toLocaleString('en-US')} | ${run} | ${(result.peakBytes / 1048576).toFixed(1)} MB | ${result.cpuSeconds.toFixed(1)} s | ${result.seconds.toFixed(1)} s | ${result.out.split('\n')[0]!.slice(0, 48)}… |`);
      }
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });
}
