import { aliasedTable, and, asc, desc, eq, isNotNull, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
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
 * A value in a statement: inline (a parameter), or a named placeholder of a
 * statement built once per shape and kept (`kept`), its value
 * collected for the call.
 */
type Bind = (name: string, value: string) => unknown;
const inline: Bind = (_name, value) => value;

/**
 * The console's search (decision 135): any part of a booking's reference, its
 * customer's name (`first last`) or address, case-insensitively, `%` and `_`
 * as text. Every booking carries those three lowercased in `search_text`, kept
 * by triggers (migration 0022) and read by one trigram index, so a search is a
 * condition on `bookings` alone, with no customer looked up per row
 * (`searchCondition`); how a page is read: `pageBookings`.
 */
function searchPattern(search: string): string {
  return `%${escapeLike(search)}%`;
}

/** Between a booking's fields in `search_text`: no field holds a control character (`isSingleLine`, `isMailSafeEmail`). */
const searchSeparator = '\x1f';

/** Every reference starts with it, and it occurs nowhere else in one (the code has no `O` and no `-`: `newReference`). */
const referencePrefix = 'NOTARY-';

/**
 * How a search is matched, which also sets the text of its statement:
 * - `nothing`: it holds the separator, which no field holds (so no search can join two fields);
 * - `address`: one `@` with three characters or more before it (`addressCondition`);
 * - `reference`: a whole reference pasted (`NOTARY-7K3M…`): its code by trigram, the whole
 *   search checked after (the prefix's own trigrams are in every booking's text: the index
 *   would read their posting lists whole, decision 131);
 * - `text`: any other, by trigram.
 */
function searchKind(search: string): 'nothing' | 'address' | 'reference' | 'text' {
  if (search.includes(searchSeparator)) return 'nothing';
  const at = search.indexOf('@');
  if (at >= 3 && at === search.lastIndexOf('@')) return 'address';
  if (search.toUpperCase().startsWith(referencePrefix) && search.length - referencePrefix.length >= 3) return 'reference';
  return 'text';
}

/** The bookings a search matches, as a condition on `bookings` (the console's search, above). */
export function searchCondition(search: string, bind: Bind = inline): SQL {
  switch (searchKind(search)) {
    case 'nothing':
      return sql`false`;
    case 'address':
      return addressCondition(search, bind);
    case 'reference':
      // strpos, not like: the planner would add the prefix's trigrams back into the scan.
      return sql`(${bookings.searchText} like lower(${bind('pattern', searchPattern(search.slice(referencePrefix.length)))}) and strpos(${bookings.searchText}, lower(${bind('search', search)})) > 0)`;
    case 'text':
      return sql`${bookings.searchText} like lower(${bind('pattern', searchPattern(search))})`;
  }
}

/**
 * A search with one `@` and at least three characters before it (`jane.doe@exa`)
 * matches no reference (none has an `@`) and an address only if the address's
 * local part ends with those characters (an address has one `@`:
 * `isMailSafeEmail`): found by prefix on the reversed local part (a btree,
 * decision 115), where the trigram index would read the posting lists of
 * trigrams every address shares (`com`, `gma`…). A name holding an `@` is
 * found by a partial index of those few. `strpos`, not `like`: the whole search
 * checked on the handful found.
 */
function addressCondition(search: string, bind: Bind): SQL {
  const reversedLocal = [...search.slice(0, search.indexOf('@')).toLowerCase()].reverse().join('');
  // `= any(array(…))`, not `in (…)`: the planner costs the array as a handful of customers and reads their
  // bookings by `bookings_customer_idx`; with `in` it trusted its estimate of the `strpos` checks (a tenth of
  // all customers) and walked a run's index through every booking (0.5 s at 100k).
  return sql`${bookings.customerId} = any(array(select c.id from ${customers} c
    where (reverse(split_part(lower(c.email), '@', 1)) like ${bind('reversedLocal', `${escapeLike(reversedLocal)}%`)} and strpos(lower(c.email), lower(${bind('search', search)})) > 0)
       or (strpos(c.first_name || ' ' || c.last_name, '@') > 0 and strpos(lower(c.first_name || ' ' || c.last_name), lower(${bind('search', search)})) > 0)))`;
}

function bookingConditions(filter: BookingListFilter, bind: Bind = inline): SQL[] {
  const conditions: SQL[] = [];
  const list = (name: string, values: readonly string[]) => sql.join(values.map((value, i) => sql`${bind(`${name}${i}`, value)}`), sql`, `);
  if (filter.from) conditions.push(sql`${bookings.startsAt} >= ${bind('from', filter.from.toISOString())}::timestamptz`);
  if (filter.to) conditions.push(sql`${bookings.startsAt} < ${bind('to', filter.to.toISOString())}::timestamptz`);
  if (filter.statuses) conditions.push(filter.statuses.length ? sql`${bookings.status} in (${list('status', filter.statuses)})` : sql`false`);
  if (filter.excludeStatuses?.length) conditions.push(sql`${bookings.status} not in (${list('excluded', filter.excludeStatuses)})`);
  if (filter.notaryId) conditions.push(sql`${bookings.notaryId} = ${bind('notaryId', filter.notaryId)}::uuid`);
  return conditions;
}

/** A listed booking: its who-and-when, its key in its run and its stored documents. */
const selectedBookingColumns = {
  ...bookingColumns,
  /** The row's key in its run, in microseconds since 1970 (timestamptz's own precision: a Date would drop the last three digits). */
  keyMicros: sql<string>`(extract(epoch from coalesce(${bookings.startsAt}, ${bookings.createdAt})) * 1000000)::bigint::text`,
  documentCount: sql<number>`(select count(*)::int from ${documents} where ${documents.bookingId} = ${bookings.id} and ${documents.status} = 'stored')`,
};

function selectBookingRows<Extra extends Record<string, SQL.Aliased | SQL>>(db: DbOrTx, extra?: Extra) {
  return db
    .select({ ...selectedBookingColumns, ...(extra as Extra) })
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

function runCondition(run: BookingRun, now: Date, after: BookingCursor | null, bind: Bind = inline): SQL {
  const nowIso = bind('now', now.toISOString());
  const at = after && after.run === run ? sql`(timestamptz 'epoch' + ${bind('afterMicros', after.atMicros)}::bigint * interval '1 microsecond')` : null;
  switch (run) {
    case 'upcoming':
      return at
        ? sql`${bookings.startsAt} >= ${nowIso}::timestamptz and (${bookings.startsAt}, ${bookings.id}) > (${at}, ${bind('afterId', after!.id)}::uuid)`
        : sql`${bookings.startsAt} >= ${nowIso}::timestamptz`;
    case 'past':
      return at
        ? sql`${bookings.startsAt} < ${nowIso}::timestamptz and (${bookings.startsAt}, ${bookings.id}) < (${at}, ${bind('afterId', after!.id)}::uuid)`
        : sql`${bookings.startsAt} < ${nowIso}::timestamptz`;
    case 'undated':
      return at
        ? sql`${bookings.startsAt} is null and (${bookings.createdAt}, ${bookings.id}) < (${at}, ${bind('afterId', after!.id)}::uuid)`
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
 * than the page to tell whether another page follows. Run by run, each run one
 * query along its index; a search narrow by its shape in one sorted statement
 * instead (`sortedMatches`).
 */
export async function pageBookings(db: DbOrTx, filter: BookingListFilter, after: BookingCursor | null, now: Date, pageSize: number) {
  const runs = bookingRuns
    .slice(after ? bookingRuns.indexOf(after.run) : 0)
    // A day's filter leaves nothing undated.
    .filter((run) => run !== 'undated' || !(filter.from || filter.to));
  const rows: RunRow[] = [];
  if (filter.search && narrowByShape(filter.search)) rows.push(...(await sortedMatches(db, filter, runs, after, now, pageSize + 1)));
  else {
    for (const run of runs) {
      if (rows.length > pageSize) break;
      const found = await runRows(db, filter, run, now, after, pageSize + 1 - rows.length);
      rows.push(...found.map((row) => ({ ...row, run })));
    }
  }
  const page = rows.slice(0, pageSize);
  const last = page.at(-1);
  const next: BookingCursor | null = rows.length > pageSize && last ? { run: last.run, atMicros: last.keyMicros, id: last.id } : null;
  return { rows: page, next };
}

type RunRow = Awaited<ReturnType<typeof runRows>>[number] & { run: BookingRun };

/**
 * A search that can only match a few bookings, by its shape alone: an address
 * (one `@`, three characters or more before it: `addressCondition`), or one
 * word of four characters or more with a digit in it (a reference or part of
 * one, the number in an address) — digits are rare in names and their
 * trigrams rare in addresses (decision 131).
 */
export function narrowByShape(search: string): boolean {
  const at = search.indexOf('@');
  if (at >= 3 && at === search.lastIndexOf('@')) return true;
  return search.length >= 4 && !/\s/.test(search) && /\d/.test(search);
}

/**
 * A narrow search's page in one statement (decision 135): its matches, read by
 * their index, sorted into the console's order in SQL — the runs one after
 * another (`case` rank: upcoming, past, undated), each in its own order, ids
 * breaking ties — after the cursor. Any other search reads run by run, each
 * run one query whose plan (a walk of the run's index with the match as a
 * filter, or the matches by the trigram index) the planner chooses by its own
 * estimate. A narrow-shaped search that matches thousands after all is still
 * answered right, at the cost of reading its matches (~20 ms for 5,000 at
 * 100k bookings).
 */
async function sortedMatches(db: DbOrTx, filter: BookingListFilter, runs: BookingRun[], after: BookingCursor | null, now: Date, limit: number) {
  if (!runs.length) return [];
  const { values, bind } = placeholders();
  const conditions = [...bookingConditions(filter, bind), searchCondition(filter.search!, bind), or(...runs.map((run) => runCondition(run, now, after, bind)))];
  const statement = kept(db, ['sorted', runs, searchKind(filter.search!), Object.keys(values), filter.statuses?.length ?? null, limit], () => {
    const now = sql.placeholder('now');
    const rank = sql`(case when ${bookings.startsAt} is null then 2 when ${bookings.startsAt} >= ${now}::timestamptz then 0 else 1 end)`;
    return selectBookingRows(db, { rank: sql<number>`${rank}::int` })
      .where(and(...conditions))
      .orderBy(
        rank,
        sql`case when ${rank} = 0 then ${bookings.startsAt} end`,
        sql`case when ${rank} = 1 then ${bookings.startsAt} end desc`,
        sql`case when ${rank} = 2 then ${bookings.createdAt} end desc`,
        sql`case when ${rank} = 0 then ${bookings.id} end`,
        sql`case when ${rank} <> 0 then ${bookings.id} end desc`,
      )
      .limit(limit)
      .prepare(unnamed);
  });
  const found = await statement.execute(values);
  return found.map(({ rank: r, ...row }) => ({ ...row, run: bookingRuns[Number(r)]! }));
}

/** One run's rows after the cursor, along its index (the search, if any, a condition). */
function runRows(db: DbOrTx, filter: BookingListFilter, run: BookingRun, now: Date, after: BookingCursor | null, limit: number) {
  const { values, bind } = placeholders();
  const conditions = [...bookingConditions(filter, bind), ...(filter.search ? [searchCondition(filter.search, bind)] : []), runCondition(run, now, after, bind)];
  const statement = kept(db, ['run', run, filter.search === undefined ? null : searchKind(filter.search), Object.keys(values), filter.statuses?.length ?? null], () =>
    selectBookingRows(db)
      .where(and(...conditions))
      .orderBy(...runOrder(run))
      .limit(sql.placeholder('limit'))
      .prepare(unnamed),
  );
  return statement.execute({ ...values, limit });
}

/** A statement's values as named placeholders, collected for the call (`Bind`). */
function placeholders() {
  const values: Record<string, string> = {};
  const bind: Bind = (name, value) => ((values[name] = value), sql.placeholder(name));
  return { values, bind };
}

/**
 * The console's page statements are built with Drizzle once per shape and kept
 * per database (decision 135): building one on every call cost about as much
 * as PostgreSQL planning it. The shape is all that changes the text: the kind
 * of statement and its run(s), the kind of search (`searchKind`: one that
 * matches nothing binds no value), the number of statuses, and the values
 * bound, which say which filters and whether a cursor it has.
 */
const keptStatements = new WeakMap<DbOrTx, Map<string, unknown>>();

function kept<T>(db: DbOrTx, shape: unknown[], build: () => T): T {
  let statements = keptStatements.get(db);
  if (!statements) keptStatements.set(db, (statements = new Map()));
  const key = JSON.stringify(shape);
  if (!statements.has(key)) statements.set(key, build());
  return statements.get(key) as T;
}

/** Unnamed: PostgreSQL plans each call with its values, as an unprepared query; a generic plan would cost a `like` blind (decision 131). */
const unnamed = undefined as unknown as string;


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
