import { and, asc, eq, gte, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import { slotKeepingStatuses } from '../../../shared/booking.ts';
import type { NotaryHours, WorkingSpan } from '../../../shared/availability.ts';
import type { DbOrTx } from '../../db/client.ts';
import { bookings, notaryAvailability, staffUsers } from '../../db/schema.ts';

/** The only module of the availability feature that speaks to the ORM. */

export interface NotaryRow extends NotaryHours {
  name: string;
  email: string;
  onDuty: boolean;
  /** False until the notary (or an admin) saved hours. */
  hasHours: boolean;
}

/** Every active notary, with their hours where set. */
export async function listNotaries(db: DbOrTx): Promise<NotaryRow[]> {
  const rows = await db
    .select({
      staffId: staffUsers.id,
      name: staffUsers.name,
      email: staffUsers.email,
      timeZone: staffUsers.timeZone,
      weekly: notaryAvailability.weekly,
      datesOff: notaryAvailability.datesOff,
      onDuty: notaryAvailability.onDuty,
    })
    .from(staffUsers)
    .leftJoin(notaryAvailability, eq(notaryAvailability.staffId, staffUsers.id))
    .where(and(eq(staffUsers.role, 'notary'), eq(staffUsers.active, true)))
    .orderBy(asc(staffUsers.name), asc(staffUsers.id));
  return rows.map((r) => ({
    staffId: r.staffId,
    name: r.name,
    email: r.email,
    timeZone: r.timeZone,
    weekly: r.weekly ?? [],
    datesOff: r.datesOff ?? [],
    onDuty: r.onDuty ?? false,
    hasHours: (r.weekly ?? []).length > 0,
  }));
}

/** Active notaries who have working hours: the input of capacity and assignment. */
export async function loadWorkingHours(db: DbOrTx): Promise<NotaryHours[]> {
  const rows = await db
    .select({ staffId: staffUsers.id, timeZone: staffUsers.timeZone, weekly: notaryAvailability.weekly, datesOff: notaryAvailability.datesOff })
    .from(notaryAvailability)
    .innerJoin(staffUsers, eq(notaryAvailability.staffId, staffUsers.id))
    .where(and(eq(staffUsers.role, 'notary'), eq(staffUsers.active, true), sql`jsonb_array_length(${notaryAvailability.weekly}) > 0`))
    .orderBy(asc(staffUsers.id));
  return rows;
}

/** Changes when any notary's hours, switch or the set of notaries change: the public pages' cache key. */
export async function hoursSignature(db: DbOrTx): Promise<string> {
  const [row] = await db
    .select({
      hours: sql<string>`md5(coalesce(string_agg(${notaryAvailability.staffId}::text || ${notaryAvailability.weekly}::text || ${notaryAvailability.datesOff}::text || ${notaryAvailability.onDuty}::text, '|' order by ${notaryAvailability.staffId}), ''))`,
    })
    .from(notaryAvailability);
  const [staff] = await db
    .select({ ids: sql<string>`md5(coalesce(string_agg(${staffUsers.id}::text, '|' order by ${staffUsers.id}), ''))` })
    .from(staffUsers)
    .where(and(eq(staffUsers.role, 'notary'), eq(staffUsers.active, true)));
  return `${row?.hours ?? ''}|${staff?.ids ?? ''}`;
}

export async function findNotary(db: DbOrTx, staffId: string): Promise<{ id: string; timeZone: string } | undefined> {
  const [row] = await db
    .select({ id: staffUsers.id, timeZone: staffUsers.timeZone })
    .from(staffUsers)
    .where(and(eq(staffUsers.id, staffId), eq(staffUsers.role, 'notary'), eq(staffUsers.active, true)));
  return row;
}

export async function saveHours(db: DbOrTx, staffId: string, values: { weekly: WorkingSpan[]; datesOff: string[] }, now: Date): Promise<void> {
  await db
    .insert(notaryAvailability)
    .values({ staffId, weekly: values.weekly, datesOff: values.datesOff, updatedAt: now })
    .onConflictDoUpdate({ target: notaryAvailability.staffId, set: { weekly: values.weekly, datesOff: values.datesOff, updatedAt: now } });
}

export async function setOnDuty(db: DbOrTx, staffId: string, onDuty: boolean, now: Date): Promise<void> {
  await db
    .insert(notaryAvailability)
    .values({ staffId, weekly: [], onDuty, updatedAt: now })
    .onConflictDoUpdate({ target: notaryAvailability.staffId, set: { onDuty, updatedAt: now } });
}

/** Locks the notary's hours row (creating an empty one), so two changes to their dates off do not lose one. */
export async function lockHours(db: DbOrTx, staffId: string, now: Date): Promise<{ weekly: WorkingSpan[]; datesOff: string[] }> {
  await db.insert(notaryAvailability).values({ staffId, weekly: [], updatedAt: now }).onConflictDoNothing();
  const [row] = await db.select().from(notaryAvailability).where(eq(notaryAvailability.staffId, staffId)).for('update');
  return { weekly: row!.weekly, datesOff: row!.datesOff };
}

/** Bookings holding a slot in [from, to) per assigned notary: the fairness count. */
export async function assignedCounts(db: DbOrTx, from: Date, to: Date): Promise<Map<string, number>> {
  const rows = await db
    .select({ notaryId: bookings.notaryId, n: sql<number>`count(*)::int` })
    .from(bookings)
    .where(and(isNotNull(bookings.notaryId), gte(bookings.startsAt, from), lt(bookings.startsAt, to), inArray(bookings.status, [...slotKeepingStatuses])))
    .groupBy(bookings.notaryId);
  return new Map(rows.map((r) => [r.notaryId!, Number(r.n)]));
}

/** Notaries who already have a booking at `startsAt`. */
export async function busyAt(db: DbOrTx, startsAt: Date, excludeBookingId?: string): Promise<Set<string>> {
  const rows = await db
    .select({ notaryId: bookings.notaryId, id: bookings.id })
    .from(bookings)
    .where(and(isNotNull(bookings.notaryId), eq(bookings.startsAt, startsAt), inArray(bookings.status, [...slotKeepingStatuses])));
  return new Set(rows.filter((r) => r.id !== excludeBookingId).map((r) => r.notaryId!));
}

/** A notary's slot-keeping bookings in [from, to), for reassigning a day. */
export async function notaryBookingsBetween(db: DbOrTx, notaryId: string, from: Date, to: Date): Promise<{ id: string; startsAt: Date }[]> {
  const rows = await db
    .select({ id: bookings.id, startsAt: bookings.startsAt })
    .from(bookings)
    .where(and(eq(bookings.notaryId, notaryId), gte(bookings.startsAt, from), lt(bookings.startsAt, to), inArray(bookings.status, [...slotKeepingStatuses])))
    .orderBy(asc(bookings.startsAt))
    .for('update');
  return rows.map((r) => ({ id: r.id, startsAt: r.startsAt! }));
}

export async function setBookingNotary(db: DbOrTx, bookingId: string, notaryId: string | null, now: Date): Promise<void> {
  await db
    .update(bookings)
    .set({ notaryId, notaryAssignedAt: notaryId ? now : null, notarySeenAt: null, updatedAt: now })
    .where(eq(bookings.id, bookingId));
}

export async function notaryContact(db: DbOrTx, staffId: string): Promise<{ email: string; name: string } | undefined> {
  const [row] = await db.select({ email: staffUsers.email, name: staffUsers.name }).from(staffUsers).where(eq(staffUsers.id, staffId));
  return row;
}
