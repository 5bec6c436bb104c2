import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { bookings, customers, kbaAttempts } from '../../db/schema.ts';

export type { KbaStatus } from '../../db/schema.ts';

export type KbaAttemptRow = typeof kbaAttempts.$inferSelect;
export type NewKbaAttempt = typeof kbaAttempts.$inferInsert;

/** One person's quizzes: the booking's customer (participantId null) or one co-signer or witness. */
export async function listKbaAttempts(db: DbOrTx, bookingId: string, participantId: string | null = null): Promise<KbaAttemptRow[]> {
  const whose = participantId ? eq(kbaAttempts.participantId, participantId) : isNull(kbaAttempts.participantId);
  return db.select().from(kbaAttempts).where(and(eq(kbaAttempts.bookingId, bookingId), whose)).orderBy(asc(kbaAttempts.attempt));
}

/** The customers' quizzes of these bookings (not co-signers' or witnesses'), only what their standing needs: one statement for a list. */
export async function customersKbaFacts(db: DbOrTx, bookingIds: string[]) {
  if (bookingIds.length === 0) return [];
  return db
    .select({ bookingId: kbaAttempts.bookingId, attempt: kbaAttempts.attempt, status: kbaAttempts.status, expiresAt: kbaAttempts.expiresAt, finishedAt: kbaAttempts.finishedAt })
    .from(kbaAttempts)
    .where(and(inArray(kbaAttempts.bookingId, bookingIds), isNull(kbaAttempts.participantId)))
    .orderBy(asc(kbaAttempts.attempt));
}

export async function findKbaAttempt(db: DbOrTx, id: string): Promise<KbaAttemptRow | undefined> {
  const [row] = await db.select().from(kbaAttempts).where(eq(kbaAttempts.id, id));
  return row;
}

/** A new quiz; null when another one took the same attempt number first (two starts at once). */
export async function insertKbaAttempt(db: DbOrTx, values: NewKbaAttempt): Promise<KbaAttemptRow | null> {
  const [row] = await db.insert(kbaAttempts).values(values).onConflictDoNothing().returning();
  return row ?? null;
}

/**
 * Claims an open quiz for marking: one statement, so of two submissions at
 * once exactly one gets the row and the other nothing.
 */
export async function claimOpenAttempt(db: DbOrTx, id: string): Promise<KbaAttemptRow | null> {
  const [row] = await db
    .update(kbaAttempts)
    .set({ status: 'checking' })
    .where(and(eq(kbaAttempts.id, id), eq(kbaAttempts.status, 'open')))
    .returning();
  return row ?? null;
}

/** Gives a claimed quiz back (the provider did not answer): the signer may submit again in time. */
export async function releaseClaim(db: DbOrTx, id: string): Promise<void> {
  await db.update(kbaAttempts).set({ status: 'open' }).where(and(eq(kbaAttempts.id, id), eq(kbaAttempts.status, 'checking')));
}

/** Ends a quiz (from `from`): the answer key is deleted with it. Null when it had already ended. */
export async function finishAttempt(
  db: DbOrTx,
  id: string,
  from: 'open' | 'checking',
  result: { status: 'passed' | 'failed'; correctCount: number | null; failureReason: string | null; finishedAt: Date; providerReference?: string },
): Promise<KbaAttemptRow | null> {
  const [row] = await db
    .update(kbaAttempts)
    .set({ ...result, answerKeySealed: null })
    .where(and(eq(kbaAttempts.id, id), eq(kbaAttempts.status, from)))
    .returning();
  return row ?? null;
}

/** The booking facts KBA needs: status, start, zone, the name booked under. */
export async function bookingForKba(db: DbOrTx, bookingId: string) {
  const [row] = await db
    .select({
      id: bookings.id,
      status: bookings.status,
      startsAt: bookings.startsAt,
      timeZone: bookings.timeZone,
      firstName: customers.firstName,
      lastName: customers.lastName,
    })
    .from(bookings)
    .leftJoin(customers, eq(customers.id, bookings.customerId))
    .where(eq(bookings.id, bookingId));
  return row;
}

/** Quizzes left open with their time run out (a quiz abandoned mid-way): the sweep fails them. */
export async function timedOutAttempts(db: DbOrTx, bookingId: string, before: Date): Promise<KbaAttemptRow[]> {
  return db
    .select()
    .from(kbaAttempts)
    .where(and(eq(kbaAttempts.bookingId, bookingId), eq(kbaAttempts.status, 'open'), sql`${kbaAttempts.expiresAt} < ${before.toISOString()}::timestamptz`));
}

/** Retention: a finished booking's quizzes and sealed details go with its ID images. */
export async function deleteKbaAttempts(db: DbOrTx, bookingId: string): Promise<number> {
  const rows = await db.delete(kbaAttempts).where(eq(kbaAttempts.bookingId, bookingId)).returning({ id: kbaAttempts.id });
  return rows.length;
}
