import { TRPCError } from '@trpc/server';
import { isBeforeCutoff, manageMessages, type ManageBookingView } from '../../../shared/manage-booking.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { findBooking, lockBookingRow } from '../booking/repository.ts';
import type { Deps } from '../../deps.ts';
import { cancelBookingRecord, findBookingIdByManageToken, getBookingView, moveBooking } from '../booking/service.ts';
import { onBookingCancelled, onBookingRescheduled } from '../notifications/events.ts';
import { refundBookingPayment } from '../payments/service.ts';
import { latestPaymentWithRefund } from './repository.ts';

/**
 * The customer's own booking, reached only through the private manage link
 * (the token's SHA-256 is all the database holds). Every rule about what the
 * customer may still change lives here; the page only shows it.
 */
const notFound = () => new TRPCError({ code: 'NOT_FOUND', message: manageMessages.notFound });

export async function bookingIdForToken(db: DbOrTx, token: string): Promise<string> {
  const id = await findBookingIdByManageToken(db, token);
  if (!id) throw notFound();
  return id;
}

type Payment = Awaited<ReturnType<typeof latestPaymentWithRefund>>;

/** What the customer may still do, from the booking's state and the clock. */
function policy(booking: { status: string; startsAt: Date | null }, payment: Payment, now: Date) {
  const active = booking.status === 'confirmed' || booking.status === 'payment_processing';
  const beforeCutoff = active && !!booking.startsAt && isBeforeCutoff(booking.startsAt, now);
  const refundable = payment?.status === 'succeeded' ? payment.amountCents - payment.refundedCents : 0;
  return {
    beforeCutoff,
    refundOnCancelCents: beforeCutoff ? Math.max(0, refundable) : 0,
    canReschedule: booking.status === 'confirmed' && beforeCutoff,
    canCancel: active && !!booking.startsAt && booking.startsAt.getTime() > now.getTime(),
  };
}

export async function getManageView(deps: Deps, db: DbOrTx, token: string): Promise<ManageBookingView> {
  const id = await bookingIdForToken(db, token);
  const view = await getBookingView(db, id);
  if (!view) throw notFound();
  const payment = await latestPaymentWithRefund(db, id);
  return {
    id: view.id,
    reference: view.reference,
    status: view.status,
    startsAt: view.startsAt,
    timeZone: view.timeZone,
    // A document that failed the virus scan is never handed out.
    documents: view.documents.filter((d) => d.scanStatus !== 'infected').map((d) => ({ id: d.id, name: d.name, sizeBytes: d.sizeBytes, contentType: d.contentType })),
    contact: view.contact,
    payment,
    ...policy(view, payment, deps.now()),
  };
}

/**
 * Inside a change. Cancelling locks the booking row first, so two presses
 * cannot both refund; moving leaves the locking to `moveBooking`, which takes
 * the slot lock before the row (taking them in the other order here could
 * deadlock against a staff move of the same booking).
 */
async function policyInTx(tx: Tx, deps: Deps, token: string, lock: boolean) {
  const id = await bookingIdForToken(tx, token);
  const row = lock ? await lockBookingRow(tx, id) : await findBooking(tx, id);
  if (!row) throw notFound();
  const payment = await latestPaymentWithRefund(tx, id);
  return { id, status: row.status, startsAt: row.startsAt, ...policy(row, payment, deps.now()) };
}

/** Moves a confirmed appointment to another free slot; nothing more to pay. */
export async function rescheduleByCustomer(deps: Deps, input: { token: string; startsAt: Date }): Promise<ManageBookingView> {
  await deps.db.transaction(async (tx) => {
    const view = await policyInTx(tx, deps, input.token, false);
    if (view.status !== 'confirmed') throw new TRPCError({ code: 'CONFLICT', message: manageMessages.notChangeable });
    if (!view.canReschedule) throw new TRPCError({ code: 'CONFLICT', message: manageMessages.tooLateToMove });
    if (!isBeforeCutoff(input.startsAt, deps.now())) throw new TRPCError({ code: 'BAD_REQUEST', message: manageMessages.newTimeTooSoon });
    const moved = await moveBooking(tx, deps, { bookingId: view.id, startsAt: input.startsAt });
    if (moved.previousStartsAt && moved.previousStartsAt.getTime() !== moved.startsAt.getTime()) {
      await onBookingRescheduled(tx, deps, { bookingId: view.id, previousStartsAt: moved.previousStartsAt, by: 'customer' });
    }
  });
  return getManageView(deps, deps.db, input.token);
}

/**
 * Cancels. More than 24 hours ahead the payment is refunded in full through
 * the provider, inside the same transaction: if the provider refuses, nothing
 * is cancelled and the customer can try again (the refund's idempotency key
 * makes a retry safe).
 */
export async function cancelByCustomer(deps: Deps, input: { token: string }): Promise<ManageBookingView> {
  await deps.db.transaction(async (tx) => {
    const view = await policyInTx(tx, deps, input.token, true);
    if (!view.canCancel) throw new TRPCError({ code: 'CONFLICT', message: manageMessages.notChangeable });
    const refundDue = view.beforeCutoff;
    const record = await cancelBookingRecord(tx, deps, { bookingId: view.id, reason: refundDue ? 'Cancelled by the customer (refunded)' : 'Cancelled by the customer within 24 hours', by: 'customer' });
    if (record.alreadyCancelled) return;
    const refund = refundDue ? await refundBookingPayment(tx, deps, { bookingId: view.id, reason: 'customer cancellation' }) : { refundedCents: 0 };
    await onBookingCancelled(tx, deps, { bookingId: view.id, refundedCents: refund.refundedCents, by: 'customer' });
  });
  return getManageView(deps, deps.db, input.token);
}
