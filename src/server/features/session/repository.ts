import { aliasedTable, and, asc, desc, eq, sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../db/client.ts';
import {
  bookings,
  customers,
  documents,
  notarialDocuments,
  notarySessions,
  sessionMessages,
  sessionRecordingChunks,
  sessionRecordings,
  staffUsers,
} from '../../db/schema.ts';

/** The session feature's reads and writes: only the columns it needs. */

const notary = aliasedTable(staffUsers, 'notary');

export async function findSessionBooking(db: DbOrTx, bookingId: string) {
  const [row] = await db
    .select({
      id: bookings.id,
      reference: bookings.reference,
      status: bookings.status,
      kind: bookings.kind,
      startsAt: bookings.startsAt,
      timeZone: bookings.timeZone,
      notaryId: bookings.notaryId,
      notaryAssignedAt: bookings.notaryAssignedAt,
      notarySeenAt: bookings.notarySeenAt,
      customerFirstName: customers.firstName,
      customerLastName: customers.lastName,
      customerEmail: customers.email,
      notaryName: notary.name,
      notaryEmail: notary.email,
      notaryTimeZone: notary.timeZone,
      startedAt: notarySessions.startedAt,
      customerJoinedAt: notarySessions.customerJoinedAt,
      finishedAt: notarySessions.finishedAt,
      outcome: notarySessions.outcome,
      outcomeReason: notarySessions.outcomeReason,
    })
    .from(bookings)
    .leftJoin(customers, eq(customers.id, bookings.customerId))
    .leftJoin(notary, eq(notary.id, bookings.notaryId))
    .leftJoin(notarySessions, eq(notarySessions.bookingId, bookings.id))
    .where(eq(bookings.id, bookingId));
  return row ?? null;
}
export type SessionBooking = NonNullable<Awaited<ReturnType<typeof findSessionBooking>>>;

/** Creates the session row on first use; `patch` is applied either way. */
export async function upsertSession(db: DbOrTx, bookingId: string, patch: Partial<typeof notarySessions.$inferInsert>): Promise<void> {
  await db
    .insert(notarySessions)
    .values({ bookingId, ...patch })
    .onConflictDoUpdate({ target: notarySessions.bookingId, set: { ...patch, updatedAt: sql`now()` } });
}

/** The booking's documents in the room, each with its supporting-file mark (one query, whatever their number). */
export async function sessionDocuments(db: DbOrTx, bookingId: string) {
  const rows = await db
    .select({ id: documents.id, name: documents.originalName, contentType: documents.contentType, sizeBytes: documents.sizeBytes, supportingAt: notarialDocuments.supportingAt })
    .from(documents)
    .leftJoin(notarialDocuments, eq(notarialDocuments.documentId, documents.id))
    .where(and(eq(documents.bookingId, bookingId), eq(documents.status, 'stored'), sql`${documents.scanStatus} <> 'infected'`))
    .orderBy(asc(documents.createdAt));
  return rows.map(({ supportingAt, ...doc }) => ({ ...doc, supporting: supportingAt !== null }));
}

export async function listRecordings(db: DbOrTx, bookingId: string) {
  return db
    .select({
      id: sessionRecordings.id,
      status: sessionRecordings.status,
      startedAt: sessionRecordings.startedAt,
      sizeBytes: sessionRecordings.sizeBytes,
      durationMs: sessionRecordings.durationMs,
      lastChunkAt: sessionRecordings.lastChunkAt,
    })
    .from(sessionRecordings)
    .where(eq(sessionRecordings.bookingId, bookingId))
    .orderBy(asc(sessionRecordings.startedAt));
}

export async function findRecording(db: DbOrTx, recordingId: string) {
  const [row] = await db.select().from(sessionRecordings).where(eq(sessionRecordings.id, recordingId));
  return row ?? null;
}

export async function lockRecording(db: DbOrTx, recordingId: string) {
  const [row] = await db.select().from(sessionRecordings).where(eq(sessionRecordings.id, recordingId)).for('update');
  return row ?? null;
}

export async function insertRecording(db: DbOrTx, values: typeof sessionRecordings.$inferInsert) {
  const [row] = await db.insert(sessionRecordings).values(values).returning();
  return row!;
}

export async function updateRecording(db: DbOrTx, recordingId: string, patch: Partial<typeof sessionRecordings.$inferInsert>) {
  await db.update(sessionRecordings).set(patch).where(eq(sessionRecordings.id, recordingId));
}

export async function findChunk(db: DbOrTx, recordingId: string, seq: number) {
  const [row] = await db
    .select()
    .from(sessionRecordingChunks)
    .where(and(eq(sessionRecordingChunks.recordingId, recordingId), eq(sessionRecordingChunks.seq, seq)));
  return row ?? null;
}

/** Inserts the chunk row unless that sequence number is already there (a re-send); true when inserted. */
export async function insertChunk(db: DbOrTx, values: typeof sessionRecordingChunks.$inferInsert): Promise<boolean> {
  const rows = await db.insert(sessionRecordingChunks).values(values).onConflictDoNothing().returning({ seq: sessionRecordingChunks.seq });
  return rows.length > 0;
}

export async function listChunks(db: DbOrTx, recordingId: string) {
  return db.select().from(sessionRecordingChunks).where(eq(sessionRecordingChunks.recordingId, recordingId)).orderBy(asc(sessionRecordingChunks.seq));
}

export async function deleteChunks(db: DbOrTx, recordingId: string) {
  await db.delete(sessionRecordingChunks).where(eq(sessionRecordingChunks.recordingId, recordingId));
}

const messageColumns = {
  id: sessionMessages.id,
  clientId: sessionMessages.clientId,
  sender: sessionMessages.sender,
  participantId: sessionMessages.participantId,
  body: sessionMessages.body,
  createdAt: sessionMessages.createdAt,
};

export async function listMessages(db: DbOrTx, bookingId: string, limit = 500) {
  const rows = await db
    .select(messageColumns)
    .from(sessionMessages)
    .where(eq(sessionMessages.bookingId, bookingId))
    .orderBy(desc(sessionMessages.id))
    .limit(limit);
  return rows.reverse();
}

/** Idempotent by (booking, clientId): a resend returns the stored message and `created: false`. */
export async function insertMessage(db: DbOrTx, values: { bookingId: string; sender: 'customer' | 'notary' | 'participant'; participantId: string | null; clientId: string; body: string }) {
  const inserted = await db
    .insert(sessionMessages)
    .values(values)
    .onConflictDoNothing()
    .returning(messageColumns);
  if (inserted[0]) return { message: inserted[0], created: true };
  const [existing] = await db
    .select(messageColumns)
    .from(sessionMessages)
    .where(and(eq(sessionMessages.bookingId, values.bookingId), eq(sessionMessages.sender, values.sender), eq(sessionMessages.clientId, values.clientId)));
  return { message: existing!, created: false };
}

// ---- Recording assembly (docs/decisions/072-recording-assembly-job.md) --------

/** Stop: a recording still receiving becomes `assembling`, free for any worker to claim. True when this call queued it. */
export async function queueAssembly(db: DbOrTx, recordingId: string): Promise<boolean> {
  const rows = await db
    .update(sessionRecordings)
    .set({ status: 'assembling', assemblyLeaseUntil: null })
    .where(and(eq(sessionRecordings.id, recordingId), eq(sessionRecordings.status, 'recording')))
    .returning({ id: sessionRecordings.id });
  return rows.length > 0;
}

/**
 * Claims one queued assembly whose lease is free or has run out (a node that
 * died mid-assembly): `FOR UPDATE SKIP LOCKED`, so two nodes never claim the
 * same row at once, and the lease, so a claim outlives no crash.
 */
export async function claimAssembly(db: DbOrTx, now: Date, leaseUntil: Date, recordingId?: string) {
  const rows = await queryRows<{ id: string; booking_id: string; storage_key: string; mime_type: string; assembly_attempts: number }>(
    db,
    sql`update session_recordings set assembly_lease_until = ${leaseUntil.toISOString()}::timestamptz
        where id = (
          select id from session_recordings
          where status = 'assembling'
            and (assembly_lease_until is null or assembly_lease_until <= ${now.toISOString()}::timestamptz)
            ${recordingId ? sql`and id = ${recordingId}::uuid` : sql``}
          order by started_at
          limit 1
          for update skip locked
        )
        returning id, booking_id, storage_key, mime_type, assembly_attempts`,
  );
  const row = rows[0];
  return row ? { id: row.id, bookingId: row.booking_id, storageKey: row.storage_key, mimeType: row.mime_type, attempts: Number(row.assembly_attempts) } : null;
}
export type AssemblyClaim = NonNullable<Awaited<ReturnType<typeof claimAssembly>>>;

/** Extends our lease while the work goes on; false when the row is no longer ours to work on. */
export async function renewAssembly(db: DbOrTx, recordingId: string, leaseUntil: Date): Promise<boolean> {
  const rows = await db
    .update(sessionRecordings)
    .set({ assemblyLeaseUntil: leaseUntil })
    .where(and(eq(sessionRecordings.id, recordingId), eq(sessionRecordings.status, 'assembling')))
    .returning({ id: sessionRecordings.id });
  return rows.length > 0;
}

/** Ends an assembly: stored (or failed: nothing arrived). Only while still `assembling`; false otherwise. */
export async function finishAssembly(
  db: DbOrTx,
  recordingId: string,
  patch: { status: 'stored' | 'failed'; sizeBytes?: number; chunkCount: number; storedAt?: Date; sha256?: string; durationMs?: number | null },
): Promise<boolean> {
  const rows = await db
    .update(sessionRecordings)
    .set({ ...patch, assemblyLeaseUntil: null })
    .where(and(eq(sessionRecordings.id, recordingId), eq(sessionRecordings.status, 'assembling')))
    .returning({ id: sessionRecordings.id });
  return rows.length > 0;
}

/** A try that failed (storage full, unreachable): counted, and not claimed again before `retryAt`. */
export async function deferAssembly(db: DbOrTx, recordingId: string, retryAt: Date): Promise<void> {
  await db
    .update(sessionRecordings)
    .set({ assemblyLeaseUntil: retryAt, assemblyAttempts: sql`${sessionRecordings.assemblyAttempts} + 1` })
    .where(and(eq(sessionRecordings.id, recordingId), eq(sessionRecordings.status, 'assembling')));
}

// ---- A recording whose chunks stopped arriving (decision 103) --------------------

/** A chunk arrived: its time; true when the room had been told the recording stalled (tell it again: it runs). */
export async function noteChunkArrived(db: DbOrTx, recordingId: string, at: Date): Promise<boolean> {
  const rows = await queryRows<{ was_stalled: boolean }>(
    db,
    sql`update session_recordings r set last_chunk_at = ${at.toISOString()}::timestamptz
        from (select id, stall_notified_at is not null and stall_notified_at >= coalesce(last_chunk_at, started_at) as was_stalled
              from session_recordings where id = ${recordingId}::uuid for update) before
        where r.id = before.id
        returning before.was_stalled`,
  );
  return rows[0]?.was_stalled === true;
}

/**
 * Running recordings with no chunk since `before`, not yet reported for this
 * stall: marked reported (once, whichever node gets there first); their bookings.
 */
export async function claimStalledRecordings(db: DbOrTx, before: Date, now: Date): Promise<string[]> {
  const rows = await queryRows<{ booking_id: string }>(
    db,
    sql`update session_recordings set stall_notified_at = ${now.toISOString()}::timestamptz
        where status = 'recording'
          and coalesce(last_chunk_at, started_at) < ${before.toISOString()}::timestamptz
          and (stall_notified_at is null or stall_notified_at < coalesce(last_chunk_at, started_at))
        returning booking_id`,
  );
  return [...new Set(rows.map((r) => r.booking_id))];
}
