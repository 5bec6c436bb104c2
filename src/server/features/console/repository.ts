import { aliasedTable, and, asc, desc, eq, gte, inArray, isNotNull, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm';
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

export async function listBookings(db: DbOrTx, filter: BookingListFilter, now: Date, limit = 200) {
  const conditions: SQL[] = [];
  if (filter.from) conditions.push(gte(bookings.startsAt, filter.from));
  if (filter.to) conditions.push(lt(bookings.startsAt, filter.to));
  if (filter.statuses) conditions.push(inArray(bookings.status, [...filter.statuses]));
  if (filter.excludeStatuses?.length) conditions.push(sql`${bookings.status} not in ${[...filter.excludeStatuses]}`);
  if (filter.notaryId) conditions.push(eq(bookings.notaryId, filter.notaryId));
  if (filter.search) {
    const pattern = `%${escapeLike(filter.search)}%`;
    conditions.push(
      or(
        sql`${bookings.reference} ilike ${pattern}`,
        sql`${customers.email} ilike ${pattern}`,
        sql`(${customers.firstName} || ' ' || ${customers.lastName}) ilike ${pattern}`,
      )!,
    );
  }
  const nowIso = now.toISOString();
  return db
    .select({
      ...bookingColumns,
      documentCount: sql<number>`(select count(*)::int from ${documents} where ${documents.bookingId} = ${bookings.id} and ${documents.status} = 'stored')`,
    })
    .from(bookings)
    .leftJoin(customers, eq(customers.id, bookings.customerId))
    .leftJoin(notary, eq(notary.id, bookings.notaryId))
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(
      // Upcoming first (soonest first), then past (most recent first), undated last.
      sql`case when ${bookings.startsAt} >= ${nowIso}::timestamptz then 0 when ${bookings.startsAt} is not null then 1 else 2 end`,
      sql`case when ${bookings.startsAt} >= ${nowIso}::timestamptz then ${bookings.startsAt} end asc`,
      desc(bookings.startsAt),
      desc(bookings.createdAt),
    )
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
