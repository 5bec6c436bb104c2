import { randomUUID } from 'node:crypto';
import { mkdirSync, utimesSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents } from '../../src/server/db/schema.ts';
import { documentObjects } from '../../src/server/features/documents/storage-owner.ts';
import type { StorageOwner } from '../../src/server/features/storage-sweep/owners.ts';
import { orphanGraceMs, sweepStorage } from '../../src/server/features/storage-sweep/sweep.ts';
import { startTestApp, type TestServer } from '../helpers/app.ts';
import { dbKinds } from '../helpers/db.ts';
import { startLocalS3, type LocalS3 } from '../helpers/s3rver.ts';
import { bookingClient, putBytes, type BookingClient } from './booking-helpers.ts';

/**
 * The orphan sweep (docs/decisions/029): deletes objects no registered owner
 * claims once they are older than the longest write, and the temporaries
 * interrupted writes leave; keeps everything live, young or not ours.
 */
const pdf = Buffer.from('%PDF-1.4\n% sweep test\n%%EOF\n');
const later = (ms: number) => () => new Date(Date.now() + ms);

let s3: LocalS3;
beforeAll(async () => {
  s3 = await startLocalS3(`sweep-${randomUUID().slice(0, 8)}`);
});
afterAll(() => s3?.close());

const setups: [string, string, () => Record<string, string>][] = [
  ...dbKinds.map((kind) => [kind, 'local', () => ({})] as [string, string, () => Record<string, string>]),
  ['pglite', 's3', () => s3.env],
];

describe.each(setups)('storage sweep (%s, %s storage)', (kind, driver, env) => {
  let app: TestServer;
  let api: BookingClient;
  beforeAll(async () => {
    app = await startTestApp(kind as 'pglite' | 'postgres', env());
    api = bookingClient(app.url);
  });
  afterAll(() => app?.close());

  const draft = async () => (await api.booking.start.mutate({ timeZone: 'America/Chicago' })).bookingId;
  const upload = async (bookingId: string) => {
    const { uploadUrl, documentId } = await api.documents.createUpload.mutate({ bookingId, fileName: 'deed.pdf', sizeBytes: pdf.length, contentType: 'application/pdf' });
    expect((await putBytes(app.url, uploadUrl, pdf)).status).toBe(201);
    const [row] = await app.deps.db.select().from(documents).where(eq(documents.id, documentId));
    return row!;
  };
  const put = (key: string) => app.deps.storage.put(key, Readable.from([pdf]), { contentType: 'application/pdf', upsert: true });

  it('deletes objects no live row points to, keeps live, young and unowned ones', async () => {
    const bookingId = await draft();
    const stored = await upload(bookingId);
    // A crash between the commit marking a document deleted and the delete of its bytes.
    const removed = await upload(bookingId);
    await app.deps.db.update(documents).set({ status: 'deleted', deletedAt: new Date() }).where(eq(documents.id, removed.id));
    // A kill between moving the bytes into place and the commit: no row at all (the pending row expired and went).
    const noRow = `${bookingId}/${randomUUID()}.pdf`;
    await put(noRow);
    // An upload in progress: its pending row holds the key without the extension.
    const { documentId: pendingId } = await api.documents.createUpload.mutate({ bookingId, fileName: 'in-flight.pdf', sizeBytes: pdf.length, contentType: 'application/pdf' });
    const [pending] = await app.deps.db.select().from(documents).where(eq(documents.id, pendingId));
    const inFlight = `${pending!.storageKey}.pdf`;
    await put(inFlight);
    // Another feature's objects, registered nowhere: never touched.
    const unowned = `unregistered-feature/${bookingId}/${randomUUID()}.bin`;
    await put(unowned);

    // Young: nothing may go yet (a write may be about to commit).
    expect(await sweepStorage(app.deps)).toMatchObject({ orphans: 0 });

    const report = await sweepStorage({ ...app.deps, now: later(orphanGraceMs + 60_000) }, { graceMs: orphanGraceMs });
    // The deleted document's bytes, the row-less object, and the pending upload that can no longer commit.
    expect(report.orphans).toBe(3);
    expect(await app.deps.storage.exists(stored.storageKey)).toBe(true);
    expect(await app.deps.storage.exists(removed.storageKey)).toBe(false);
    expect(await app.deps.storage.exists(noRow)).toBe(false);
    expect(await app.deps.storage.exists(unowned)).toBe(true);
    // An hour later the pending upload can no longer commit: its bytes were swept too.
    expect(await app.deps.storage.exists(inFlight)).toBe(false);
  });

  it('keeps an in-flight upload while it may still commit, and an object any registered owner claims', async () => {
    const bookingId = await draft();
    const { documentId } = await api.documents.createUpload.mutate({ bookingId, fileName: 'slow.pdf', sizeBytes: pdf.length, contentType: 'application/pdf' });
    const [pending] = await app.deps.db.select().from(documents).where(eq(documents.id, documentId));
    const inFlight = `${pending!.storageKey}.pdf`;
    await put(inFlight);
    // Another feature whose keys look like documents' registers and claims one.
    const claimed = `${bookingId}/${randomUUID()}.pdf`;
    await put(claimed);
    const other: StorageOwner = { name: 'sealed PDFs', matches: () => false, live: async (_db, keys) => new Set(keys.filter((k) => k === claimed)) };
    const report = await sweepStorage(app.deps, { owners: [documentObjects, other], graceMs: 0 });
    expect(report.orphans).toBe(0);
    expect(await app.deps.storage.exists(inFlight)).toBe(true);
    expect(await app.deps.storage.exists(claimed)).toBe(true);
    // Without the claim it is an orphan.
    expect((await sweepStorage(app.deps, { owners: [documentObjects], graceMs: 0 })).orphans).toBe(1);
    expect(await app.deps.storage.exists(claimed)).toBe(false);
  });

  it.runIf(driver === 'local')('removes temporary files of interrupted writes older than the longest upload', async () => {
    const incoming = path.join(app.dataDir, 'documents', '.incoming');
    const mail = path.join(app.dataDir, 'mail');
    mkdirSync(mail, { recursive: true });
    const old = new Date(Date.now() - orphanGraceMs - 60_000);
    const oldUpload = path.join(incoming, randomUUID());
    const youngUpload = path.join(incoming, randomUUID());
    const oldMail = path.join(mail, `.tmp-${randomUUID()}`);
    const keptMail = path.join(mail, '20270101T000000000Z-kept.eml');
    for (const file of [oldUpload, youngUpload, oldMail, keptMail]) writeFileSync(file, 'partial');
    for (const file of [oldUpload, oldMail, keptMail]) utimesSync(file, old, old);
    const report = await sweepStorage(app.deps);
    expect(report).toMatchObject({ unfinished: 1, mailTemporaries: 1 });
    expect(existsSync(oldUpload)).toBe(false);
    expect(existsSync(oldMail)).toBe(false);
    expect(existsSync(youngUpload)).toBe(true);
    expect(readdirSync(mail)).toContain('20270101T000000000Z-kept.eml');
  });
});
