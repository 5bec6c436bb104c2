import { aliasedTable, and, asc, desc, eq, gte, inArray, isNotNull, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm';
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
 * A search is answered one of two ways (decisions 080, 115, 131):
 * - narrow (a reference, an email): one statement finds the ids of every
 *   match (`searchIdCap` at most) by the search indexes and sorts those
 *   bookings into the console's order itself (a thousand rows at most);
 * - broad ("smith", or more than `searchIdCap` matches found after all): each
 *   run's index walked in order with the match as a filter, which fills a page
 *   after a few dozen rows per match.
 * Which one: a search shaped like an address or a reference (`narrowByShape`)
 * goes narrow at once; any other asks the planner's estimate of its matches
 * (an EXPLAIN, no rows read). Without the estimate one way would be slow for
 * the other kind: the ids of thousands of matches cost tens of ms, a walk
 * looking for one match reads the whole table.
 */
const searchIdCap = 1000;

function searchPattern(search: string): string {
  return `%${escapeLike(search)}%`;
}

function matchesSearch(pattern: string): SQL {
  return sql`(${bookings.reference} ilike ${pattern} or ${customers.email} ilike ${pattern}
    or (${customers.firstName} || ' ' || ${customers.lastName}) ilike ${pattern})`;
}

/**
 * The customers whose email contains the search. A search with one `@` and
 * at least three characters before it (`jane.doe@exa`) can only match an
 * address whose local part ends with those characters (an address has one
 * `@`, `isMailSafeEmail`): found by prefix on the reversed local part (a
 * btree), where the trigram index would read the posting lists of trigrams
 * every address shares (`com`, `gma`…). Otherwise the trigram index.
 */
function emailMatches(search: string, pattern: string): SQL {
  const at = search.indexOf('@');
  if (at !== search.lastIndexOf('@')) return sql`false`;
  if (at < 3) return sql`c.email ilike ${pattern}`;
  const reversedLocal = [...search.slice(0, at).toLowerCase()].reverse().join('');
  // strpos, not ilike: the planner would add the trigram index to the btree's answer.
  return sql`(reverse(split_part(lower(c.email), '@', 1)) like ${`${escapeLike(reversedLocal)}%`} and strpos(lower(c.email), ${search.toLowerCase()}) > 0)`;
}

/** Every reference starts with it, and it occurs nowhere else in one (the code has no `O` and no `-`: `newReference`). */
const referencePrefix = 'NOTARY-';

/**
 * The bookings whose reference contains the search. A search that starts with
 * the references' common prefix (`NOTARY-7K3M`, a whole reference pasted) can
 * only match at the start: its code (`7K3M`) is looked up by trigram, the
 * prefix checked after — the prefix's own trigrams are in every reference, and
 * the index would read their posting lists whole (200 buffers at 100k against
 * 16). A code under three characters has no trigram: the pattern as it is.
 */
function referenceMatches(search: string, pattern: string): SQL {
  const code = search.slice(referencePrefix.length);
  if (!search.toUpperCase().startsWith(referencePrefix) || code.length < 3) return sql`b.reference ilike ${pattern}`;
  // strpos, not ilike: the planner would add the prefix's trigrams back into the index scan.
  return sql`(b.reference ilike ${searchPattern(code)} and strpos(upper(b.reference), ${search.toUpperCase()}) = 1)`;
}

/**
 * A search that can only match a few bookings, by its shape alone: an address
 * (one `@`, three characters or more before it: `emailMatches`), or one word
 * of four characters or more with a digit in it (a reference or part of one,
 * the number in an address) — digits are rare in names and their trigrams
 * rare in addresses. Such a search skips the planner's estimate (a round trip
 * and a plan: about a third of a narrow search's time at 100k bookings); if it
 * matches more than `searchIdCap` after all, the narrow statement says so and
 * the walk answers.
 */
export function narrowByShape(search: string): boolean {
  const at = search.indexOf('@');
  if (at >= 3 && at === search.lastIndexOf('@')) return true;
  return search.length >= 4 && !/\s/.test(search) && /\d/.test(search);
}

/** Every booking a search matches, each side by its own index. `union all` streams: the limit stops it early. */
export function matchingIds(search: string): SQL {
  const pattern = searchPattern(search);
  return sql`select b.id from ${bookings} b where ${referenceMatches(search, pattern)}
    union all
    select b.id from ${customers} c join ${bookings} b on b.customer_id = c.id
      where ${emailMatches(search, pattern)} or (c.first_name || ' ' || c.last_name) ilike ${pattern}
    limit ${searchIdCap + 1}`;
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

/** A listed booking: its who-and-when, its key in its run and its stored documents. */
const selectedBookingColumns = {
  ...bookingColumns,
  /** The row's key in its run, in microseconds since 1970 (timestamptz's own precision: a Date would drop the last three digits). */
  keyMicros: sql<string>`(extract(epoch from coalesce(${bookings.startsAt}, ${bookings.createdAt})) * 1000000)::bigint::text`,
  documentCount: sql<number>`(select count(*)::int from ${documents} where ${documents.bookingId} = ${bookings.id} and ${documents.status} = 'stored')`,
};

function selectBookingRows(db: DbOrTx) {
  return db
    .select(selectedBookingColumns)
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
  const runs = bookingRuns
    .slice(after ? bookingRuns.indexOf(after.run) : 0)
    // A day's filter leaves nothing undated.
    .filter((run) => run !== 'undated' || !(filter.from || filter.to));
  let rows: RunRow[] = [];
  let broad = false;
  if (filter.search) {
    const narrow = await narrowSearchRows(db, filter.search, conditions, runs, after, now, pageSize + 1);
    if (narrow) rows = narrow;
    else broad = true;
  }
  if (!filter.search || broad) {
    for (const run of runs) {
      if (rows.length > pageSize) break;
      const inRun = [...conditions, runCondition(run, now, after)];
      if (broad) inRun.push(matchesSearch(searchPattern(filter.search!)));
      const found = await queryRun(db, inRun, run, pageSize + 1 - rows.length);
      rows.push(...found.map((row) => ({ ...row, run })));
    }
  }
  const page = rows.slice(0, pageSize);
  const last = page.at(-1);
  const next: BookingCursor | null = rows.length > pageSize && last ? { run: last.run, atMicros: last.keyMicros, id: last.id } : null;
  return { rows: page, next };
}

type RunRow = Awaited<ReturnType<typeof queryRun>>[number] & { run: BookingRun };

/**
 * A narrow search's page in one statement: the matches' ids (a CTE, by the
 * search indexes), their bookings in the console's order (the runs one after
 * another, each in its own order) after the cursor. Null when the search is
 * broad: estimated, or found, to match more than `searchIdCap`.
 */
async function narrowSearchRows(
  db: DbOrTx,
  search: string,
  conditions: SQL[],
  runs: BookingRun[],
  after: BookingCursor | null,
  now: Date,
  limit: number,
): Promise<RunRow[] | null> {
  if (!narrowByShape(search)) {
    const [plan] = await queryRows<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(db, sql`explain (format json) ${matchingIds(search)}`);
    if ((plan?.['QUERY PLAN'][0].Plan['Plan Rows'] ?? 0) > searchIdCap) return null;
  }
  const matches = db.$with('search_matches', { id: sql<string>`id` }).as(matchingIds(search));
  const nowIso = now.toISOString();
  const rank = sql`(case when ${bookings.startsAt} is null then 2 when ${bookings.startsAt} >= ${nowIso}::timestamptz then 0 else 1 end)`;
  const found = await db
    .with(matches)
    .select({
      ...selectedBookingColumns,
      rank: sql<number>`${rank}::int`,
      matchCount: sql<number>`(select count(*)::int from search_matches)`,
    })
    .from(bookings)
    .leftJoin(customers, eq(customers.id, bookings.customerId))
    .leftJoin(notary, eq(notary.id, bookings.notaryId))
    .where(and(sql`${bookings.id} in (select id from search_matches)`, ...conditions, or(...runs.map((run) => runCondition(run, now, after)))))
    .orderBy(
      rank,
      sql`case when ${rank} = 0 then ${bookings.startsAt} end`,
      sql`case when ${rank} = 1 then ${bookings.startsAt} end desc`,
      sql`case when ${rank} = 2 then ${bookings.createdAt} end desc`,
      sql`case when ${rank} = 0 then ${bookings.id} end`,
      sql`case when ${rank} <> 0 then ${bookings.id} end desc`,
    )
    .limit(limit);
  // An empty page says nothing of the count: ask for it (a narrow search that found nothing here).
  const matchCount = found.length
    ? Number(found[0]!.matchCount)
    : Number((await queryRows<{ n: number }>(db, sql`select count(*)::int as n from (${matchingIds(search)}) m`))[0]?.n ?? 0);
  if (matchCount > searchIdCap) return null;
  return found.map(({ rank: r, matchCount: _count, ...row }) => ({ ...row, run: bookingRuns[Number(r)]! }));
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

/** Appointments assigned to a notary, confirmed, that they have not opened yet. */
export async function countNewAppointments(db: DbOrTx, notaryId: string): Promise<number> {
  const rows = await db
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(eq(bookings.notaryId, notaryId), eq(bookings.status, 'confirmed'), isNotNull(bookings.notaryAssignedAt), isNull(bookings.notarySeenAt)));
  return rows.length;
}

/** The assigned notary opened the appointment: no longer marked new. */
export async function markNotarySeen(db: DbOrTx, bookingId: string, now: Date): Promise<void> {
  await db.update(bookings).set({ notarySeenAt: now }).where(eq(bookings.id, bookingId));
}

/** A booking's status and notary; `forUpdate` locks its row for the transaction. */
export async function bookingStatusAndNotary(db: DbOrTx, bookingId: string, options: { forUpdate?: boolean } = {}) {
  const query = db.select({ status: bookings.status, notaryId: bookings.notaryId }).from(bookings).where(eq(bookings.id, bookingId));
  const [booking] = options.forUpdate ? await query.for('update') : await query;
  return booking;
}

/** An active notary's account, for an assignment. */
export async function findActiveNotary(db: DbOrTx, notaryId: string) {
  const [user] = await db
    .select({ id: staffUsers.id, email: staffUsers.email, name: staffUsers.name })
    .from(staffUsers)
    .where(and(eq(staffUsers.id, notaryId), eq(staffUsers.role, 'notary'), eq(staffUsers.active, true)));
  return user;
}

export async function setBookingNotary(
  db: DbOrTx,
  bookingId: string,
  patch: Pick<typeof bookings.$inferInsert, 'notaryId' | 'updatedAt' | 'notaryAssignedAt' | 'notarySeenAt'>,
): Promise<void> {
  await db.update(bookings).set(patch).where(eq(bookings.id, bookingId));
}

/** Marks an open message handled; false when it was already handled or does not exist. */
export async function markMessageHandled(db: DbOrTx, messageId: string, staffId: string, now: Date): Promise<boolean> {
  const updated = await db
    .update(contactMessages)
    .set({ handledAt: now, handledBy: staffId })
    .where(and(eq(contactMessages.id, messageId), isNull(contactMessages.handledAt)))
    .returning({ id: contactMessages.id });
  return updated.length > 0;
}

export async function messageExists(db: DbOrTx, messageId: string): Promise<boolean> {
  const [exists] = await db.select({ id: contactMessages.id }).from(contactMessages).where(eq(contactMessages.id, messageId));
  return !!exists;
}
