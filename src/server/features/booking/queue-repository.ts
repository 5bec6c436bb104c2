import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { bookings, notaryAvailability, notarySessions, onDemandQueue, staffUsers } from '../../db/schema.ts';

/**
 * The on-demand line's reads and writes (decision 110). Every claim takes its
 * row `FOR UPDATE SKIP LOCKED`: two notaries (on any nodes) asking at once
 * get two different customers, and a row whose claim is in flight on a node
 * that dies is unlocked with its transaction, still waiting.
 */

export type QueueRow = typeof onDemandQueue.$inferSelect;

/** Place in line: customers put back at the front first (by when), then oldest first. */
const lineOrder = [sql`${onDemandQueue.frontAt} asc nulls last`, asc(onDemandQueue.joinedAt), asc(onDemandQueue.bookingId)];

/** The booking still stands (a cancelled one — staff, refund — leaves the line without touching its row). */
const bookingStands = sql`exists (select 1 from ${bookings} where ${bookings.id} = ${onDemandQueue.bookingId} and ${bookings.status} = 'confirmed')`;

/** In line: waiting, heard from within the grace, booking still confirmed. */
function inLine(now: Date, graceMs: number): SQL {
  return and(eq(onDemandQueue.status, 'waiting'), gte(onDemandQueue.customerSeenAt, new Date(now.getTime() - graceMs)), bookingStands)!;
}

export async function insertWaiting(tx: DbOrTx, bookingId: string, now: Date): Promise<boolean> {
  const rows = await tx
    .insert(onDemandQueue)
    .values({ bookingId, status: 'waiting', firstJoinedAt: now, joinedAt: now, customerSeenAt: now })
    .onConflictDoNothing()
    .returning({ bookingId: onDemandQueue.bookingId });
  return rows.length > 0;
}

export async function findEntry(db: DbOrTx, bookingId: string): Promise<QueueRow | null> {
  const [row] = await db.select().from(onDemandQueue).where(eq(onDemandQueue.bookingId, bookingId));
  return row ?? null;
}

export async function lockEntry(tx: DbOrTx, bookingId: string): Promise<QueueRow | null> {
  const [row] = await tx.select().from(onDemandQueue).where(eq(onDemandQueue.bookingId, bookingId)).for('update');
  return row ?? null;
}

/** The lobby's heartbeat. A customer marked away comes back at the end of the line. */
export async function customerSeen(db: DbOrTx, bookingId: string, now: Date): Promise<void> {
  await db
    .update(onDemandQueue)
    .set({
      customerSeenAt: now,
      status: sql`case when ${onDemandQueue.status} = 'away' then 'waiting' else ${onDemandQueue.status} end`,
      joinedAt: sql`case when ${onDemandQueue.status} = 'away' then ${now.toISOString()}::timestamptz else ${onDemandQueue.joinedAt} end`,
    })
    .where(and(eq(onDemandQueue.bookingId, bookingId), inArray(onDemandQueue.status, ['waiting', 'away'])));
}

/** 1-based place of `entry` among those in line (itself counted even when just back). */
export async function positionOf(db: DbOrTx, entry: QueueRow, now: Date, graceMs: number): Promise<number> {
  const ahead = entry.frontAt
    ? or(and(isNotNull(onDemandQueue.frontAt), sql`(${onDemandQueue.frontAt}, ${onDemandQueue.bookingId}) < (${entry.frontAt.toISOString()}::timestamptz, ${entry.bookingId}::uuid)`))
    : or(
        isNotNull(onDemandQueue.frontAt),
        sql`(${onDemandQueue.joinedAt}, ${onDemandQueue.bookingId}) < (${entry.joinedAt.toISOString()}::timestamptz, ${entry.bookingId}::uuid)`,
      );
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(onDemandQueue)
    .where(and(inLine(now, graceMs), ahead));
  return Number(row?.n ?? 0) + 1;
}

/** Mean time from joining to being accepted over the last `sample` pick-ups of the past day; null without any. */
export async function recentPickupMs(db: DbOrTx, now: Date, sample = 20): Promise<number | null> {
  const recent = db
    .select({ waited: sql<number>`extract(epoch from (${onDemandQueue.acceptedAt} - ${onDemandQueue.joinedAt})) * 1000`.as('waited') })
    .from(onDemandQueue)
    .where(and(isNotNull(onDemandQueue.acceptedAt), gte(onDemandQueue.acceptedAt, new Date(now.getTime() - 24 * 3600_000))))
    .orderBy(desc(onDemandQueue.acceptedAt))
    .limit(sample)
    .as('recent');
  const [row] = await db.select({ mean: sql<number | null>`avg(${recent.waited})::float8` }).from(recent);
  return row?.mean == null ? null : Number(row.mean);
}

/** Customers in line, oldest first (the console's list). */
export async function listInLine(db: DbOrTx, now: Date, graceMs: number, limit: number): Promise<{ bookingId: string; reference: string; startsAt: Date | null; joinedAt: Date }[]> {
  return db
    .select({ bookingId: onDemandQueue.bookingId, reference: bookings.reference, startsAt: bookings.startsAt, joinedAt: onDemandQueue.firstJoinedAt })
    .from(onDemandQueue)
    .innerJoin(bookings, eq(bookings.id, onDemandQueue.bookingId))
    .where(inLine(now, graceMs))
    .orderBy(...lineOrder)
    .limit(limit);
}

/**
 * Takes the next customer in line for `notaryId`: the first row in line order
 * that no other transaction holds (SKIP LOCKED), marked accepted. The same SQL
 * on PostgreSQL and PGlite. Null when nobody is waiting.
 */
export async function claimNext(tx: DbOrTx, notaryId: string, now: Date, graceMs: number): Promise<string | null> {
  const [next] = await tx
    .select({ bookingId: onDemandQueue.bookingId })
    .from(onDemandQueue)
    .where(inLine(now, graceMs))
    .orderBy(...lineOrder)
    .limit(1)
    .for('update', { skipLocked: true });
  if (!next) return null;
  await tx
    .update(onDemandQueue)
    .set({ status: 'accepted', notaryId, acceptedAt: now, notarySeenAt: now })
    .where(eq(onDemandQueue.bookingId, next.bookingId));
  return next.bookingId;
}

/** The accepting notary is still there (console or room). */
export async function notarySeen(db: DbOrTx, bookingId: string, notaryId: string, now: Date): Promise<void> {
  await db
    .update(onDemandQueue)
    .set({ notarySeenAt: now })
    .where(and(eq(onDemandQueue.bookingId, bookingId), eq(onDemandQueue.notaryId, notaryId), eq(onDemandQueue.status, 'accepted')));
}

/** Waiting customers silent past the grace: away (they come back at the end). Returns how many. */
export async function markAway(db: DbOrTx, now: Date, graceMs: number): Promise<number> {
  const rows = await db
    .update(onDemandQueue)
    .set({ status: 'away' })
    .where(and(eq(onDemandQueue.status, 'waiting'), lt(onDemandQueue.customerSeenAt, new Date(now.getTime() - graceMs))))
    .returning({ bookingId: onDemandQueue.bookingId });
  return rows.length;
}

/** Customers in line (or away) longer than the limit, locked for the caller to time out. */
export async function claimOverdue(tx: DbOrTx, now: Date, maxWaitMs: number, limit: number): Promise<string[]> {
  const rows = await tx
    .select({ bookingId: onDemandQueue.bookingId })
    .from(onDemandQueue)
    .where(and(inArray(onDemandQueue.status, ['waiting', 'away']), lt(onDemandQueue.firstJoinedAt, new Date(now.getTime() - maxWaitMs)), bookingStands))
    .orderBy(asc(onDemandQueue.firstJoinedAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  return rows.map((r) => r.bookingId);
}

export async function markTimedOut(tx: DbOrTx, bookingId: string, now: Date): Promise<void> {
  await tx.update(onDemandQueue).set({ status: 'timed_out', timedOutAt: now }).where(eq(onDemandQueue.bookingId, bookingId));
}

/**
 * Accepted customers whose notary has not been heard from within `dropMs` and
 * whose session has not started: locked for the caller to put back.
 */
export async function claimDropped(tx: DbOrTx, now: Date, dropMs: number, limit: number): Promise<{ bookingId: string; notaryId: string | null }[]> {
  return tx
    .select({ bookingId: onDemandQueue.bookingId, notaryId: onDemandQueue.notaryId })
    .from(onDemandQueue)
    .leftJoin(notarySessions, eq(notarySessions.bookingId, onDemandQueue.bookingId))
    .where(
      and(
        eq(onDemandQueue.status, 'accepted'),
        lt(onDemandQueue.notarySeenAt, new Date(now.getTime() - dropMs)),
        isNull(notarySessions.startedAt),
        // A call already ended (completed, no-show, cancelled) is over, not dropped.
        bookingStands,
      ),
    )
    .limit(limit)
    .for('update', { of: onDemandQueue, skipLocked: true });
}

/** Back to the front of the line: waiting, no notary, heard from now (they were in the room). */
export async function putBackInFront(tx: DbOrTx, bookingId: string, now: Date): Promise<void> {
  await tx
    .update(onDemandQueue)
    .set({ status: 'waiting', frontAt: now, notaryId: null, acceptedAt: null, notarySeenAt: null, customerSeenAt: now })
    .where(eq(onDemandQueue.bookingId, bookingId));
}

export async function closeEntry(tx: DbOrTx, bookingId: string, resolution: 'refund' | 'schedule' | null): Promise<void> {
  await tx.update(onDemandQueue).set({ status: 'closed', resolution }).where(eq(onDemandQueue.bookingId, bookingId));
}

/** The booking side of an accept or a put-back: who serves it and from when (the room opens at `startsAt`). */
export async function setBookingServer(tx: DbOrTx, bookingId: string, notaryId: string | null, startsAt: Date | null, now: Date): Promise<void> {
  await tx
    .update(bookings)
    .set({ notaryId, startsAt, notaryAssignedAt: notaryId ? now : null, notarySeenAt: notaryId ? now : null, updatedAt: now })
    .where(eq(bookings.id, bookingId));
}

/** On-duty active notaries, and which of them are in a session now (an accepted call, or a started room not finished). */
export async function dutyRoster(db: DbOrTx): Promise<{ onDuty: string[]; busy: Set<string> }> {
  const onDuty = await db
    .select({ id: staffUsers.id })
    .from(notaryAvailability)
    .innerJoin(staffUsers, eq(staffUsers.id, notaryAvailability.staffId))
    .where(and(eq(notaryAvailability.onDuty, true), eq(staffUsers.active, true), eq(staffUsers.role, 'notary')));
  if (onDuty.length === 0) return { onDuty: [], busy: new Set() };
  const busy = await db
    .selectDistinct({ id: bookings.notaryId })
    .from(bookings)
    .leftJoin(onDemandQueue, eq(onDemandQueue.bookingId, bookings.id))
    .leftJoin(notarySessions, eq(notarySessions.bookingId, bookings.id))
    .where(
      and(
        eq(bookings.status, 'confirmed'),
        isNotNull(bookings.notaryId),
        isNull(notarySessions.finishedAt),
        or(eq(onDemandQueue.status, 'accepted'), isNotNull(notarySessions.startedAt), isNotNull(notarySessions.customerJoinedAt)),
      ),
    );
  return { onDuty: onDuty.map((r) => r.id), busy: new Set(busy.map((r) => r.id!)) };
}

export async function isOnDuty(db: DbOrTx, staffId: string): Promise<boolean> {
  const [row] = await db.select({ onDuty: notaryAvailability.onDuty }).from(notaryAvailability).where(eq(notaryAvailability.staffId, staffId));
  return row?.onDuty ?? false;
}

/** The notary's accepted call whose session is not finished (they take one customer at a time). */
export async function openCallOf(db: DbOrTx, notaryId: string): Promise<string | null> {
  const [row] = await db
    .select({ bookingId: onDemandQueue.bookingId })
    .from(onDemandQueue)
    .innerJoin(bookings, eq(bookings.id, onDemandQueue.bookingId))
    .leftJoin(notarySessions, eq(notarySessions.bookingId, onDemandQueue.bookingId))
    .where(and(eq(onDemandQueue.status, 'accepted'), eq(onDemandQueue.notaryId, notaryId), eq(bookings.status, 'confirmed'), isNull(notarySessions.finishedAt)))
    .limit(1);
  return row?.bookingId ?? null;
}
