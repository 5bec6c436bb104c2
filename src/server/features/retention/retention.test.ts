import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openPostgres } from '../../db/client.ts';
import { auditLog, bookings, documents, payments, rateLimits, type BookingStatus } from '../../db/schema.ts';
import type { Deps } from '../../deps.ts';
import { createTestDeps, type TestContext } from '../../../../tests/helpers/app.ts';
import { dbKinds } from '../../../../tests/helpers/db.ts';
import { startRetentionJob } from './scheduler.ts';
import { cancelAbandonedBookings, purgeExpiredDocuments, runRetention } from './service.ts';
import { consumeRate } from '../../rate-limit.ts';

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

  it('sweeps expired shared rate-limit counters on each run (the table no longer grows a row per address forever)', async () => {
    const { deps } = context;
    const rule = { name: 'login-fail:ip', limit: 20, windowSeconds: 900, scope: 'shared' as const };
    for (let i = 0; i < 5; i++) await consumeRate(deps, rule, `198.51.100.${i}`, new Date(now.getTime() - day));
    await consumeRate(deps, rule, '198.51.100.200', now);
    await runRetention(deps);
    const left = await deps.db.select({ key: rateLimits.key }).from(rateLimits);
    expect(left.map((row) => row.key)).toEqual(['login-fail:ip:198.51.100.200']);
  });

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

const hour = 3_600_000;

async function unpaidBooking(
  deps: Deps,
  options: { status: BookingStatus; idleHours: number; documents?: number; uploadedHoursAgo?: number; payment?: string },
) {
  const idleSince = new Date(now.getTime() - options.idleHours * hour);
  const [booking] = await deps.db
    .insert(bookings)
    .values({
      reference: `NOTARY-${randomUUID().slice(0, 8).toUpperCase()}`,
      status: options.status,
      startsAt: options.status === 'draft' ? null : new Date(now.getTime() + 5 * day),
      holdExpiresAt: options.status === 'held' ? new Date(idleSince.getTime() + 15 * 60_000) : null,
      priceCents: 2500,
      createdAt: idleSince,
      updatedAt: idleSince,
    })
    .returning({ id: bookings.id });
  const keys: string[] = [];
  for (let i = 0; i < (options.documents ?? 1); i++) {
    const key = `${booking!.id}/${randomUUID()}.pdf`;
    await deps.storage.put(key, Readable.from([Buffer.from('%PDF-1.4 id card')]), { contentType: 'application/pdf' });
    const uploadedAt = new Date(now.getTime() - (options.uploadedHoursAgo ?? options.idleHours) * hour);
    await deps.db.insert(documents).values({
      bookingId: booking!.id,
      originalName: `id-${i}.pdf`,
      contentType: 'application/pdf',
      sizeBytes: 16,
      storageKey: key,
      status: 'stored',
      scanStatus: 'clean',
      createdAt: uploadedAt,
    });
    keys.push(key);
  }
  if (options.payment) {
    await deps.db.insert(payments).values({ bookingId: booking!.id, provider: 'test', providerPaymentId: `pi_test_${randomUUID()}`, amountCents: 2500, status: options.payment });
  }
  return { bookingId: booking!.id, keys };
}

async function bookingState(deps: Deps, bookingId: string) {
  const [row] = await deps.db
    .select({ status: bookings.status, reason: bookings.cancellationReason, cancelledAt: bookings.cancelledAt, holdExpiresAt: bookings.holdExpiresAt })
    .from(bookings)
    .where(eq(bookings.id, bookingId));
  const docs = await deps.db.select({ status: documents.status }).from(documents).where(eq(documents.bookingId, bookingId));
  return { ...row!, documents: docs.map((d) => d.status) };
}

describe.each(dbKinds)('abandoned bookings (%s)', (kind) => {
  let context: TestContext;
  beforeEach(async () => {
    context = await createTestDeps(kind, { BOOKING_DRAFT_RETENTION_HOURS: '48' });
    context.deps.now = () => now;
  });
  afterEach(() => context.close());

  it('cancels unpaid bookings idle past the period as abandoned and deletes their documents', async () => {
    const { deps } = context;
    const draft = await unpaidBooking(deps, { status: 'draft', idleHours: 49, documents: 2 });
    const held = await unpaidBooking(deps, { status: 'held', idleHours: 60 });
    const declined = await unpaidBooking(deps, { status: 'awaiting_payment', idleHours: 50, payment: 'requires_payment_method' });

    const fresh = await unpaidBooking(deps, { status: 'draft', idleHours: 47 });
    const recentUpload = await unpaidBooking(deps, { status: 'draft', idleHours: 72, uploadedHoursAgo: 10 });
    const paying = await unpaidBooking(deps, { status: 'awaiting_payment', idleHours: 72, payment: 'processing' });
    const paid = await unpaidBooking(deps, { status: 'awaiting_payment', idleHours: 72, payment: 'succeeded' });
    const processing = await unpaidBooking(deps, { status: 'payment_processing', idleHours: 72 });
    const confirmed = await unpaidBooking(deps, { status: 'confirmed', idleHours: 72 });

    expect(await cancelAbandonedBookings(deps)).toEqual({ cancelled: 3, documentsDeleted: 4, failed: 0 });

    for (const gone of [draft, held, declined]) {
      const state = await bookingState(deps, gone.bookingId);
      expect(state).toMatchObject({ status: 'cancelled', reason: 'abandoned', holdExpiresAt: null });
      expect(state.cancelledAt!.getTime()).toBe(now.getTime());
      expect(state.documents.every((s) => s === 'deleted')).toBe(true);
      for (const key of gone.keys) expect(await deps.storage.exists(key)).toBe(false);
      const audit = await deps.db.select().from(auditLog).where(eq(auditLog.entityId, gone.bookingId));
      expect(audit).toMatchObject([{ actorType: 'system', action: 'booking.status_changed', data: { to: 'cancelled', reason: 'abandoned' } }]);
    }
    for (const kept of [fresh, recentUpload, paying, paid, processing, confirmed]) {
      const state = await bookingState(deps, kept.bookingId);
      expect(state.status).not.toBe('cancelled');
      expect(state.documents).toEqual(['stored']);
      for (const key of kept.keys) expect(await deps.storage.exists(key)).toBe(true);
    }
    expect(await cancelAbandonedBookings(deps)).toEqual({ cancelled: 0, documentsDeleted: 0, failed: 0 });
  });

  it('keeps a booking whose bytes could not be deleted, to try again next run', async () => {
    const { deps } = context;
    const draft = await unpaidBooking(deps, { status: 'draft', idleHours: 49 });
    const errors: unknown[] = [];
    const failing: Deps = {
      ...deps,
      storage: { ...deps.storage, delete: () => Promise.reject(new Error('store unreachable')) },
      log: { ...deps.log, error: (...args: unknown[]) => errors.push(args), info: () => undefined } as unknown as Deps['log'],
    };
    expect(await cancelAbandonedBookings(failing)).toEqual({ cancelled: 0, documentsDeleted: 0, failed: 1 });
    expect(errors).toHaveLength(1);
    expect((await bookingState(deps, draft.bookingId)).status).toBe('draft');
    expect(await cancelAbandonedBookings(deps)).toMatchObject({ cancelled: 1 });
  });

  it('honours a configured period, and the retention job runs it', async () => {
    const short = await createTestDeps(kind, { BOOKING_DRAFT_RETENTION_HOURS: '2' });
    try {
      short.deps.now = () => now;
      const old = await unpaidBooking(short.deps, { status: 'held', idleHours: 3 });
      const job = startRetentionJob(short.deps, { firstRunMs: 0 });
      for (let i = 0; i < 100 && (await bookingState(short.deps, old.bookingId)).status !== 'cancelled'; i++) await new Promise((r) => setTimeout(r, 50));
      await job.stop();
      expect(await bookingState(short.deps, old.bookingId)).toMatchObject({ status: 'cancelled', reason: 'abandoned', documents: ['deleted'] });
    } finally {
      await short.close();
    }
  });

  it.runIf(kind === 'postgres')('cancels each booking once when several nodes run at the same moment', async () => {
    const { deps } = context;
    const made = [];
    for (let i = 0; i < 120; i++) made.push(await unpaidBooking(deps, { status: i % 2 ? 'draft' : 'held', idleHours: 49 }));
    const url = (deps.database as { url?: string }).url!;
    const other = await openPostgres(url, { max: 2 });
    try {
      const otherDeps: Deps = { ...deps, database: other, db: other.db };
      const runs = await Promise.all([cancelAbandonedBookings(deps), cancelAbandonedBookings(otherDeps), cancelAbandonedBookings(deps)]);
      expect(runs.reduce((sum, run) => sum + run.cancelled, 0)).toBe(made.length);
      expect(runs.reduce((sum, run) => sum + run.documentsDeleted, 0)).toBe(made.length);
      const audits = await deps.db.select().from(auditLog).where(eq(auditLog.action, 'booking.status_changed'));
      expect(audits).toHaveLength(made.length);
      expect(new Set(audits.map((a) => a.entityId)).size).toBe(made.length);
    } finally {
      await other.close();
    }
  });
});
