import { aliasedTable, and, asc, desc, eq, gte, inArray, isNotNull, isNull, lt, ne, sql, type SQL } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../db/client.ts';
import { auditLog, bookings, contactMessages, customers, documents, staffUsers, type BookingStatus } from '../../db/schema.ts';

/** The console's reads: only the columns each screen shows. */

const notary = aliasedTable(staffUsers, 'notary');

/** A booking's who-and-when, as every console screen lists it (with the customer and notary joined). */
const bookingColumns = {
  id: bookings.id,
  reference: bookings.reference,
  status: bookings.status,
  startsAt: bookings.startsAt,
  timeZone: bookings.timeZone,
  customerFirstName: customers.firstName,
  customerLastName: customers.lastName,
  customerEmail: customers.email,
  customerPhone: customers.phone,
  notaryId: bookings.notaryId,
  notaryName: notary.name,
  notaryEmail: notary.email,
};

export interface BookingListFilter {
  from?: Date;
  to?: Date;
  statuses?: readonly BookingStatus[];
  excludeStatuses?: readonly BookingStatus[];
  search?: string;
  notaryId?: string;
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * A search is answered one of two ways (decision 080), chosen by the
 * planner's estimate of its matches (an EXPLAIN, ~1 ms, no rows read):
 * - narrow (a reference, an email): the ids of every match, found by the
 *   trigram indexes (pg_trgm GIN, migration 0007), then sorted;
 * - broad ("smith", or more than `searchIdCap` matches found after all): the
 *   run's index walked in order with the match as a filter, which fills a page
 *   after a few dozen rows per match.
 */
const searchIdCap = 1000;

function searchPattern(search: string): string {
  return `%${escapeLike(search)}%`;
}

function matchesSearch(pattern: string): SQL {
  return sql`(${bookings.reference} ilike ${pattern} or ${customers.email} ilike ${pattern}
    or (${customers.firstName} || ' ' || ${customers.lastName}) ilike ${pattern})`;
}

/** Every booking a search matches, each side by its own trigram index. `union all` streams: a limit stops it early. */
function matchingIds(pattern: string): SQL {
  return sql`select b.id from ${bookings} b where b.reference ilike ${pattern}
    union all
    select b.id from ${customers} c join ${bookings} b on b.customer_id = c.id
      where c.email ilike ${pattern} or (c.first_name || ' ' || c.last_name) ilike ${pattern}`;
}

/** The bookings a narrow search matches; null for a broad one (estimated or found to match more than `searchIdCap`). */
async function searchBookingIds(db: DbOrTx, search: string): Promise<string[] | null> {
  const pattern = searchPattern(search);
  const [plan] = await queryRows<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(db, sql`explain (format json) ${matchingIds(pattern)}`);
  if ((plan?.['QUERY PLAN'][0].Plan['Plan Rows'] ?? 0) > searchIdCap) return null;
  const rows = await queryRows<{ id: string }>(db, sql`${matchingIds(pattern)} limit ${searchIdCap + 1}`);
  return rows.length > searchIdCap ? null : [...new Set(rows.map((r) => r.id))];
}

/** One array parameter (the ids came from the database: UUIDs), not a thousand. */
function idIn(ids: string[]): SQL {
  return sql`${bookings.id} = any(${`{${ids.join(',')}}`}::uuid[])`;
}

function bookingConditions(filter: BookingListFilter): SQL[] {
  const conditions: SQL[] = [];
  if (filter.from) conditions.push(gte(bookings.startsAt, filter.from));
  if (filter.to) conditions.push(lt(bookings.startsAt, filter.to));
  if (filter.statuses) conditions.push(inArray(bookings.status, [...filter.statuses]));
  if (filter.excludeStatuses?.length) conditions.push(sql`${bookings.status} not in ${[...filter.excludeStatuses]}`);
  if (filter.notaryId) conditions.push(eq(bookings.notaryId, filter.notaryId));
  return conditions;
}

function selectBookingRows(db: DbOrTx) {
  return db
    .select({
      ...bookingColumns,
      /** The row's key in its run, in microseconds since 1970 (timestamptz's own precision: a Date would drop the last three digits). */
      keyMicros: sql<string>`(extract(epoch from coalesce(${bookings.startsAt}, ${bookings.createdAt})) * 1000000)::bigint::text`,
      documentCount: sql<number>`(select count(*)::int from ${documents} where ${documents.bookingId} = ${bookings.id} and ${documents.status} = 'stored')`,
    })
    .from(bookings)
    .leftJoin(customers, eq(customers.id, bookings.customerId))
    .leftJoin(notary, eq(notary.id, bookings.notaryId));
}

/** A notary's appointments (a bounded list: their own bookings in a window), soonest first. */
export async function listBookings(db: DbOrTx, filter: BookingListFilter, limit = 200) {
  const conditions = bookingConditions(filter);
  return selectBookingRows(db)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(asc(bookings.startsAt), asc(bookings.id))
    .limit(limit);
}

/**
 * The console's order, in three runs each read by an index with no sort
 * (decision 080): upcoming bookings soonest first, then past ones most recent
 * first (both along `bookings_starts_at_id_idx`), then undated ones newest
 * first (`bookings_undated_idx`). Ties on the time are broken by id.
 */
export const bookingRuns = ['upcoming', 'past', 'undated'] as const;
export type BookingRun = (typeof bookingRuns)[number];

/** Where a page ended: the run, and the last row's key in it. */
export interface BookingCursor {
  run: BookingRun;
  /** starts_at (upcoming, past) or created_at (undated) of the last row shown, in microseconds since 1970. */
  atMicros: string;
  id: string;
}

function runCondition(run: BookingRun, now: Date, after: BookingCursor | null): SQL {
  const nowIso = now.toISOString();
  const at = after && after.run === run ? sql`(timestamptz 'epoch' + ${after.atMicros}::bigint * interval '1 microsecond')` : null;
  switch (run) {
    case 'upcoming':
      return at
        ? sql`${bookings.startsAt} >= ${nowIso}::timestamptz and (${bookings.startsAt}, ${bookings.id}) > (${at}, ${after!.id}::uuid)`
        : sql`${bookings.startsAt} >= ${nowIso}::timestamptz`;
    case 'past':
      return at
        ? sql`${bookings.startsAt} < ${nowIso}::timestamptz and (${bookings.startsAt}, ${bookings.id}) < (${at}, ${after!.id}::uuid)`
        : sql`${bookings.startsAt} < ${nowIso}::timestamptz`;
    case 'undated':
      return at
        ? sql`${bookings.startsAt} is null and (${bookings.createdAt}, ${bookings.id}) < (${at}, ${after!.id}::uuid)`
        : sql`${bookings.startsAt} is null`;
  }
}

function runOrder(run: BookingRun) {
  if (run === 'upcoming') return [asc(bookings.startsAt), asc(bookings.id)];
  if (run === 'past') return [desc(bookings.startsAt), desc(bookings.id)];
  return [desc(bookings.createdAt), desc(bookings.id)];
}

/**
 * One page of the console's bookings after `after` (null: the first page):
 * keyset pagination, so page 1,000 costs what page 1 does. Reads one row more
 * than the page to tell whether another page follows.
 */
export async function pageBookings(db: DbOrTx, filter: BookingListFilter, after: BookingCursor | null, now: Date, pageSize: number) {
  const conditions = bookingConditions(filter);
  const rows: Array<Awaited<ReturnType<typeof queryRun>>[number] & { run: BookingRun }> = [];
  /** A narrow search's matches by id; null for a broad one (walked with a filter). */
  const search = filter.search ? { pattern: searchPattern(filter.search), ids: await searchBookingIds(db, filter.search) } : null;
  const first = after ? bookingRuns.indexOf(after.run) : 0;
  for (const run of bookingRuns.slice(first)) {
    if (rows.length > pageSize) break;
    // A day's filter leaves nothing undated.
    if (run === 'undated' && (filter.from || filter.to)) continue;
    const inRun = [...conditions, runCondition(run, now, after)];
    if (search) inRun.push(search.ids ? idIn(search.ids) : matchesSearch(search.pattern));
    const found = await queryRun(db, inRun, run, pageSize + 1 - rows.length);
    rows.push(...found.map((row) => ({ ...row, run })));
  }
  const page = rows.slice(0, pageSize);
  const last = page.at(-1);
  const next: BookingCursor | null = rows.length > pageSize && last ? { run: last.run, atMicros: last.keyMicros, id: last.id } : null;
  return { rows: page, next };
}

function queryRun(db: DbOrTx, conditions: SQL[], run: BookingRun, limit: number) {
  return selectBookingRows(db)
    .where(and(...conditions))
    .orderBy(...runOrder(run))
    .limit(limit);
}

export async function findBooking(db: DbOrTx, bookingId: string) {
  const [row] = await db
    .select({
      ...bookingColumns,
      priceCents: bookings.priceCents,
      currency: bookings.currency,
      createdAt: bookings.createdAt,
      confirmedAt: bookings.confirmedAt,
      cancelledAt: bookings.cancelledAt,
      cancellationReason: bookings.cancellationReason,
      notarySeenAt: bookings.notarySeenAt,
    })
    .from(bookings)
    .leftJoin(customers, eq(customers.id, bookings.customerId))
    .leftJoin(notary, eq(notary.id, bookings.notaryId))
    .where(eq(bookings.id, bookingId));
  return row;
}

export async function bookingDocuments(db: DbOrTx, bookingId: string) {
  return db
    .select({
      id: documents.id,
      name: documents.originalName,
      contentType: documents.contentType,
      sizeBytes: documents.sizeBytes,
      status: documents.status,
      scanStatus: documents.scanStatus,
      storedAt: documents.storedAt,
    })
    .from(documents)
    .where(and(eq(documents.bookingId, bookingId), ne(documents.status, 'pending')))
    .orderBy(asc(documents.createdAt));
}

export async function bookingHistory(db: DbOrTx, bookingId: string) {
  const actor = aliasedTable(staffUsers, 'actor');
  return db
    .select({
      id: auditLog.id,
      action: auditLog.action,
      actorType: auditLog.actorType,
      actorName: actor.name,
      actorEmail: actor.email,
      data: auditLog.data,
      createdAt: auditLog.createdAt,
    })
    .from(auditLog)
    .leftJoin(actor, sql`${auditLog.actorType} = 'staff' and ${actor.id}::text = ${auditLog.actorId}`)
    .where(and(eq(auditLog.entityType, 'booking'), eq(auditLog.entityId, bookingId)))
    .orderBy(asc(auditLog.id));
}

export async function documentForDownload(db: DbOrTx, documentId: string) {
  const [row] = await db
    .select({
      id: documents.id,
      bookingId: documents.bookingId,
      name: documents.originalName,
      contentType: documents.contentType,
      storageKey: documents.storageKey,
      status: documents.status,
      scanStatus: documents.scanStatus,
      notaryId: bookings.notaryId,
    })
    .from(documents)
    .innerJoin(bookings, eq(bookings.id, documents.bookingId))
    .where(eq(documents.id, documentId));
  return row;
}

export async function listMessages(db: DbOrTx, show: 'open' | 'handled' | 'all') {
  const handler = aliasedTable(staffUsers, 'handler');
  return db
    .select({
      id: contactMessages.id,
      kind: contactMessages.kind,
      name: contactMessages.name,
      email: contactMessages.email,
      phone: contactMessages.phone,
      company: contactMessages.company,
      interest: contactMessages.interest,
      message: contactMessages.message,
      createdAt: contactMessages.createdAt,
      handledAt: contactMessages.handledAt,
      handledByName: handler.name,
      handledByEmail: handler.email,
    })
    .from(contactMessages)
    .leftJoin(handler, eq(handler.id, contactMessages.handledBy))
    .where(show === 'open' ? isNull(contactMessages.handledAt) : show === 'handled' ? isNotNull(contactMessages.handledAt) : undefined)
    .orderBy(desc(contactMessages.createdAt))
    .limit(200);
}
