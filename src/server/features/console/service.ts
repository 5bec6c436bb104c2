import { priceLines } from '../../../shared/pricing.ts';
import { bookedParticipants } from '../participants/fee-service.ts';
import { namesByPayment } from '../participants/service.ts';
import { signerPayments } from '../payments/service.ts';
import type { BookingStatus } from '../../../shared/booking.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import { authorise, staffMay } from '../access/service.ts';
import { writeAudit } from '../audit.ts';
import { actChanged, actStage } from '../act/service.ts';
import { identityProofingStatus } from '../identity/service.ts';
import { currentPaymentOf, lockBooking, moveBooking, paymentView } from '../booking/service.ts';
import { cancelWithRefund } from '../cancellation/service.ts';
import { bookingHasSealedDocument } from '../notarial-act/sealed-service.ts';
import { refundBookingPayment } from '../payments/service.ts';
import { actMessages } from '../../../shared/notarial-act.ts';
import { findSessionBooking } from '../session/room-service.ts';
import { sessionStateOf } from '../session/view-service.ts';
import { finishSession } from '../session/lifecycle-service.ts';
import { listRecordings } from '../session/recording-service.ts';
import type { SessionOutcome } from '../../../shared/session.ts';
import { onBookingRescheduled, onNotaryAssigned } from '../notifications/events.ts';
import type { StaffIdentity } from '../staff/session.ts';
import { addDays, dayBounds, localDateOf, parseIsoDate, toIsoDate } from '../../../shared/time.ts';
import { bookingPageSize, outcomeTooEarlyMessage, pastAppointmentsPageSize, type BookingListInput } from '../../../shared/console.ts';
import { cancellableStatuses, paidStatuses } from '../../../shared/booking.ts';
import * as repo from './repository.ts';
import { DomainError } from '../../errors.ts';

const bookingNotFound = () => new DomainError('NOT_FOUND', 'Booking not found');
const notAssigned = () => new DomainError('FORBIDDEN', 'This appointment is not assigned to you.');

/** Booked (or once booked) appointments: what a notary may be assigned to and see. */
const appointmentStatuses: BookingStatus[] = [...paidStatuses, 'payment_processing'];

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
  const { rows, next } = await repo.pageBookings(
    deps.db,
    {
      from: day?.start,
      to: day?.end,
      statuses: status === 'active' || status === 'all' ? undefined : [status],
      excludeStatuses: status === 'active' ? ['draft'] : undefined,
      search: input.q || undefined,
    },
    input.after ? parseCursor(input.after) : null,
    deps.now(),
    bookingPageSize,
  );
  return {
    items: rows.map((row) => ({ ...listItem(row), notary: notaryOf(row) })),
    /** The next page's `after`, or null on the last page. */
    next: next && `${next.run}_${next.atMicros}_${next.id}`,
  };
}

/**
 * A notary's own appointments before today (their zone), most recent first, a
 * page at a time (the bookings list's keyset, decision 080): the day's list
 * no longer shows them, and the act's records stay reachable.
 */
export async function listPastAppointments(deps: Deps, staff: StaffIdentity, input: { after?: string | null }) {
  const today = localDateOf(deps.now(), staff.user.timeZone);
  const { start } = dayBounds(today, staff.user.timeZone);
  const { rows, next } = await repo.pageBookings(
    deps.db,
    { to: start, notaryId: staff.user.id, statuses: appointmentStatuses },
    input.after ? parseCursor(input.after) : null,
    deps.now(),
    pastAppointmentsPageSize,
  );
  const stages = await Promise.all(rows.map((row) => actStage(deps.db, row.id)));
  return {
    timeZone: staff.user.timeZone,
    appointments: rows.map((row, index) => ({ ...listItem(row), actStage: stages[index]!.stage })),
    next: next && `${next.run}_${next.atMicros}_${next.id}`,
  };
}

/** `run_micros_id` (the input schema checked its shape). */
function parseCursor(after: string): repo.BookingCursor {
  const [run, atMicros, id] = after.split('_') as [repo.BookingRun, string, string];
  return { run, atMicros, id };
}

/** One row of a booking list, as the bookings page and a notary's appointments show it. */
function listItem(row: Awaited<ReturnType<typeof repo.listBookings>>[number]) {
  return {
    id: row.id,
    reference: row.reference,
    status: row.status,
    startsAt: row.startsAt,
    timeZone: row.timeZone,
    customer: customerOf(row),
    documentCount: Number(row.documentCount),
  };
}

/**
 * A notary's own appointments from the start of today (their zone) on, and
 * the earlier ones still awaiting an outcome, each with its session state.
 */
export async function listAppointments(deps: Deps, staff: StaffIdentity) {
  const today = localDateOf(deps.now(), staff.user.timeZone);
  const { start } = dayBounds(today, staff.user.timeZone);
  const [upcoming, awaiting] = await Promise.all([
    repo.listBookings(deps.db, { from: start, notaryId: staff.user.id, statuses: appointmentStatuses }),
    repo.listBookings(deps.db, { to: start, notaryId: staff.user.id, statuses: ['confirmed'] }),
  ]);
  const rows = [...awaiting, ...upcoming];
  // Soonest first: "today and upcoming" reads top to bottom.
  rows.sort((a, b) => (a.startsAt?.getTime() ?? 0) - (b.startsAt?.getTime() ?? 0));
  const tomorrow = toIsoDate(addDays(parseIsoDate(today), 1));
  const sessions = await Promise.all(
    rows.map(async (row) => {
      const [session, recordings] = await Promise.all([findSessionBooking(deps.db, row.id), listRecordings(deps.db, row.id)]);
      return {
        state: session ? sessionStateOf(session, recordings.some((r) => r.status === 'stored')) : ('waiting' as const),
        isNew: session !== null && session.notaryAssignedAt !== null && session.notarySeenAt === null,
      };
    }),
  );
  return {
    today,
    tomorrow,
    timeZone: staff.user.timeZone,
    appointments: rows.map((row, index) => ({
      ...listItem(row),
      sessionState: sessions[index]!.state,
      isNew: sessions[index]!.isNew,
      awaitingOutcome: row.status === 'confirmed' && row.startsAt !== null && row.startsAt.getTime() < deps.now().getTime(),
    })),
  };
}

/** The console's badge for a notary: appointments assigned to them that they have not opened yet. */
export async function newAppointmentCount(deps: Deps, staff: StaffIdentity): Promise<number> {
  return repo.countNewAppointments(deps.db, staff.user.id);
}

async function loadBookingFor(deps: Deps, staff: StaffIdentity, bookingId: string) {
  const row = await repo.findBooking(deps.db, bookingId);
  if (!row) throw bookingNotFound();
  if (!staffMay(staff.user, 'view', row.notaryId)) throw notAssigned();
  return row;
}

/** What staff see of the booking's current payment. */
async function staffPaymentOf(db: DbOrTx, bookingId: string) {
  const row = await currentPaymentOf(db, bookingId);
  return row && { ...paymentView(row), refundedCents: row.refundedCents };
}

export async function getBooking(deps: Deps, staff: StaffIdentity, bookingId: string) {
  const row = await loadBookingFor(deps, staff, bookingId);
  const [documents, payment, history, session, recordings, sealed, act, proofing] = await Promise.all([
    repo.bookingDocuments(deps.db, bookingId),
    staffPaymentOf(deps.db, bookingId),
    staff.user.role === 'notary' ? Promise.resolve([]) : repo.bookingHistory(deps.db, bookingId),
    findSessionBooking(deps.db, bookingId),
    listRecordings(deps.db, bookingId),
    bookingHasSealedDocument(deps.db, bookingId),
    actStage(deps.db, bookingId),
    identityProofingStatus(deps, bookingId),
  ]);
  // The price line by line and the co-signers' fees paid later (decision 125).
  const people = await bookedParticipants(deps.db, bookingId);
  const names = await namesByPayment(deps.db, bookingId);
  const fees = (await signerPayments(deps.db, bookingId)).map((fee) => ({ ...fee, name: names.get(fee.paymentId) ?? null }));
  // The notary opened a newly assigned appointment: it is no longer "new".
  if (staff.user.role === 'notary' && row.notarySeenAt === null) await repo.markNotarySeen(deps.db, bookingId, deps.now());
  const stored = recordings.filter((r) => r.status === 'stored');
  const started = row.startsAt !== null && row.startsAt.getTime() <= deps.now().getTime();
  return {
    id: row.id,
    reference: row.reference,
    status: row.status,
    startsAt: row.startsAt,
    customerTimeZone: row.timeZone,
    staffTimeZone: staff.user.timeZone,
    priceCents: row.priceCents,
    priceLines: priceLines(row.priceCents, people),
    signerPayments: fees,
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
    session: {
      state: session ? sessionStateOf(session, stored.length > 0) : 'waiting',
      outcome: session?.outcome ?? null,
      /** The act's stage, as the room shows it (decision 073). */
      actStage: act.stage,
      /** The signer's identity proofing as a status only (the ID's details are for the notary and admins, decision 085). */
      identity: {
        credentialAnalysis: proofing.credentialAnalysis.done,
        kba: proofing.kba.status,
        notaryConfirmed: proofing.notaryConfirmation.done,
      },
      outcomeReason: session?.outcomeReason ?? null,
      /** Recordings play for admins and the booking's notary only (decision 031). */
      recordings: !staffMay(staff.user, 'play_recording', row.notaryId) ? [] : stored.map((r) => ({ id: r.id, startedAt: r.startedAt, sizeBytes: r.sizeBytes })),
      canStart: staffMay(staff.user, 'record', row.notaryId) && row.status === 'confirmed',
    },
    /** Once a document is sealed the act stands: no cancelling (issue 24, finding 5). */
    canCancel: cancellableStatuses.includes(row.status) && !sealed,
    notarized: sealed,
    /** Admins may refund what is left of a captured payment, with a reason, whatever the booking's status. */
    canRefund: staff.user.role === 'admin' && !!payment && payment.amountCents - payment.refundedCents > 0 && (payment.status === 'succeeded' || payment.status === 'partially_refunded'),
  };
}

export async function assignNotary(deps: Deps, staff: StaffIdentity, input: { bookingId: string; notaryId: string | null }) {
  await deps.db.transaction(async (tx) => {
    const booking = await repo.bookingStatusAndNotary(tx, input.bookingId, { forUpdate: true });
    if (!booking) throw bookingNotFound();
    if (booking.status === 'cancelled') throw new DomainError('BAD_REQUEST', 'This booking is cancelled.');
    if (input.notaryId) {
      const user = await repo.findActiveNotary(tx, input.notaryId);
      if (!user) throw new DomainError('BAD_REQUEST', 'Choose an active notary.');
      // The notary hears about a new assignment by email, and sees it marked new in the console.
      if (booking.notaryId !== input.notaryId) await onNotaryAssigned(tx, deps, { bookingId: input.bookingId, notaryEmail: user.email, notaryName: user.name });
    }
    const changed = booking.notaryId !== input.notaryId;
    await repo.setBookingNotary(tx, input.bookingId, { notaryId: input.notaryId, updatedAt: deps.now(), ...(changed ? { notaryAssignedAt: input.notaryId ? deps.now() : null, notarySeenAt: null } : {}) });
    await writeAudit(tx, {
      actorType: 'staff',
      actorId: staff.user.id,
      action: input.notaryId ? 'booking.notary_assigned' : 'booking.notary_unassigned',
      entityType: 'booking',
      entityId: input.bookingId,
      data: { from: booking.notaryId, to: input.notaryId },
    });
  });
  // After the commit: a notary no longer assigned loses the room (features/session/socket.ts re-checks).
  actChanged(deps, input.bookingId, 'access');
}

/**
 * Completed / no-show / not completed from the console: the same rules as
 * finishing in the room (session/lifecycle-service.finishSession): completing needs a
 * stored recording, a no-show needs the start time to have passed.
 */
export async function markOutcome(deps: Deps, staff: StaffIdentity, input: { bookingId: string; outcome: SessionOutcome; reason?: string }) {
  const row = await repo.findBooking(deps.db, input.bookingId);
  if (!row) throw bookingNotFound();
  if (!staffMay(staff.user, 'finish', row.notaryId)) throw notAssigned();
  if (!row.startsAt || row.startsAt.getTime() > deps.now().getTime()) throw new DomainError('BAD_REQUEST', outcomeTooEarlyMessage);
  try {
    await finishSession(deps, { staffId: staff.user.id, role: staff.user.role }, input);
  } catch (error) {
    // The console's form answers a refusal of the room's rules as a bad request, not a conflict.
    if (error instanceof DomainError && error.code === 'CONFLICT') throw new DomainError('BAD_REQUEST', error.message, { cause: error });
    throw error;
  }
}

/**
 * Staff move a confirmed booking to another free time for the customer: the
 * booking service's move (slot lock, capacity, bookable grid; no 24-hour
 * cutoff, which binds only customers), audited as staff, customer emailed.
 */
export async function rescheduleBooking(deps: Deps, staff: StaffIdentity, input: { bookingId: string; startsAt: Date }) {
  await deps.db.transaction(async (tx) => {
    await authorise(deps, { staff }, 'reschedule', { bookingId: input.bookingId }, { db: tx });
    const moved = await moveBooking(tx, deps, { bookingId: input.bookingId, startsAt: input.startsAt, actor: { actorType: 'staff', actorId: staff.user.id } });
    if (moved.previousStartsAt && moved.previousStartsAt.getTime() !== moved.startsAt.getTime()) {
      await onBookingRescheduled(tx, deps, { bookingId: input.bookingId, previousStartsAt: moved.previousStartsAt, by: 'staff' });
    }
  });
}

/**
 * Staff cancellation in one transaction: cancel (frees the slot, checks the
 * status under the booking service's locks), refund what was paid, tell the
 * customer. A failed refund rolls the cancellation back; the refund's
 * idempotency key means a retry never refunds twice.
 */
export async function cancelBooking(deps: Deps, staff: StaffIdentity, input: { bookingId: string; reason: string }) {
  const result = await deps.db.transaction(async (tx) => {
    const booking = await repo.bookingStatusAndNotary(tx, input.bookingId);
    if (!booking) throw bookingNotFound();
    // A staff cancellation refunds: both are the policy's to allow.
    if (!staffMay(staff.user, 'cancel', booking.notaryId) || !staffMay(staff.user, 'refund', booking.notaryId)) throw new DomainError('FORBIDDEN', 'You do not have access to this.');
    if (!cancellableStatuses.includes(booking.status)) {
      throw new DomainError('BAD_REQUEST', booking.status === 'cancelled' ? 'This booking is already cancelled.' : 'This booking can no longer be cancelled.',);
    }
    const { alreadyCancelled, refundedCents } = await cancelWithRefund(tx, deps, {
      bookingId: input.bookingId,
      reason: input.reason,
      by: 'staff',
      actorId: staff.user.id,
      refund: true,
    });
    if (alreadyCancelled) throw new DomainError('BAD_REQUEST', 'This booking is already cancelled.');
    return { refundedCents };
  });
  actChanged(deps, input.bookingId, 'access');
  return result;
}

/**
 * An admin refunds what is left of the payment, with a reason, without
 * cancelling: the booking and any notarial act stand. The reason is in the
 * booking's history. Under the booking's lock; the refund's idempotency key
 * makes a retry safe, and a second refund finds nothing left.
 */
export async function refundBooking(deps: Deps, staff: StaffIdentity, input: { bookingId: string; reason: string }) {
  if (staff.user.role !== 'admin') throw new DomainError('FORBIDDEN', 'Only admins can refund without cancelling.');
  const reason = input.reason.trim();
  if (reason.length < 3) throw new DomainError('BAD_REQUEST', actMessages.refundReasonRequired);
  return deps.db.transaction(async (tx) => {
    const row = await lockBooking(tx, input.bookingId);
    if (!row) throw bookingNotFound();
    const { refundedCents } = await refundBookingPayment(tx, deps, { bookingId: row.id, reason: 'admin refund' });
    if (refundedCents === 0) throw new DomainError('CONFLICT', actMessages.nothingToRefund);
    await writeAudit(tx, { actorType: 'staff', actorId: staff.user.id, action: 'booking.refunded', entityType: 'booking', entityId: row.id, data: { reason, refundedCents } });
    return { refundedCents };
  });
}

/** A document with what a staff download needs to decide (status, scan, the booking's notary). */
export function findDocumentForDownload(db: DbOrTx, documentId: string) {
  return repo.documentForDownload(db, documentId);
}

export async function listMessages(deps: Deps, show: 'open' | 'handled' | 'all') {
  const rows = await repo.listMessages(deps.db, show);
  return rows.map(({ handledByName, handledByEmail, ...row }) => ({ ...row, handledBy: handledByName || handledByEmail || null }));
}

export async function markMessageHandled(deps: Deps, staff: StaffIdentity, messageId: string) {
  if (!(await repo.markMessageHandled(deps.db, messageId, staff.user.id, deps.now()))) {
    if (!(await repo.messageExists(deps.db, messageId))) throw new DomainError('NOT_FOUND', 'Message not found');
  }
}

