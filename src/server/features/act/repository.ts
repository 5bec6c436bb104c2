import { and, desc, eq, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { bookings, documents, identityVerifications, kbaAttempts, notarialDocuments, notarySessions, sessionRecordings } from '../../db/schema.ts';
import { isAbroad, type StageFacts } from './stages.ts';

/** What the stage reads: the booking and its session row, identity, recordings, documents (four reads). */
export async function loadFacts(db: DbOrTx, bookingId: string): Promise<StageFacts | null> {
  const facts = await loadActFacts(db, bookingId, null);
  return facts && facts.stage;
}

/**
 * Every fact, the identity questions' standing included when `kbaFreshnessHours`
 * is given: passed when the signer's latest attempt passed within that many hours
 * before the session's start (identity/kba-rules.ts `standing`, decision 085: a
 * later attempt — open, failed — or a pass before the window, e.g. the booking
 * moved, does not count).
 */
export async function loadActFacts(db: DbOrTx, bookingId: string, kbaFreshnessHours: number | null): Promise<{ stage: StageFacts; kbaPassed: boolean } | null> {
  const [booking] = await db
    .select({
      status: bookings.status,
      startsAt: bookings.startsAt,
      outcome: notarySessions.outcome,
      consentAt: notarySessions.consentAt,
      signerLocation: notarySessions.signerLocation,
      abroadConfirmedAt: notarySessions.abroadConfirmedAt,
      oathRequestedAt: notarySessions.oathRequestedAt,
      oathAnsweredAt: notarySessions.oathAnsweredAt,
    })
    .from(bookings)
    .leftJoin(notarySessions, eq(notarySessions.bookingId, bookings.id))
    .where(eq(bookings.id, bookingId));
  if (!booking) return null;
  const [identity, recordings, docs, kba] = await Promise.all([
    db
      .select({ confirmedAt: identityVerifications.confirmedAt })
      .from(identityVerifications)
      .where(and(eq(identityVerifications.bookingId, bookingId), eq(identityVerifications.status, 'verified'))),
    db.select({ status: sessionRecordings.status }).from(sessionRecordings).where(and(eq(sessionRecordings.bookingId, bookingId), ne(sessionRecordings.status, 'deleted'))),
    db
      .select({ signedAt: notarialDocuments.signedAt, sealedAt: notarialDocuments.sealedAt, excludedAt: notarialDocuments.notNotarizableAt, supportingAt: notarialDocuments.supportingAt })
      .from(documents)
      .leftJoin(notarialDocuments, eq(notarialDocuments.documentId, documents.id))
      .where(and(eq(documents.bookingId, bookingId), eq(documents.status, 'stored'), sql`${documents.scanStatus} <> 'infected'`)),
    kbaFreshnessHours === null
      ? Promise.resolve([])
      : db
          .select({ status: kbaAttempts.status, finishedAt: kbaAttempts.finishedAt, expiresAt: kbaAttempts.expiresAt })
          .from(kbaAttempts)
          .where(eq(kbaAttempts.bookingId, bookingId))
          .orderBy(desc(kbaAttempts.attempt))
          .limit(1),
  ]);
  const latest = kba[0];
  const kbaPassed =
    latest?.status === 'passed' && !!booking.startsAt && (latest.finishedAt ?? latest.expiresAt).getTime() >= booking.startsAt.getTime() - (kbaFreshnessHours ?? 0) * 3_600_000;
  const stage: StageFacts = {
    bookingStatus: booking.status,
    outcome: booking.outcome ?? null,
    identityVerified: identity.length > 0,
    identityConfirmed: identity.some((i) => i.confirmedAt !== null),
    recordingRunning: recordings.some((r) => r.status === 'recording'),
    recordingSaving: recordings.some((r) => r.status === 'assembling'),
    recordingStored: recordings.some((r) => r.status === 'stored'),
    locationGiven: !!booking.signerLocation,
    consentGiven: !!booking.consentAt,
    signerAbroad: isAbroad(booking.signerLocation),
    abroadConfirmed: !!booking.abroadConfirmedAt,
    oathRequested: !!booking.oathRequestedAt,
    oathTaken: !!booking.oathAnsweredAt,
    // Set aside (not notarizable) and supporting files are neither sealed nor waited for.
    documents: docs.map((d) => ({ signed: !!d.signedAt, sealed: !!d.sealedAt, excluded: !!d.excludedAt || !!d.supportingAt })),
  };
  return { stage, kbaPassed };
}

/** A file the customer marked as supporting at upload (the same mark the notary sets in the room). */
export async function markSupporting(db: DbOrTx, bookingId: string, documentId: string, at: Date): Promise<void> {
  await db.insert(notarialDocuments).values({ bookingId, documentId, supportingAt: at }).onConflictDoUpdate({ target: notarialDocuments.documentId, set: { supportingAt: at } });
}

/** Locks the booking's row (the act's transitions and cancelling serialise on it). */
export async function lockBookingForAct(tx: DbOrTx, bookingId: string): Promise<boolean> {
  const rows = await tx.select({ id: bookings.id }).from(bookings).where(eq(bookings.id, bookingId)).for('update');
  return rows.length > 0;
}

/** Records the signer's answers or the oath on the session row (created on first use). */
export async function updateActSession(db: DbOrTx, bookingId: string, patch: Partial<typeof notarySessions.$inferInsert>): Promise<void> {
  await db
    .insert(notarySessions)
    .values({ bookingId, ...patch })
    .onConflictDoUpdate({ target: notarySessions.bookingId, set: { ...patch, updatedAt: sql`now()` } });
}

export async function actSessionRow(db: DbOrTx, bookingId: string) {
  const [row] = await db
    .select({
      consentAt: notarySessions.consentAt,
      signerLocation: notarySessions.signerLocation,
      abroadConfirmedAt: notarySessions.abroadConfirmedAt,
      abroadConfirmedBy: notarySessions.abroadConfirmedBy,
      oathRequestedAt: notarySessions.oathRequestedAt, oathAnsweredAt: notarySessions.oathAnsweredAt, oathKind: notarySessions.oathKind })
    .from(notarySessions)
    .where(eq(notarySessions.bookingId, bookingId));
  return row ?? null;
}

/** The recording running now (for marking a moment on its timeline). */
export async function runningRecording(db: DbOrTx, bookingId: string) {
  const [row] = await db
    .select({ id: sessionRecordings.id, startedAt: sessionRecordings.startedAt })
    .from(sessionRecordings)
    .where(and(eq(sessionRecordings.bookingId, bookingId), eq(sessionRecordings.status, 'recording')))
    .limit(1);
  return row ?? null;
}

/** The latest recording of the booking not deleted (the journal names it as the act's recording). */
export async function latestRecording(db: DbOrTx, bookingId: string) {
  const [row] = await db
    .select({ id: sessionRecordings.id })
    .from(sessionRecordings)
    .where(and(eq(sessionRecordings.bookingId, bookingId), ne(sessionRecordings.status, 'deleted')))
    .orderBy(desc(sessionRecordings.startedAt))
    .limit(1);
  return row ?? null;
}
