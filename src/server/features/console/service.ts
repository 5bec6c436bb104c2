import { and, eq, isNull } from 'drizzle-orm';
import { bookings, contactMessages, staffUsers, type BookingStatus } from '../../db/schema.ts';
import type { Deps } from '../../deps.ts';
import { TRPCError } from '../../trpc.ts';
import { writeAudit } from '../audit.ts';
import { cancelBookingRecord, markBookingOutcome } from '../booking/service.ts';
import { onBookingCancelled } from '../notifications/events.ts';
import { refundBookingPayment } from '../payments/service.ts';
import type { StaffIdentity } from '../staff/session.ts';
import { addDays, dayBounds, localDateOf, parseIsoDate, toIsoDate } from '../../../shared/time.ts';
import { outcomeTooEarlyMessage, type BookingListInput } from '../../../shared/console.ts';
import * as repo from './repository.ts';

const bookingNotFound = () => new TRPCError({ code: 'NOT_FOUND', message: 'Booking not found' });
const notAssigned = () => new TRPCError({ code: 'FORBIDDEN', message: 'This appointment is not assigned to you.' });

/** Booked (or once booked) appointments: what a notary may be assigned to and see. */
const cancellableStatuses: BookingStatus[] = ['held', 'awaiting_payment', 'payment_processing', 'confirmed'];
const appointmentStatuses: BookingStatus[] = ['confirmed', 'completed', 'no_show', 'payment_processing'];

function customerOf(row: { customerFirstName: string | null; customerLastName: string | null; customerEmail: string | null; customerPhone: string | null }) {
  if (row.customerFirstName === null) return null;
  return {
    name: `${row.customerFirstName} ${row.customerLastName ?? ''}`.trim(),
    email: row.customerEmail ?? '',
    phone: row.customerPhone,
  };
}

function notaryOf(row: { notaryId: string | null; notaryName: string | null; notaryEmail: string | null }) {
  return row.notaryId ? { id: row.notaryId, name: row.notaryName || row.notaryEmail || '', email: row.notaryEmail ?? '' } : null;
}

export async function listBookings(deps: Deps, staff: StaffIdentity, input: BookingListInput) {
  const status = input.status ?? 'active';
  const day = input.day ? dayBounds(input.day, staff.user.timeZone) : undefined;
  const rows = await repo.listBookings(
    deps.db,
    {
      from: day?.start,
      to: day?.end,
      statuses: status === 'active' || status === 'all' ? undefined : [status],
      excludeStatuses: status === 'active' ? ['draft'] : undefined,
      search: input.q || undefined,
    },
    deps.now(),
  );
  return rows.map((row) => ({
    id: row.id,
    reference: row.reference,
    status: row.status,
    startsAt: row.startsAt,
    timeZone: row.timeZone,
    customer: customerOf(row),
    notary: notaryOf(row),
    documentCount: Number(row.documentCount),
  }));
}

/** A notary's own appointments from the start of today (their zone) on. */
export async function listAppointments(deps: Deps, staff: StaffIdentity) {
  const today = localDateOf(deps.now(), staff.user.timeZone);
  const { start } = dayBounds(today, staff.user.timeZone);
  const rows = await repo.listBookings(deps.db, { from: start, notaryId: staff.user.id, statuses: appointmentStatuses }, deps.now());
  // Soonest first: "today and upcoming" reads top to bottom.
  rows.sort((a, b) => (a.startsAt?.getTime() ?? 0) - (b.startsAt?.getTime() ?? 0));
  const tomorrow = toIsoDate(addDays(parseIsoDate(today), 1));
  return {
    today,
    tomorrow,
    timeZone: staff.user.timeZone,
    appointments: rows.map((row) => ({
      id: row.id,
      reference: row.reference,
      status: row.status,
      startsAt: row.startsAt,
      timeZone: row.timeZone,
      customer: customerOf(row),
      documentCount: Number(row.documentCount),
    })),
  };
}

async function loadBookingFor(deps: Deps, staff: StaffIdentity, bookingId: string) {
  const row = await repo.findBooking(deps.db, bookingId);
  if (!row) throw bookingNotFound();
  if (staff.user.role === 'notary' && row.notaryId !== staff.user.id) throw notAssigned();
  return row;
}

export async function getBooking(deps: Deps, staff: StaffIdentity, bookingId: string) {
  const row = await loadBookingFor(deps, staff, bookingId);
  const [documents, payment, history] = await Promise.all([
    repo.bookingDocuments(deps.db, bookingId),
    repo.latestPayment(deps.db, bookingId),
    staff.user.role === 'notary' ? Promise.resolve([]) : repo.bookingHistory(deps.db, bookingId),
  ]);
  const started = row.startsAt !== null && row.startsAt.getTime() <= deps.now().getTime();
  return {
    id: row.id,
    reference: row.reference,
    status: row.status,
    startsAt: row.startsAt,
    customerTimeZone: row.timeZone,
    staffTimeZone: staff.user.timeZone,
    priceCents: row.priceCents,
    currency: row.currency,
    createdAt: row.createdAt,
    confirmedAt: row.confirmedAt,
    cancelledAt: row.cancelledAt,
    cancellationReason: row.cancellationReason,
    customer: customerOf(row),
    notary: notaryOf(row),
    documents: documents.map((d) => ({
      id: d.id,
      name: d.name,
      contentType: d.contentType,
      sizeBytes: d.sizeBytes,
      downloadable: d.status === 'stored' && d.scanStatus !== 'infected',
      status: d.status,
    })),
    payment,
    history: history.map((h) => ({
      id: h.id,
      action: h.action,
      actor: h.actorType === 'staff' ? h.actorName || h.actorEmail || 'Staff' : h.actorType,
      data: h.data as Record<string, unknown> | null,
      createdAt: h.createdAt,
    })),
    canMarkOutcome: row.status === 'confirmed' && started,
    canCancel: cancellableStatuses.includes(row.status),
  };
}

export async function assignNotary(deps: Deps, staff: StaffIdentity, input: { bookingId: string; notaryId: string | null }) {
  await deps.db.transaction(async (tx) => {
    const [booking] = await tx.select({ status: bookings.status, notaryId: bookings.notaryId }).from(bookings).where(eq(bookings.id, input.bookingId)).for('update');
    if (!booking) throw bookingNotFound();
    if (booking.status === 'cancelled') throw new TRPCError({ code: 'BAD_REQUEST', message: 'This booking is cancelled.' });
    if (input.notaryId) {
      const [user] = await tx
        .select({ id: staffUsers.id })
        .from(staffUsers)
        .where(and(eq(staffUsers.id, input.notaryId), eq(staffUsers.role, 'notary'), eq(staffUsers.active, true)));
      if (!user) throw new TRPCError({ code: 'BAD_REQUEST', message: 'Choose an active notary.' });
    }
    await tx.update(bookings).set({ notaryId: input.notaryId, updatedAt: deps.now() }).where(eq(bookings.id, input.bookingId));
    await writeAudit(tx, {
      actorType: 'staff',
      actorId: staff.user.id,
      action: input.notaryId ? 'booking.notary_assigned' : 'booking.notary_unassigned',
      entityType: 'booking',
      entityId: input.bookingId,
      data: { from: booking.notaryId, to: input.notaryId },
    });
  });
}

/** Completed / no-show: only for a confirmed booking whose start time has passed. */
export async function markOutcome(deps: Deps, staff: StaffIdentity, input: { bookingId: string; outcome: 'completed' | 'no_show' }) {
  await deps.db.transaction(async (tx) => {
    // No row lock here: the booking service takes its locks in its documented order and re-checks the status.
    const [booking] = await tx
      .select({ status: bookings.status, startsAt: bookings.startsAt, notaryId: bookings.notaryId })
      .from(bookings)
      .where(eq(bookings.id, input.bookingId));
    if (!booking) throw bookingNotFound();
    if (staff.user.role === 'notary' && booking.notaryId !== staff.user.id) throw notAssigned();
    if (booking.status !== 'confirmed') throw new TRPCError({ code: 'BAD_REQUEST', message: 'Only a confirmed booking can be marked.' });
    if (!booking.startsAt || booking.startsAt.getTime() > deps.now().getTime()) {
      throw new TRPCError({ code: 'BAD_REQUEST', message: outcomeTooEarlyMessage });
    }
    await markBookingOutcome(tx, deps, { bookingId: input.bookingId, outcome: input.outcome, staffId: staff.user.id });
  });
}

/**
 * Staff cancellation in one transaction: cancel (frees the slot, checks the
 * status under the booking service's locks), refund what was paid, tell the
 * customer. A failed refund rolls the cancellation back; the refund's
 * idempotency key means a retry never refunds twice.
 */
export async function cancelBooking(deps: Deps, staff: StaffIdentity, input: { bookingId: string; reason: string }) {
  return deps.db.transaction(async (tx) => {
    const [booking] = await tx.select({ status: bookings.status }).from(bookings).where(eq(bookings.id, input.bookingId));
    if (!booking) throw bookingNotFound();
    if (!cancellableStatuses.includes(booking.status)) {
      throw new TRPCError({
        code: 'BAD_REQUEST',
        message: booking.status === 'cancelled' ? 'This booking is already cancelled.' : 'This booking can no longer be cancelled.',
      });
    }
    const { alreadyCancelled } = await cancelBookingRecord(tx, deps, { bookingId: input.bookingId, reason: input.reason, by: 'staff', actorId: staff.user.id });
    if (alreadyCancelled) throw new TRPCError({ code: 'BAD_REQUEST', message: 'This booking is already cancelled.' });
    const { refundedCents } = await refundBookingPayment(tx, deps, { bookingId: input.bookingId, reason: input.reason });
    await onBookingCancelled(tx, deps, { bookingId: input.bookingId, refundedCents, by: 'staff' });
    return { refundedCents };
  });
}

export async function listMessages(deps: Deps, show: 'open' | 'handled' | 'all') {
  const rows = await repo.listMessages(deps.db, show);
  return rows.map(({ handledByName, handledByEmail, ...row }) => ({ ...row, handledBy: handledByName || handledByEmail || null }));
}

export async function markMessageHandled(deps: Deps, staff: StaffIdentity, messageId: string) {
  const updated = await deps.db
    .update(contactMessages)
    .set({ handledAt: deps.now(), handledBy: staff.user.id })
    .where(and(eq(contactMessages.id, messageId), isNull(contactMessages.handledAt)))
    .returning({ id: contactMessages.id });
  if (updated.length === 0) {
    const [exists] = await deps.db.select({ id: contactMessages.id }).from(contactMessages).where(eq(contactMessages.id, messageId));
    if (!exists) throw new TRPCError({ code: 'NOT_FOUND', message: 'Message not found' });
  }
}

