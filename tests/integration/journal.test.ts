import { execFile, execFileSync } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.ts';
import { createSecretBox } from '../../src/server/crypto/secret-box.ts';
import { openPglite, queryRows, type Database, type Db } from '../../src/server/db/client.ts';
import { journalCheckpoints } from '../../src/server/db/schema.ts';
import { checkpointIsSigned, decodeCheckpoint, encodeCheckpoint, journalKey, takeCheckpoint } from '../../src/server/features/journal/anchor.ts';
import { entryHash } from '../../src/server/features/journal/chain.ts';
import { journalCsv } from '../../src/server/features/journal/export-service.ts';
import { appendJournalEntry, latestCheckpointForExport, verifyJournal } from '../../src/server/features/journal/service.ts';
import { copyMigratedDataDir, createTestDatabase, dbKinds } from '../helpers/db.ts';
import { startTestPki, type TestPki } from '../helpers/openssl-pki.ts';

/**
 * The journal's tamper evidence: rows are refused UPDATE/DELETE by a trigger,
 * and someone who gets past it (the table's owner disabling the trigger) still
 * breaks the hash chain, which `npm run journal:verify` reports by entry.
 */
const run = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;

/** The platform journal key, as the server and the script both get it. */
const journalKeySeed = randomBytes(32).toString('base64');

async function journalVerify(env: Record<string, string>, args: string[] = []): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run(process.execPath, ['scripts/journal-verify.ts', ...args], {
      cwd: root,
      env: { PATH: process.env.PATH, LOG_LEVEL: 'silent', JOURNAL_SIGNING_KEY: journalKeySeed, ...env },
    });
    return { code: 0, out: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: `${failed.stdout}${failed.stderr}` };
  }
}

/** What the anchor needs of Deps. */
const anchorDeps = (db: Db, seed = journalKeySeed) => ({
  config: loadConfig({ JOURNAL_SIGNING_KEY: seed }),
  db,
  secrets: createSecretBox(randomBytes(32)),
  now: () => new Date(),
});

const notaryId = randomUUID();
/** Three acts; with `deps`, a signed checkpoint after each, as the seal does. */
async function appendThree(database: Database, deps?: Parameters<typeof takeCheckpoint>[0]) {
  for (const n of [1, 2, 3]) {
    await database.db.transaction((tx) =>
      appendJournalEntry(tx, {
        notaryId,
        bookingId: randomUUID(),
        kind: 'act',
        performedAt: new Date(`2026-03-0${n}T15:00:00Z`),
        data: { actType: 'acknowledgment', signerName: `Signer ${n}`, feeCents: 2500, sealedSha256: 'ab'.repeat(32) },
      }),
    );
    if (deps) await takeCheckpoint(deps);
  }
}

describe.each(dbKinds)('journal hash chain on %s', (kind) => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** A database the script can open too: a PGlite folder, or a PostgreSQL database URL. */
  async function openShared(): Promise<{ database: Database; env: Record<string, string>; reopen(): Promise<Database> }> {
    if (kind === 'pglite') {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'journal-'));
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      const open = () => openPglite(path.join(dataDir, 'pglite'));
      await copyMigratedDataDir(path.join(dataDir, 'pglite'));
      return { database: await open(), env: { DATA_DIR: dataDir }, reopen: open };
    }
    const database = await createTestDatabase('postgres');
    cleanups.push(() => database.close());
    return { database, env: { DATABASE_URL: database.url!, DATA_DIR: tmpdir() }, reopen: async () => database };
  }

  it('refuses UPDATE and DELETE on entries', async () => {
    const database = await createTestDatabase(kind);
    cleanups.push(() => database.close());
    await appendThree(database);
    const refusal = (query: Promise<unknown>) =>
      query.then(
        () => 'accepted',
        (error: Error & { cause?: Error }) => error.cause?.message ?? error.message,
      );
    expect(await refusal(database.db.execute(sql`update journal_entries set data = '{}'::jsonb where seq = 2`))).toMatch(/append-only: UPDATE refused/);
    expect(await refusal(database.db.execute(sql`delete from journal_entries where seq = 3`))).toMatch(/append-only: DELETE refused/);
    expect(await verifyJournal(anchorDeps(database.db))).toMatchObject({ ok: true, entries: 3, problem: null });
    // Checkpoints are append-only too.
    await takeCheckpoint(anchorDeps(database.db));
    expect(await refusal(database.db.execute(sql`update journal_checkpoints set seq = 2`))).toMatch(/journal_checkpoints is append-only: UPDATE refused/);
    expect(await refusal(database.db.execute(sql`delete from journal_checkpoints`))).toMatch(/journal_checkpoints is append-only: DELETE refused/);
  });

  it('journal:verify passes an intact chain, then names an altered entry and a deleted one', async () => {
    const shared = await openShared();
    let database = shared.database;
    await appendThree(database);
    const closeIfPglite = async () => {
      if (kind === 'pglite') await database.close();
    };
    await closeIfPglite();
    const intact = await journalVerify(shared.env);
    expect(intact).toMatchObject({ code: 0 });
    expect(intact.out).toContain('Journal intact: 3 entries');
    expect(intact.out).toContain('No signed checkpoint yet');

    // Someone with the owner's rights gets past the trigger and edits entry 2.
    database = await shared.reopen();
    await database.db.execute(sql`alter table journal_entries disable trigger journal_entries_append_only`);
    await database.db.execute(sql`update journal_entries set data = jsonb_set(data, '{feeCents}', '1') where seq = 2`);
    await closeIfPglite();
    const altered = await journalVerify(shared.env);
    expect(altered.code).toBe(1);
    expect(altered.out).toContain('Journal BROKEN at entry 2');

    // Put entry 2 back and delete it instead: the gap is named.
    database = await shared.reopen();
    await database.db.execute(sql`update journal_entries set data = jsonb_set(data, '{feeCents}', '2500') where seq = 2`);
    expect((await verifyJournal(anchorDeps(database.db))).ok).toBe(true);
    await database.db.execute(sql`delete from journal_entries where seq = 2`);
    await closeIfPglite();
    const deleted = await journalVerify(shared.env);
    expect(deleted.code).toBe(1);
    expect(deleted.out).toContain('Journal BROKEN at entry 2');
    expect(deleted.out).toContain('missing');
    // Each run of the script opens the database afresh (PGlite: its own process), slow on a loaded machine.
  }, 180_000);

  /** Past the trigger, as the table's owner can be. */
  const untrigger = (db: Db) => db.execute(sql`alter table journal_entries disable trigger journal_entries_append_only`);

  it('a signed checkpoint catches the newest entries deleted, and a chain rewritten with our own hash function (journal:verify)', async () => {
    const shared = await openShared();
    let database = shared.database;
    await appendThree(database, anchorDeps(database.db));
    const closeIfPglite = async () => {
      if (kind === 'pglite') await database.close();
    };
    expect(await verifyJournal(anchorDeps(database.db))).toMatchObject({ ok: true, entries: 3, unanchored: 0, latestCheckpoint: { seq: 3, signed: true } });

    // Attack 1: the newest entry deleted. The chain that is left is internally perfect.
    await untrigger(database.db);
    const [removed] = await queryRows<Record<string, unknown>>(database.db, sql`delete from journal_entries where seq = 3 returning *`);
    await closeIfPglite();
    const truncated = await journalVerify(shared.env);
    expect(truncated.code).toBe(1);
    expect(truncated.out).toContain('Journal BROKEN at entry 3: entry 3 is missing: the signed checkpoint of');
    expect(truncated.out).toContain('counts 3 entries, the journal ends at entry 2');

    // Put it back; then attack 2: entry 2 rewritten and every later hash recomputed with the app's own function.
    database = await shared.reopen();
    await database.db.execute(sql`insert into journal_entries select * from jsonb_populate_record(null::journal_entries, ${JSON.stringify(removed)}::jsonb)`);
    expect((await verifyJournal(anchorDeps(database.db))).ok).toBe(true);
    await rewriteFrom(database.db, 2, { feeCents: 1 });
    await closeIfPglite();
    const rewritten = await journalVerify(shared.env);
    expect(rewritten.code).toBe(1);
    expect(rewritten.out).toContain('Journal BROKEN at entry 2: the chain was rewritten');
  }, 180_000);

  it('every hashed field counts, created_at included; a forged checkpoint is refused; a copy kept outside catches deleted checkpoints', async () => {
    const database = await createTestDatabase(kind);
    cleanups.push(() => database.close());
    await appendThree(database);
    const deps = anchorDeps(database.db);
    for (let i = 0; i < 3; i++) await takeCheckpoint(deps);
    await untrigger(database.db);

    await database.db.execute(sql`update journal_entries set created_at = created_at + interval '1 second' where seq = 2`);
    expect((await verifyJournal(deps)).problem).toEqual({ seq: 2, reason: 'entry 2 was changed (its content no longer matches its hash)' });
    await database.db.execute(sql`update journal_entries set created_at = created_at - interval '1 second' where seq = 2`);
    for (const [column, value] of [['performed_at', sql`performed_at + interval '1 minute'`], ['notary_id', sql`gen_random_uuid()`], ['kind', sql`'correction'`], ['corrects_seq', sql`1`]] as const) {
      const [before] = await queryRows<Record<string, unknown>>(database.db, sql`select * from journal_entries where seq = 1`);
      await database.db.execute(sql`update journal_entries set ${sql.raw(column)} = ${value} where seq = 1`);
      expect((await verifyJournal(deps)).problem?.seq, column).toBe(1);
      await database.db.execute(sql`update journal_entries set ${sql.raw(column)} = ${before![column] instanceof Date ? (before![column] as Date).toISOString() : before![column]} where seq = 1`);
    }
    expect((await verifyJournal(deps)).ok).toBe(true);

    // The exported checkpoint (the CSV's last row) is a copy kept outside the database.
    const exported = journalCsv([], await latestCheckpointForExport(database.db));
    const outside = decodeCheckpoint(exported)!;
    expect(outside.payload.seq).toBe(3);

    // Someone deletes the newest entry AND every checkpoint of it: the database alone cannot tell…
    await database.db.execute(sql`alter table journal_checkpoints disable trigger journal_checkpoints_append_only`);
    await database.db.execute(sql`delete from journal_entries where seq = 3`);
    await database.db.execute(sql`delete from journal_checkpoints`);
    await takeCheckpoint(deps);
    expect((await verifyJournal(deps)).ok).toBe(true);
    // …the copy kept outside does.
    expect((await verifyJournal(deps, { outside: [outside] })).problem).toMatchObject({ seq: 3, reason: expect.stringContaining('(copy kept outside the database) counts 3 entries') });

    // A checkpoint signed with another key (someone making their own) is not accepted.
    await takeCheckpoint(anchorDeps(database.db, randomBytes(32).toString('base64')));
    expect((await verifyJournal(deps)).problem?.reason).toMatch(/is not signed with this platform's journal key/);
    await database.db.delete(journalCheckpoints);
  });

  it('checks a journal in batches: results do not depend on the batch size', async () => {
    const database = await createTestDatabase(kind);
    cleanups.push(() => database.close());
    await appendThree(database);
    await appendThree(database);
    const deps = anchorDeps(database.db);
    await takeCheckpoint(deps);
    for (const batchSize of [1, 2, 5, 1000]) expect(await verifyJournal(deps, { batchSize }), `batch ${batchSize}`).toMatchObject({ ok: true, entries: 6, unanchored: 0 });
    await untrigger(database.db);
    await rewriteFrom(database.db, 4, { signerName: 'Someone Else' });
    for (const batchSize of [1, 2, 5]) expect((await verifyJournal(deps, { batchSize })).problem?.seq, `batch ${batchSize}`).toBe(1);
  });

  it('names an altered, a missing and a doubled entry at a batch boundary; past entry 9 entries go in number order, in the script too (decision 128)', async () => {
    const shared = await openShared();
    let database = shared.database;
    const deps = anchorDeps(database.db);
    // 25 entries, a checkpoint after every fifth: batches of 5 end on 5, 10, 15…
    for (let n = 1; n <= 25; n++) {
      await database.db.transaction((tx) =>
        appendJournalEntry(tx, { notaryId, bookingId: randomUUID(), kind: 'act', performedAt: new Date(Date.UTC(2026, 2, 1, 9, n)), data: { actType: 'jurat', signerName: `Signer ${n}`, feeCents: 2500 } }),
      );
      if (n % 5 === 0) await takeCheckpoint(deps);
    }
    for (const batchSize of [1, 5, 7, 200]) expect(await verifyJournal(deps, { batchSize }), `batch ${batchSize}`).toMatchObject({ ok: true, entries: 25, unanchored: 0, latestCheckpoint: { seq: 25 } });
    const script = async () => {
      if (kind === 'pglite') await database.close();
      const result = await journalVerify(shared.env);
      database = await shared.reopen();
      return result;
    };
    const intact = await script();
    expect(intact.out).toContain('Journal intact: 25 entries');
    expect(intact.code).toBe(0);

    await untrigger(database.db);
    const problem = async () => {
      const found = new Set((await Promise.all([5, 7].map(async (batchSize) => (await verifyJournal(anchorDeps(database.db), { batchSize })).problem))).map((p) => JSON.stringify(p)));
      expect(found.size, 'the same problem whatever the batch').toBe(1);
      return JSON.parse([...found][0]!) as { seq: number; reason: string } | null;
    };
    // The last entry of a batch edited in place.
    await database.db.execute(sql`update journal_entries set data = jsonb_set(data, '{feeCents}', '1') where seq = 10`);
    expect(await problem()).toEqual({ seq: 10, reason: 'entry 10 was changed (its content no longer matches its hash)' });
    const altered = await script();
    expect([altered.code, altered.out.trim()]).toEqual([1, 'Journal BROKEN at entry 10: entry 10 was changed (its content no longer matches its hash).']);
    await database.db.execute(sql`update journal_entries set data = jsonb_set(data, '{feeCents}', '2500') where seq = 10`);
    expect(await problem()).toBeNull();

    // The first entry of a batch doubled: entry 11 replaced by a copy of entry 10.
    const [eleven] = await queryRows<Record<string, unknown>>(database.db, sql`select * from journal_entries where seq = 11`);
    const columns = sql.raw('notary_id, booking_id, kind, corrects_seq, performed_at, data, prev_hash, hash, created_at, chain_version');
    await database.db.execute(sql`update journal_entries set (${columns}) = (select ${columns} from journal_entries where seq = 10) where seq = 11`);
    expect(await problem()).toEqual({ seq: 11, reason: 'entry 11 does not follow entry 10 (previous hash differs)' });
    await database.db.execute(sql`delete from journal_entries where seq = 11`);
    await database.db.execute(sql`insert into journal_entries select * from json_populate_record(null::journal_entries, ${JSON.stringify(eleven)}::json)`);
    expect(await problem()).toBeNull();

    // The first entry of a batch deleted.
    await database.db.execute(sql`delete from journal_entries where seq = 16`);
    expect(await problem()).toEqual({ seq: 16, reason: 'entry 16 is missing (the next entry found is 17)' });
    const missing = await script();
    expect([missing.code, missing.out.trim()]).toEqual([1, 'Journal BROKEN at entry 16: entry 16 is missing (the next entry found is 17).']);
  }, 180_000);
});

describe('journal checkpoints with a timestamp authority (OpenSSL TSA on loopback)', () => {
  let pki: TestPki;
  beforeAll(async () => {
    pki = await startTestPki();
  }, 60_000);
  afterAll(() => pki?.stop());

  it('carry an RFC 3161 token over the signed payload that openssl ts -verify accepts; a changed token is refused', async () => {
    const database = await createTestDatabase('pglite');
    try {
      await appendThree(database);
      const deps = { ...anchorDeps(database.db), config: loadConfig({ JOURNAL_SIGNING_KEY: journalKeySeed, TSA_URL: pki.tsaUrl }) };
      const row = (await takeCheckpoint(deps))!;
      expect(row.timestampAuthority).toBe(new URL(pki.tsaUrl).host);
      const decoded = decodeCheckpoint(row.encoded)!;
      expect(decoded.token).not.toBeNull();
      const token = path.join(pki.dir, 'checkpoint.tst');
      writeFileSync(token, decoded.token!);
      const digest = createHash('sha256').update(decoded.payloadBytes).digest('hex');
      const out = execFileSync('openssl', ['ts', '-verify', '-token_in', '-in', token, '-digest', digest, '-CAfile', pki.rootPem, '-untrusted', path.join(pki.dir, 'tsa.pem')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      expect(out).toContain('Verification: OK');
      expect(await verifyJournal(deps)).toMatchObject({ ok: true, latestCheckpoint: { seq: 3, timestampAuthority: new URL(pki.tsaUrl).host } });

      // The token swapped for one over other data: the checkpoint no longer counts.
      const other = await takeCheckpoint({ ...deps, now: () => new Date(Date.now() + 1000) });
      const swapped = encodeCheckpoint(decoded.payloadBytes, decoded.signature, decodeCheckpoint(other!.encoded)!.token);
      expect(checkpointIsSigned(decodeCheckpoint(swapped)!, await journalKey(deps))).toBe(false);
      // A TSA that does not answer: the checkpoint is still signed and stored, without a token.
      const unreachable = { ...deps, config: loadConfig({ JOURNAL_SIGNING_KEY: journalKeySeed, TSA_URL: 'http://127.0.0.1:9/tsa' }) };
      expect(await takeCheckpoint(unreachable)).toMatchObject({ seq: 3, timestampAuthority: null });
    } finally {
      await database.close();
    }
  }, 120_000);
});

/** Rewrites entry `from` with `change` merged into its data, then recomputes it and every later hash. */
async function rewriteFrom(db: Db, from: number, change: Record<string, unknown>) {
  const rows = await queryRows<Record<string, unknown>>(db, sql`select * from journal_entries where seq >= ${from - 1} order by seq`);
  let prevHash = rows[0]!.seq === from ? '0'.repeat(64) : String(rows[0]!.hash);
  for (const row of rows.filter((r) => Number(r.seq) >= from)) {
    const data = Number(row.seq) === from ? { ...(row.data as object), ...change } : row.data;
    const fields = {
      seq: Number(row.seq),
      notaryId: String(row.notary_id),
      bookingId: (row.booking_id as string | null) ?? null,
      kind: row.kind as 'act',
      correctsSeq: row.corrects_seq === null ? null : Number(row.corrects_seq),
      performedAt: new Date(row.performed_at as string),
      data,
      prevHash,
      createdAt: new Date(row.created_at as string),
      chainVersion: Number(row.chain_version),
    };
    const hash = entryHash(fields);
    await db.execute(sql`update journal_entries set data = ${JSON.stringify(data)}::jsonb, prev_hash = ${prevHash}, hash = ${hash} where seq = ${fields.seq}`);
    prevHash = hash;
  }
}
