import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openPglite, type Database } from '../../src/server/db/client.ts';
import { appendJournalEntry, verifyJournal } from '../../src/server/features/journal/service.ts';
import { createTestDatabase, dbKinds } from '../helpers/db.ts';

/**
 * The journal's tamper evidence: rows are refused UPDATE/DELETE by a trigger,
 * and someone who gets past it (the table's owner disabling the trigger) still
 * breaks the hash chain, which `npm run journal:verify` reports by entry.
 */
const run = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;

async function journalVerify(env: Record<string, string>): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run(process.execPath, ['scripts/journal-verify.ts'], { cwd: root, env: { PATH: process.env.PATH, LOG_LEVEL: 'silent', ...env } });
    return { code: 0, out: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: `${failed.stdout}${failed.stderr}` };
  }
}

const notaryId = randomUUID();
async function appendThree(database: Database) {
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
    expect(await verifyJournal(database.db)).toEqual({ ok: true, entries: 3, problem: null });
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
    expect((await verifyJournal(database.db)).ok).toBe(true);
    await database.db.execute(sql`delete from journal_entries where seq = 2`);
    await closeIfPglite();
    const deleted = await journalVerify(shared.env);
    expect(deleted.code).toBe(1);
    expect(deleted.out).toContain('Journal BROKEN at entry 2');
    expect(deleted.out).toContain('missing');
  });
});
