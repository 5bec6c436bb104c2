import { and, asc, desc, eq, gte, inArray, lt, ne, or, sql } from 'drizzle-orm';
import { holdingStatuses, slotKeepingStatuses } from '../../../shared/booking.ts';
import type { DbOrTx } from '../../db/client.ts';
import { bookingManageTokens, bookings, customers, documents, payments } from '../../db/schema.ts';
import { currentPayment } from '../../../shared/payments.ts';

/** The only module of the booking feature that speaks to the ORM. */

export type BookingRow = typeof bookings.$inferSelect;

/**
 * A booking takes a unit of its slot's capacity when it is paid or being paid,
 * or while its hold has not expired. An expired hold simply stops matching:
 * nothing has to run to free it.
 */
function takesCapacity(now: Date) {
  return or(
    inArray(bookings.status, [...slotKeepingStatuses]),
    and(inArray(bookings.status, [...holdingStatuses]), sql`${bookings.holdExpiresAt} > ${now.toISOString()}::timestamptz`),
  );
}

/**
 * Serialises every capacity decision for one slot, across connections and
 * nodes, until the transaction ends. Keyed on (namespace, minutes since the
 * epoch) — the two-int form leaves the one-bigint key space to others.
 */
const slotLockNamespace = 0x4e4f5459; // "NOTY"
export async function lockSlot(tx: DbOrTx, startsAt: Date): Promise<void> {
  const minutes = Math.floor(startsAt.getTime() / 60_000);
  await tx.execute(sql`select pg_advisory_xact_lock(${slotLockNamespace}::int, ${minutes}::int)`);
}

export async function countTaken(tx: DbOrTx, startsAt: Date, now: Date, excludeBookingId?: string): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(bookings)
    .where(
      and(
        eq(bookings.startsAt, startsAt),
        takesCapacity(now),
        excludeBookingId ? ne(bookings.id, excludeBookingId) : undefined,
      ),
    );
  return Number(row?.n ?? 0);
}

/** Units taken per slot start in [from, to), keyed by epoch milliseconds. */
export async function takenBetween(db: DbOrTx, from: Date, to: Date, now: Date): Promise<Map<number, number>> {
  const rows = await db
    .select({ startsAt: bookings.startsAt, n: sql<number>`count(*)::int` })
    .from(bookings)
    .where(and(gte(bookings.startsAt, from), lt(bookings.startsAt, to), takesCapacity(now)))
    .groupBy(bookings.startsAt);
  return new Map(rows.map((r) => [r.startsAt!.getTime(), Number(r.n)]));
}

/** Inserts a draft; null when the reference is already taken (the caller draws again). */
export async function insertDraft(
  db: DbOrTx,
  values: { reference: string; timeZone: string; priceCents: number },
): Promise<BookingRow | null> {
  const [row] = await db
    .insert(bookings)
    .values({ ...values, status: 'draft' })
    .onConflictDoNothing({ target: bookings.reference })
    .returning();
  return row ?? null;
}

export async function findBooking(db: DbOrTx, id: string): Promise<BookingRow | null> {
  const [row] = await db.select().from(bookings).where(eq(bookings.id, id));
  return row ?? null;
}

/** Only the booking's time: which slot to lock before the row (the lock order, service.ts). */
export async function findBookingStart(db: DbOrTx, id: string): Promise<{ startsAt: Date | null } | null> {
  const [row] = await db.select({ startsAt: bookings.startsAt }).from(bookings).where(eq(bookings.id, id));
  return row ?? null;
}

export async function lockBookingRow(tx: DbOrTx, id: string): Promise<BookingRow | null> {
  const [row] = await tx.select().from(bookings).where(eq(bookings.id, id)).for('update');
  return row ?? null;
}

export async function updateBooking(
  tx: DbOrTx,
  id: string,
  patch: Partial<Omit<BookingRow, 'id' | 'createdAt' | 'reference'>>,
): Promise<BookingRow> {
  const [row] = await tx
    .update(bookings)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(eq(bookings.id, id))
    .returning();
  return row!;
}

export async function findSealedManageToken(db: DbOrTx, bookingId: string): Promise<string | null> {
  const [row] = await db.select({ sealed: bookings.manageTokenSealed }).from(bookings).where(eq(bookings.id, bookingId));
  return row?.sealed ?? null;
}

export async function findBookingIdByManageTokenHash(db: DbOrTx, hash: string): Promise<string | null> {
  const [row] = await db.select({ id: bookings.id }).from(bookings).where(eq(bookings.manageTokenHash, hash));
  if (row) return row.id;
  // Links in later emails (reminder, no-show) carry tokens of their own.
  const [extra] = await db.select({ id: bookingManageTokens.bookingId }).from(bookingManageTokens).where(eq(bookingManageTokens.tokenHash, hash));
  return extra?.id ?? null;
}

export async function insertManageToken(db: DbOrTx, entry: { bookingId: string; tokenHash: string; purpose: string }): Promise<void> {
  await db.insert(bookingManageTokens).values(entry);
}

export async function insertCustomer(
  tx: DbOrTx,
  contact: { firstName: string; lastName: string; email: string; phone: string },
): Promise<string> {
  const [row] = await tx.insert(customers).values(contact).returning({ id: customers.id });
  return row!.id;
}

export async function updateCustomer(
  tx: DbOrTx,
  id: string,
  contact: { firstName: string; lastName: string; email: string; phone: string },
): Promise<void> {
  await tx.update(customers).set(contact).where(eq(customers.id, id));
}

export async function findCustomer(db: DbOrTx, id: string) {
  const [row] = await db
    .select({ firstName: customers.firstName, lastName: customers.lastName, email: customers.email, phone: customers.phone })
    .from(customers)
    .where(eq(customers.id, id));
  return row ?? null;
}

/** Documents the visitor sees: stored ones, and infected ones (which block payment until removed). */
export async function visibleDocuments(db: DbOrTx, bookingId: string) {
  return db
    .select({
      id: documents.id,
      name: documents.originalName,
      sizeBytes: documents.sizeBytes,
      contentType: documents.contentType,
      scanStatus: documents.scanStatus,
    })
    .from(documents)
    .where(and(eq(documents.bookingId, bookingId), inArray(documents.status, ['stored', 'infected'])))
    .orderBy(asc(documents.createdAt), asc(documents.id));
}

export async function countStoredDocuments(db: DbOrTx, bookingId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(documents)
    .where(and(eq(documents.bookingId, bookingId), eq(documents.status, 'stored')));
  return Number(row?.n ?? 0);
}

export type PaymentRow = typeof payments.$inferSelect;

/** The booking's current payment (shared/payments.ts `currentPayment`), the whole row. */
export async function currentPaymentRow(db: DbOrTx, bookingId: string): Promise<PaymentRow | null> {
  return currentPayment(await db.select().from(payments).where(eq(payments.bookingId, bookingId)).orderBy(desc(payments.createdAt)));
}
