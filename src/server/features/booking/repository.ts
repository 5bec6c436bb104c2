import { and, asc, desc, eq, gte, inArray, is, isNull, lt, ne, or, Placeholder, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { editableStatuses, holdingStatuses, slotKeepingStatuses, type BookingStatus } from '../../../shared/booking.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { bookings, customers, documents, notarialDocuments, payments } from '../../db/schema.ts';
import { currentPayment } from '../../../shared/payments.ts';

/** The only module of the booking feature that speaks to the ORM. */

export type BookingRow = typeof bookings.$inferSelect;

/**
 * A booking takes a unit of its slot's capacity when it is paid or being paid,
 * or while its hold has not expired. An expired hold simply stops matching:
 * nothing has to run to free it.
 */
function takesCapacity(now: Date | string | ReturnType<typeof sql.placeholder>) {
  return or(
    inArray(bookings.status, [...slotKeepingStatuses]),
    and(inArray(bookings.status, [...holdingStatuses]), sql`${bookings.holdExpiresAt} > ${now instanceof Date ? now.toISOString() : now}::timestamptz`),
  );
}

/**
 * Serialises every capacity decision for one slot, across connections and
 * nodes, until the transaction ends. Keyed on (namespace, minutes since the
 * epoch) — the two-int form leaves the one-bigint key space to others.
 */
const slotLockNamespace = 0x4e4f5459; // "NOTY"
export async function lockSlot(tx: DbOrTx, startsAt: Date): Promise<void> {
  await tx.execute(sql.raw(lockStatement(startsAt)));
}
/** Both keys are integers we compute: written into the text, so the simple protocol can carry it too. */
function lockStatement(startsAt: Date): string {
  const minutes = Math.floor(startsAt.getTime() / 60_000);
  if (!Number.isSafeInteger(minutes)) throw new Error('Invalid slot start');
  return `select pg_advisory_xact_lock(${slotLockNamespace}::int, ${minutes}::int)`;
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

function prepareTakenBetween(db: Db) {
  return db
    .select({ startsAt: bookings.startsAt, n: sql<number>`count(*)::int` })
    .from(bookings)
    .where(and(gte(bookings.startsAt, sql.placeholder('from')), lt(bookings.startsAt, sql.placeholder('to')), takesCapacity(sql.placeholder('now'))))
    .groupBy(bookings.startsAt)
    .prepare('booking_taken_between');
}
/**
 * Built once per database (a prepared statement, named on PostgreSQL so each
 * connection parses and plans it once): building the query was most of the
 * slot list's own time. Outside transactions only — a prepared query runs on
 * the database's pool, not on a transaction's connection.
 */
const takenBetweenQueries = new WeakMap<Db, ReturnType<typeof prepareTakenBetween>>();

/** Units taken per slot start in [from, to), keyed by epoch milliseconds. */
export async function takenBetween(db: Db, from: Date, to: Date, now: Date): Promise<Map<number, number>> {
  let query = takenBetweenQueries.get(db);
  if (!query) takenBetweenQueries.set(db, (query = prepareTakenBetween(db)));
  const rows = await query.execute({ from, to, now: now.toISOString() });
  return new Map(rows.map((r) => [r.startsAt!.getTime(), Number(r.n)]));
}

/** held: a draft now held; moved: an existing hold moved here; the rest refused, nothing written. */
export type HoldOutcome = 'held' | 'moved' | 'not_found' | 'locked' | 'full';

/** `status in (…)` of the editable statuses, as SQL text (our own constants). */
const editable = sql.raw(`in (${editableStatuses.map((s) => `'${s}'`).join(', ')})`);
/** An instant as JavaScript's toISOString writes it, so the audit data reads the same as elsewhere. */
const isoText = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

export interface Hold {
  bookingId: string;
  startsAt: Date;
  timeZone: string;
  holdExpiresAt: Date;
  now: Date;
  capacity: number;
}
type HoldRow = { status: BookingStatus; done: boolean } | undefined;

function holdOutcome(row: HoldRow): HoldOutcome {
  if (!row) return 'not_found';
  if (row.done) return row.status === 'draft' ? 'held' : 'moved';
  return editableStatuses.includes(row.status) ? 'full' : 'locked';
}

/** A hold's values as the statement takes them (instants as ISO text), or placeholders for them. */
type HoldValues<T> = Record<'bookingId' | 'startsAt' | 'timeZone' | 'holdExpiresAt' | 'now' | 'capacity', T>;
const holdValues = (hold: Hold): HoldValues<string | number> => ({
  bookingId: hold.bookingId,
  startsAt: hold.startsAt.toISOString(),
  timeZone: hold.timeZone,
  holdExpiresAt: hold.holdExpiresAt.toISOString(),
  now: hold.now.toISOString(),
  capacity: hold.capacity,
});

/**
 * Holds (or moves the hold of) `bookingId` on `startsAt` in one statement:
 * locks the booking row, counts the units the slot's other bookings take
 * (`takesCapacity`, the one definition),
 * and — when the booking is editable and the slot has room — updates it
 * (draft → held) and writes its audit entry, as `transition` / `writeAudit`
 * would. The hold is the busiest write.
 *
 * It runs under the slot's lock (the lock statement before it in the same
 * message and transaction, `holdInOneRoundTrip`): its snapshot is then taken
 * after every earlier decision for the slot committed, so the count is current
 * — the same guarantee as a separate count after the lock. Built once, with
 * placeholders, into `holdTemplate`.
 */
function holdStatement(hold: HoldValues<string | number | ReturnType<typeof sql.placeholder>>): SQL {
  const startsAt = hold.startsAt;
  return sql`
    with target as (
      select id, status, starts_at from bookings where id = ${hold.bookingId} for update
    ), taken as (
      select count(*)::int as n from bookings
      where starts_at = ${startsAt}::timestamptz and id <> ${hold.bookingId} and ${takesCapacity(hold.now as string)}
    ), moved as (
      update bookings set
        starts_at = ${startsAt}::timestamptz,
        time_zone = ${hold.timeZone},
        kind = 'scheduled',
        hold_expires_at = ${hold.holdExpiresAt}::timestamptz,
        status = case when target.status = 'draft' then 'held' else target.status end,
        updated_at = now()
      from target, taken
      where bookings.id = target.id and target.status ${editable} and taken.n < ${hold.capacity}
      returning target.status as previous_status, ${isoText('target.starts_at')} as previous_starts_at
    ), audit as (
      insert into audit_log (actor_type, action, entity_type, entity_id, data)
      select 'customer', 'booking.status_changed', 'booking', ${hold.bookingId}, jsonb_build_object(
               'from', 'draft', 'to', 'held', 'startsAt', ${startsAt}::text, 'previousStartsAt', previous_starts_at)
        from moved where previous_status = 'draft'
      union all
      select 'customer', 'booking.hold_moved', 'booking', ${hold.bookingId}, jsonb_build_object(
               'startsAt', ${startsAt}::text, 'previousStartsAt', previous_starts_at)
        from moved where previous_status <> 'draft'
    )
    select target.status, exists (select 1 from moved) as done from target`;
}

/**
 * The hold statement's text, built once: the text between its parameters,
 * and for each parameter either the hold's value it takes or, for our own
 * constants (the statuses), its literal.
 */
const holdTemplate = (() => {
  const names = ['bookingId', 'startsAt', 'timeZone', 'holdExpiresAt', 'now', 'capacity'] as const;
  const placeholders = Object.fromEntries(names.map((name) => [name, sql.placeholder(name)])) as HoldValues<ReturnType<typeof sql.placeholder>>;
  const { sql: text, params } = new PgDialect().sqlToQuery(holdStatement(placeholders));
  const parts = text.split(/\$(\d+)/);
  const texts = parts.filter((_, i) => i % 2 === 0);
  const slots = parts
    .filter((_, i) => i % 2 === 1)
    .map((n) => {
      const param = params[Number(n) - 1];
      return is(param, Placeholder) ? { name: param.name as keyof HoldValues<unknown> } : { literal: literal(param) };
    });
  return (values: HoldValues<string | number>) => {
    let out = texts[0]!;
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i]!;
      out += (slot.name === undefined ? slot.literal : literal(values[slot.name])) + texts[i + 1]!;
    }
    return out;
  };
})();

/** A value as an SQL literal: finite numbers as they are, strings quoted by node-postgres (`escapeLiteral`). */
function literal(value: unknown): string {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string') return pg.escapeLiteral(value);
  throw new Error(`No SQL literal for a ${typeof value}`);
}

/**
 * The whole hold — BEGIN, the slot's lock, the hold statement, COMMIT — sent
 * as one simple-protocol message, so one round trip instead of four
 * (docs/decisions/053-trpc-fast-lane.md), on PostgreSQL and on the embedded
 * database alike (its process takes the message as a whole: the session is
 * held for one message, not four exchanges). PostgreSQL runs the statements
 * of such a message one after another, each with its own snapshot (READ
 * COMMITTED), so the hold statement still starts after the lock was granted
 * and counts every hold committed before it: the guarantee of taking the lock,
 * then counting, in one transaction (booking-concurrency.test.ts).
 *
 * The simple protocol carries no parameters: the values are written into the
 * text as literals, numbers as they are and strings quoted by node-postgres
 * (they are already a UUID, ISO instants and a known time-zone name).
 * When a statement fails, PostgreSQL skips the rest of the message and leaves
 * the transaction aborted: it is rolled back before the connection goes back
 * to the pool (or the connection is dropped).
 */
export async function holdInOneRoundTrip(pool: pg.Pool, hold: Hold): Promise<HoldOutcome> {
  const statement = holdTemplate(holdValues(hold));
  const client = await pool.connect();
  let results: pg.QueryResult[];
  try {
    results = (await client.query(`begin; ${lockStatement(hold.startsAt)}; ${statement}; commit`)) as unknown as pg.QueryResult[];
  } catch (error) {
    try {
      await client.query('rollback');
      client.release();
    } catch (rollbackError) {
      client.release(rollbackError as Error);
    }
    throw error;
  }
  client.release();
  return holdOutcome(results[2]!.rows[0] as HoldRow);
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

export async function insertCustomer(
  tx: DbOrTx,
  contact: { firstName: string; lastName: string; email: string; phone: string | null },
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
      supporting: sql<boolean>`${notarialDocuments.supportingAt} is not null`,
    })
    .from(documents)
    .leftJoin(notarialDocuments, eq(notarialDocuments.documentId, documents.id))
    .where(and(eq(documents.bookingId, bookingId), inArray(documents.status, ['stored', 'infected'])))
    .orderBy(asc(documents.createdAt), asc(documents.id));
}

/** The documents to notarize: the price counts them (a supporting file is never charged, docs/product.md §12.10). */
export async function countStoredDocuments(db: DbOrTx, bookingId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(documents)
    .leftJoin(notarialDocuments, eq(notarialDocuments.documentId, documents.id))
    .where(and(eq(documents.bookingId, bookingId), eq(documents.status, 'stored'), isNull(notarialDocuments.supportingAt)));
  return Number(row?.n ?? 0);
}

export type PaymentRow = typeof payments.$inferSelect;

/** The booking's current payment (shared/payments.ts `currentPayment`), the whole row. */
export async function currentPaymentRow(db: DbOrTx, bookingId: string): Promise<PaymentRow | null> {
  // The booking's own payment: a co-signer's fee paid later is shown beside it, never instead of it (decision 125).
  return currentPayment(
    await db.select().from(payments).where(and(eq(payments.bookingId, bookingId), eq(payments.purpose, 'booking'))).orderBy(desc(payments.createdAt)),
  );
}
