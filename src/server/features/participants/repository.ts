import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { bookings, credibleWitnesses, customers, documentFields, notarySessions, sessionParticipants } from '../../db/schema.ts';

export type ParticipantRow = typeof sessionParticipants.$inferSelect;
export type NewParticipant = typeof sessionParticipants.$inferInsert;

export async function insertParticipant(db: DbOrTx, values: NewParticipant): Promise<ParticipantRow> {
  const [row] = await db.insert(sessionParticipants).values(values).returning();
  return row!;
}

/** The booking's participants, oldest first (removed ones included: they are part of the record). */
export async function listParticipants(db: DbOrTx, bookingId: string): Promise<ParticipantRow[]> {
  return db.select().from(sessionParticipants).where(eq(sessionParticipants.bookingId, bookingId)).orderBy(asc(sessionParticipants.createdAt), asc(sessionParticipants.id));
}

/** The participants still taking part (invited or joined). */
export async function activeParticipants(db: DbOrTx, bookingId: string): Promise<ParticipantRow[]> {
  return db
    .select()
    .from(sessionParticipants)
    .where(and(eq(sessionParticipants.bookingId, bookingId), inArray(sessionParticipants.status, ['invited', 'joined'])))
    .orderBy(asc(sessionParticipants.createdAt), asc(sessionParticipants.id));
}

export async function findParticipant(db: DbOrTx, id: string): Promise<ParticipantRow | null> {
  const [row] = await db.select().from(sessionParticipants).where(eq(sessionParticipants.id, id));
  return row ?? null;
}

export async function findParticipantByPayment(db: DbOrTx, paymentId: string): Promise<ParticipantRow | null> {
  const [row] = await db.select().from(sessionParticipants).where(eq(sessionParticipants.paymentId, paymentId));
  return row ?? null;
}

/** Only for a person added in the wizard and taken out before paying: nobody was invited, nothing of the act refers to them. */
export async function deleteParticipant(db: DbOrTx, id: string): Promise<void> {
  await db.delete(sessionParticipants).where(eq(sessionParticipants.id, id));
}

export async function updateParticipant(db: DbOrTx, id: string, patch: Partial<NewParticipant>): Promise<void> {
  await db.update(sessionParticipants).set(patch).where(eq(sessionParticipants.id, id));
}

/** What adding and the invitation need of the booking, locked for the change (FOR UPDATE on the booking row). */
export async function lockBookingForParticipants(tx: DbOrTx, bookingId: string) {
  const [row] = await tx
    .select({ id: bookings.id, status: bookings.status, reference: bookings.reference, startsAt: bookings.startsAt, timeZone: bookings.timeZone })
    .from(bookings)
    .where(eq(bookings.id, bookingId))
    .for('update');
  if (!row) return null;
  const [session] = await tx.select({ startedAt: notarySessions.startedAt, finishedAt: notarySessions.finishedAt }).from(notarySessions).where(eq(notarySessions.bookingId, bookingId));
  return { ...row, startedAt: session?.startedAt ?? null, finishedAt: session?.finishedAt ?? null };
}

/** The booking as an invitation shows it: reference, time, the customer's name, the session's state. */
export async function bookingForInvitation(db: DbOrTx, bookingId: string) {
  const [row] = await db
    .select({
      reference: bookings.reference,
      status: bookings.status,
      startsAt: bookings.startsAt,
      timeZone: bookings.timeZone,
      firstName: customers.firstName,
      lastName: customers.lastName,
      finishedAt: notarySessions.finishedAt,
      startedAt: notarySessions.startedAt,
    })
    .from(bookings)
    .leftJoin(customers, eq(customers.id, bookings.customerId))
    .leftJoin(notarySessions, eq(notarySessions.bookingId, bookings.id))
    .where(eq(bookings.id, bookingId));
  return row ?? null;
}

export type CredibleWitnessRow = typeof credibleWitnesses.$inferSelect;

/** The credible witnesses recorded for a booking (decision 124), oldest first. */
export async function listCredibleWitnesses(db: DbOrTx, bookingId: string): Promise<CredibleWitnessRow[]> {
  return db.select().from(credibleWitnesses).where(eq(credibleWitnesses.bookingId, bookingId)).orderBy(asc(credibleWitnesses.recordedAt));
}

/** Records (or re-points) a witness's identification of a signer; one row per witness. */
export async function upsertCredibleWitness(db: DbOrTx, values: { bookingId: string; witnessId: string; signerParticipantId: string | null; recordedAt: Date; recordedBy: string }): Promise<void> {
  await db
    .insert(credibleWitnesses)
    .values(values)
    .onConflictDoUpdate({ target: credibleWitnesses.witnessId, set: { signerParticipantId: values.signerParticipantId, recordedAt: values.recordedAt, recordedBy: values.recordedBy } });
}

/** Whether a participant has filled any field (signed something of the act). */
export async function hasFilledFields(db: DbOrTx, participantId: string): Promise<boolean> {
  const [row] = await db.select({ id: documentFields.id }).from(documentFields).where(and(eq(documentFields.filledBy, participantId), isNotNull(documentFields.filledAt))).limit(1);
  return row !== undefined;
}
