import { and, count, desc, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.ts';
import { bookings, credibleWitnesses, customers, documentFields, documents, identityVerifications, kbaAttempts, notarialDocuments, notarySessions, sessionParticipants, sessionRecordings } from '../../db/schema.ts';
import { type SignerFacts, type StageFacts } from './stages.ts';
import { isAbroad } from '../../../shared/act-stages.ts';

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
      firstName: customers.firstName,
      lastName: customers.lastName,
      outcome: notarySessions.outcome,
      consentAt: notarySessions.consentAt,
      signerLocation: notarySessions.signerLocation,
      abroadConfirmedAt: notarySessions.abroadConfirmedAt,
      oathRequestedAt: notarySessions.oathRequestedAt,
      oathAnsweredAt: notarySessions.oathAnsweredAt,
    })
    .from(bookings)
    .leftJoin(customers, eq(customers.id, bookings.customerId))
    .leftJoin(notarySessions, eq(notarySessions.bookingId, bookings.id))
    .where(eq(bookings.id, bookingId));
  if (!booking) return null;
  const [identity, recordings, docs, owed, participants] = await Promise.all([
    identityOf(db, bookingId, null, kbaFreshnessHours, booking.startsAt),
    db.select({ status: sessionRecordings.status }).from(sessionRecordings).where(and(eq(sessionRecordings.bookingId, bookingId), ne(sessionRecordings.status, 'deleted'))),
    db
      .select({ signedAt: notarialDocuments.signedAt, sealedAt: notarialDocuments.sealedAt, excludedAt: notarialDocuments.notNotarizableAt, supportingAt: notarialDocuments.supportingAt })
      .from(documents)
      .leftJoin(notarialDocuments, eq(notarialDocuments.documentId, documents.id))
      .where(and(eq(documents.bookingId, bookingId), eq(documents.status, 'stored'), sql`${documents.scanStatus} <> 'infected'`)),
    // Empty fields of the signers still taking part: a participant removed or marked not completed owes nothing (decision 123).
    db
      .select({ documentId: documentFields.documentId, participantId: documentFields.participantId, name: sessionParticipants.name, empty: count() })
      .from(documentFields)
      .leftJoin(sessionParticipants, eq(sessionParticipants.id, documentFields.participantId))
      .where(and(eq(documentFields.bookingId, bookingId), isNull(documentFields.filledAt), or(isNull(documentFields.participantId), inArray(sessionParticipants.status, activeStatuses))))
      .groupBy(documentFields.documentId, documentFields.participantId, sessionParticipants.name)
      // Named in a stable order: the customer first, then the others by name.
      .orderBy(documentFields.documentId, sql`${documentFields.participantId} is not null`, sessionParticipants.name),
    db
      .select({
        name: sessionParticipants.name,
        role: sessionParticipants.role,
        status: sessionParticipants.status,
        oathAnsweredAt: sessionParticipants.oathAnsweredAt,
        signerLocation: sessionParticipants.signerLocation,
        abroadConfirmedAt: sessionParticipants.abroadConfirmedAt,
        credibleWitness: credibleWitnesses.id,
      })
      .from(sessionParticipants)
      .leftJoin(credibleWitnesses, eq(credibleWitnesses.witnessId, sessionParticipants.id))
      .where(and(eq(sessionParticipants.bookingId, bookingId), inArray(sessionParticipants.status, activeStatuses))),
  ]);
  const customerName = [booking.firstName, booking.lastName].filter(Boolean).join(' ') || 'The signer';
  const stage: StageFacts = {
    bookingStatus: booking.status,
    outcome: booking.outcome ?? null,
    identityVerified: identity.identityVerified,
    identityConfirmed: identity.identityConfirmed,
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
    owedFields: owed.map((o) => ({ documentId: o.documentId, signer: o.participantId ? (o.name ?? 'A co-signer') : customerName, empty: Number(o.empty) })),
    // The co-signers in the session (as the certificate names them) swear too.
    oathOwedBy: participants.filter((p) => p.role === 'signer' && p.status === 'joined' && !p.oathAnsweredAt).map((p) => p.name),
    abroadUnclearedFor: participants.filter((p) => isAbroad(p.signerLocation) && !p.abroadConfirmedAt).map((p) => p.name),
    credibleOathOwedBy: participants.filter((p) => p.credibleWitness !== null && !p.oathAnsweredAt).map((p) => p.name),
  };
  return { stage, kbaPassed: identity.kbaPassed };
}

/** A participant still taking part (not removed, not marked not completed). */
const activeStatuses: ('invited' | 'joined')[] = ['invited', 'joined'];

/**
 * One person's identity facts: the customer's (participantId null) or a
 * co-signer's or witness's own — never another person's (decision 120).
 * Identity questions count when the latest attempt passed within
 * `kbaFreshnessHours` before the session's start (decision 085).
 */
async function identityOf(db: DbOrTx, bookingId: string, participantId: string | null, kbaFreshnessHours: number | null, startsAt: Date | null) {
  const [identity, kba] = await Promise.all([
    db
      .select({ confirmedAt: identityVerifications.confirmedAt })
      .from(identityVerifications)
      .where(and(eq(identityVerifications.bookingId, bookingId), personIs(identityVerifications.participantId, participantId), eq(identityVerifications.status, 'verified'))),
    kbaFreshnessHours === null
      ? Promise.resolve([])
      : db
          .select({ status: kbaAttempts.status, finishedAt: kbaAttempts.finishedAt, expiresAt: kbaAttempts.expiresAt })
          .from(kbaAttempts)
          .where(and(eq(kbaAttempts.bookingId, bookingId), personIs(kbaAttempts.participantId, participantId)))
          .orderBy(desc(kbaAttempts.attempt))
          .limit(1),
  ]);
  const latest = kba[0];
  const kbaPassed = latest?.status === 'passed' && !!startsAt && (latest.finishedAt ?? latest.expiresAt).getTime() >= startsAt.getTime() - (kbaFreshnessHours ?? 0) * 3_600_000;
  return { identityVerified: identity.length > 0, identityConfirmed: identity.some((i) => i.confirmedAt !== null), kbaPassed };
}

const personIs = (column: AnyPgColumn, participantId: string | null) => (participantId ? eq(column, participantId) : isNull(column));

/**
 * A co-signer's or witness's own facts, for the signer's steps they take
 * (their identity, identity questions, location, consent, oath); null when
 * they are not a participant of this booking still taking part.
 */
export async function loadParticipantFacts(db: DbOrTx, bookingId: string, participantId: string, kbaFreshnessHours: number): Promise<SignerFacts | null> {
  const [row] = await db
    .select({
      status: sessionParticipants.status,
      startsAt: bookings.startsAt,
      consentAt: sessionParticipants.consentAt,
      signerLocation: sessionParticipants.signerLocation,
      abroadConfirmedAt: sessionParticipants.abroadConfirmedAt,
      oathAnsweredAt: sessionParticipants.oathAnsweredAt,
    })
    .from(sessionParticipants)
    .innerJoin(bookings, eq(bookings.id, sessionParticipants.bookingId))
    .where(and(eq(sessionParticipants.id, participantId), eq(sessionParticipants.bookingId, bookingId)));
  if (!row || !activeStatuses.includes(row.status as 'invited')) return null;
  const identity = await identityOf(db, bookingId, participantId, kbaFreshnessHours, row.startsAt);
  return {
    ...identity,
    locationGiven: !!row.signerLocation,
    consentGiven: !!row.consentAt,
    signerAbroad: isAbroad(row.signerLocation),
    abroadConfirmed: !!row.abroadConfirmedAt,
    oathTaken: !!row.oathAnsweredAt,
  };
}

/** Records a participant's own answers (consent and location, the abroad confirmation, the oath). */
export async function updateParticipantAnswers(
  db: DbOrTx,
  participantId: string,
  patch: Partial<Pick<typeof sessionParticipants.$inferInsert, 'consentAt' | 'consentAddress' | 'signerLocation' | 'abroadConfirmedAt' | 'abroadConfirmedBy' | 'oathAnsweredAt' | 'oathKind'>>,
): Promise<void> {
  await db.update(sessionParticipants).set(patch).where(eq(sessionParticipants.id, participantId));
}

/** A participant's own answers as the room shows them to them. */
export async function participantAnswers(db: DbOrTx, participantId: string) {
  const [row] = await db
    .select({
      name: sessionParticipants.name,
      consentAt: sessionParticipants.consentAt,
      signerLocation: sessionParticipants.signerLocation,
      abroadConfirmedAt: sessionParticipants.abroadConfirmedAt,
      abroadConfirmedBy: sessionParticipants.abroadConfirmedBy,
      oathKind: sessionParticipants.oathKind,
    })
    .from(sessionParticipants)
    .where(eq(sessionParticipants.id, participantId));
  return row ?? null;
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
