import { and, asc, desc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../db/client.ts';
import { bookings, customers, identityVerifications, sessionParticipants } from '../../db/schema.ts';

export type VerificationRow = typeof identityVerifications.$inferSelect;

/** Whose attempts: the booking's customer (participantId null) or one co-signer or witness. */
const whose = (participantId: string | null) => (participantId ? eq(identityVerifications.participantId, participantId) : isNull(identityVerifications.participantId));

export async function listVerifications(db: DbOrTx, bookingId: string, participantId: string | null = null): Promise<VerificationRow[]> {
  return db.select().from(identityVerifications).where(and(eq(identityVerifications.bookingId, bookingId), whose(participantId))).orderBy(desc(identityVerifications.attempt));
}

/** Of these bookings, those whose customer (not a co-signer or witness) has a verified ID: one statement for a list. */
export async function customersVerified(db: DbOrTx, bookingIds: string[]): Promise<Set<string>> {
  if (bookingIds.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ bookingId: identityVerifications.bookingId })
    .from(identityVerifications)
    .where(and(inArray(identityVerifications.bookingId, bookingIds), isNull(identityVerifications.participantId), eq(identityVerifications.status, 'verified')));
  return new Set(rows.map((r) => r.bookingId));
}

export async function findVerification(db: DbOrTx, id: string): Promise<VerificationRow | undefined> {
  const [row] = await db.select().from(identityVerifications).where(eq(identityVerifications.id, id));
  return row;
}

export async function findVerificationBySession(db: DbOrTx, sessionId: string): Promise<VerificationRow | undefined> {
  const [row] = await db.select().from(identityVerifications).where(eq(identityVerifications.providerSessionId, sessionId)).for('update');
  return row;
}

/** The booking facts identity needs: status, assigned notary, the signer's name. */
export async function bookingForIdentity(db: DbOrTx, bookingId: string) {
  const [row] = await db
    .select({
      id: bookings.id,
      reference: bookings.reference,
      status: bookings.status,
      notaryId: bookings.notaryId,
      firstName: customers.firstName,
      lastName: customers.lastName,
    })
    .from(bookings)
    .leftJoin(customers, eq(customers.id, bookings.customerId))
    .where(eq(bookings.id, bookingId));
  return row;
}

export async function latestVerified(db: DbOrTx, bookingId: string, participantId: string | null = null): Promise<VerificationRow | undefined> {
  const [row] = await db
    .select()
    .from(identityVerifications)
    .where(and(eq(identityVerifications.bookingId, bookingId), whose(participantId), eq(identityVerifications.status, 'verified')))
    .orderBy(desc(identityVerifications.attempt))
    .limit(1);
  return row;
}

/** Attempts of the booking still `processing` since before `before` (their process died): removed and returned. */
export async function deleteStaleAttempts(db: DbOrTx, bookingId: string, before: Date): Promise<VerificationRow[]> {
  return db
    .delete(identityVerifications)
    .where(and(eq(identityVerifications.bookingId, bookingId), eq(identityVerifications.status, 'processing'), lt(identityVerifications.updatedAt, before)))
    .returning();
}

export async function deleteVerification(db: DbOrTx, id: string): Promise<void> {
  await db.delete(identityVerifications).where(eq(identityVerifications.id, id));
}

export async function insertVerification(db: DbOrTx, values: typeof identityVerifications.$inferInsert): Promise<VerificationRow | undefined> {
  const [row] = await db.insert(identityVerifications).values(values).onConflictDoNothing().returning();
  return row;
}

export async function updateVerification(db: DbOrTx, id: string, patch: Partial<typeof identityVerifications.$inferInsert>): Promise<void> {
  await db.update(identityVerifications).set(patch).where(eq(identityVerifications.id, id));
}

/** A provider's outcome on an attempt (the row's `updatedAt` is the database's clock). */
export async function recordOutcome(db: DbOrTx, id: string, outcome: Pick<typeof identityVerifications.$inferInsert, 'status' | 'failureMessage' | 'nameOnId' | 'documentType' | 'issuingState' | 'expiresOn' | 'selfieMatch' | 'documentNumberLast4'>): Promise<void> {
  await db
    .update(identityVerifications)
    .set({ ...outcome, updatedAt: sql`now()` })
    .where(eq(identityVerifications.id, id));
}

/** Attempts of ended bookings older than `cutoff` whose images and details are still kept (retention), 200 at a time. */
export async function verificationsToErase(db: DbOrTx, cutoff: Date) {
  return queryRows<{ id: string; booking_id: string; image_keys: string[] | null }>(
    db,
    sql`select v.id, v.booking_id, v.image_keys
          from identity_verifications v
          join bookings b on b.id = v.booking_id
         where v.erased_at is null
           and b.status in ('completed', 'no_show', 'not_completed', 'cancelled')
           and coalesce(case when b.status = 'cancelled' then b.cancelled_at end, b.starts_at, b.updated_at) < ${cutoff.toISOString()}::timestamptz
         limit 200`,
  );
}

/** Retention: the images and personal details go; the outcome and the provider's id stay. */
export async function eraseVerification(db: DbOrTx, id: string, now: Date): Promise<void> {
  await db
    .update(identityVerifications)
    .set({ imageKeys: null, nameOnId: null, expiresOn: null, documentNumberLast4: null, erasedAt: now, updatedAt: sql`now()` })
    .where(eq(identityVerifications.id, id));
}

/** The co-signers and witnesses still taking part (their identities are reviewed beside the customer's). */
export async function activeParticipantRows(db: DbOrTx, bookingId: string) {
  return db
    .select({ id: sessionParticipants.id, name: sessionParticipants.name, role: sessionParticipants.role })
    .from(sessionParticipants)
    .where(and(eq(sessionParticipants.bookingId, bookingId), inArray(sessionParticipants.status, ['invited', 'joined'])))
    .orderBy(asc(sessionParticipants.createdAt), asc(sessionParticipants.id));
}
