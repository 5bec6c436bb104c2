import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openPostgres } from '../../db/client.ts';
import { auditLog, bookings, documents, type BookingStatus } from '../../db/schema.ts';
import type { Deps } from '../../deps.ts';
import { createTestDeps, type TestContext } from '../../../../tests/helpers/app.ts';
import { dbKinds } from '../../../../tests/helpers/db.ts';
import { purgeExpiredDocuments } from './service.ts';

const day = 86_400_000;
const now = new Date('2030-06-01T12:00:00Z');

async function bookingWithDocument(deps: Deps, status: BookingStatus, finishedDaysAgo: number) {
  const finished = new Date(now.getTime() - finishedDaysAgo * day);
  const [booking] = await deps.db
    .insert(bookings)
    .values({
      reference: `NOTARY-${randomUUID().slice(0, 8).toUpperCase()}`,
      status,
      startsAt: finished,
      priceCents: 2500,
      cancelledAt: status === 'cancelled' ? finished : null,
    })
    .returning({ id: bookings.id });
  const key = `${booking!.id}/${randomUUID()}.pdf`;
  await deps.storage.put(key, Readable.from([Buffer.from('%PDF-1.4 test')]), { contentType: 'application/pdf' });
  const [document] = await deps.db
    .insert(documents)
    .values({ bookingId: booking!.id, originalName: 'deed.pdf', contentType: 'application/pdf', sizeBytes: 13, storageKey: key, status: 'stored', scanStatus: 'clean' })
    .returning({ id: documents.id });
  return { bookingId: booking!.id, documentId: document!.id, key };
}

describe.each(dbKinds)('document retention (%s)', (kind) => {
  let context: TestContext;
  beforeEach(async () => {
    context = await createTestDeps(kind, { DOCUMENT_RETENTION_DAYS: '30' });
    context.deps.now = () => now;
  });
  afterEach(() => context.close());

  it('deletes the bytes of finished bookings past the period, marks them deleted and audits it', async () => {
    const { deps } = context;
    const cancelledOld = await bookingWithDocument(deps, 'cancelled', 31);
    const completedOld = await bookingWithDocument(deps, 'completed', 45);
    const cancelledRecent = await bookingWithDocument(deps, 'cancelled', 29);
    const confirmedOld = await bookingWithDocument(deps, 'confirmed', 90);

    expect(await purgeExpiredDocuments(deps)).toEqual({ deleted: 2, failed: 0 });

    for (const gone of [cancelledOld, completedOld]) {
      expect(await deps.storage.exists(gone.key)).toBe(false);
      const [row] = await deps.db.select().from(documents).where(eq(documents.id, gone.documentId));
      expect(row!.status).toBe('deleted');
      expect(row!.deletedAt?.getTime()).toBe(now.getTime());
      const audit = await deps.db.select().from(auditLog).where(eq(auditLog.entityId, gone.documentId));
      expect(audit).toMatchObject([{ actorType: 'system', action: 'document.retention_deleted', entityType: 'document' }]);
    }
    for (const kept of [cancelledRecent, confirmedOld]) {
      expect(await deps.storage.exists(kept.key)).toBe(true);
      const [row] = await deps.db.select().from(documents).where(eq(documents.id, kept.documentId));
      expect(row!.status).toBe('stored');
    }
    // A second run finds nothing left to do.
    expect(await purgeExpiredDocuments(deps)).toEqual({ deleted: 0, failed: 0 });
  });

  it('honours a configured period', async () => {
    const short = await createTestDeps(kind, { DOCUMENT_RETENTION_DAYS: '7' });
    try {
      short.deps.now = () => now;
      const old = await bookingWithDocument(short.deps, 'cancelled', 8);
      expect(await purgeExpiredDocuments(short.deps)).toEqual({ deleted: 1, failed: 0 });
      expect(await short.deps.storage.exists(old.key)).toBe(false);
    } finally {
      await short.close();
    }
  });

  it.runIf(kind === 'postgres')('handles each document once when several nodes purge at the same moment', async () => {
    const { deps } = context;
    const made = [];
    for (let i = 0; i < 120; i++) made.push(await bookingWithDocument(deps, 'cancelled', 40));
    // A second "node": its own connection pool on the same database and the same store.
    const url = (deps.database as { url?: string }).url!;
    const other = await openPostgres(url, { max: 2 });
    try {
      const otherDeps: Deps = { ...deps, database: other, db: other.db };
      const runs = await Promise.all([purgeExpiredDocuments(deps), purgeExpiredDocuments(otherDeps), purgeExpiredDocuments(deps)]);
      expect(runs.reduce((sum, run) => sum + run.deleted, 0)).toBe(made.length);
      const audits = await deps.db.select().from(auditLog).where(eq(auditLog.action, 'document.retention_deleted'));
      expect(audits).toHaveLength(made.length);
      expect(new Set(audits.map((a) => a.entityId)).size).toBe(made.length);
    } finally {
      await other.close();
    }
  });
});
