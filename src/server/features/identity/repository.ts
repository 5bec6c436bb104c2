import { and, asc, desc, eq, inArray, isNull, lt } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { bookings, customers, identityVerifications, sessionParticipants } from '../../db/schema.ts';

export type VerificationRow = typeof identityVerifications.$inferSelect;

/** Whose attempts: the booking's customer (participantId null) or one co-signer or witness. */
const whose = (participantId: string | null) => (participantId ? eq(identityVerifications.participantId, participantId) : isNull(identityVerifications.participantId));

export async function listVerifications(db: DbOrTx, bookingId: string, participantId: string | null = null): Promise<VerificationRow[]> {
  return db.select().from(identityVerifications).where(and(eq(identityVerifications.bookingId, bookingId), whose(participantId))).orderBy(desc(identityVerifications.attempt));
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

/** The co-signers and witnesses still taking part (their identities are reviewed beside the customer's). */
export async function activeParticipantRows(db: DbOrTx, bookingId: string) {
  return db
    .select({ id: sessionParticipants.id, name: sessionParticipants.name, role: sessionParticipants.role })
    .from(sessionParticipants)
    .where(and(eq(sessionParticipants.bookingId, bookingId), inArray(sessionParticipants.status, ['invited', 'joined'])))
    .orderBy(asc(sessionParticipants.createdAt), asc(sessionParticipants.id));
}
