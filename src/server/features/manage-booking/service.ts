import { standingStatuses, type BookingStatus } from '../../../shared/booking.ts';
import { roomIsOpen, roomOpensMs } from '../../../shared/session.ts';
import { actStage } from '../act/service.ts';
import { isBeforeCutoff, manageMessages, type ManageBookingView } from '../../../shared/manage-booking.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import { authorise } from '../access/service.ts';
import type { AccessAction } from '../../../shared/access.ts';
import { currentPaymentOf, findBooking, getBookingView, lockBookingRow, moveBooking } from '../booking/service.ts';
import { cancelWithRefund } from '../cancellation/service.ts';
import { lineEntry } from '../booking/on-demand-service.ts';
import { onBookingRescheduled } from '../notifications/events.ts';
import { DomainError } from '../../errors.ts';
import { signerPayments } from '../payments/service.ts';
import { namesByPayment } from '../participants/service.ts';
import type { SignerPaymentView } from '../../../shared/participants.ts';
import { actChanged } from '../act/service.ts';

/**
 * The customer's own booking, reached only through a private customer link
 * (features/customer-links; who may do what: features/access). Every rule
 * about what the customer may still change lives here; the page only shows it.
 */
const notFound = () => new DomainError('NOT_FOUND', manageMessages.notFound);

async function bookingIdForToken(deps: Deps, db: DbOrTx, token: string, action: AccessAction): Promise<string> {
  return (await authorise(deps, { token }, action, {}, { db })).bookingId;
}

type Payment = ManageBookingView['payment'];

/** What the customer sees of the current payment (with refunds). */
async function paymentOf(db: DbOrTx, bookingId: string): Promise<Payment> {
  const row = await currentPaymentOf(db, bookingId);
  return row && { amountCents: row.amountCents, refundedCents: row.refundedCents, currency: row.currency, status: row.status, method: row.method };
}

/** The co-signers' fees paid from the booking page, each named after its signer (decision 125). */
async function signerPaymentsOf(db: DbOrTx, bookingId: string): Promise<SignerPaymentView[]> {
  const [rows, names] = [await signerPayments(db, bookingId), await namesByPayment(db, bookingId)];
  return rows.map((row) => ({ ...row, name: names.get(row.paymentId) ?? null }));
}

const refundableOf = (p: { status: string; amountCents: number; refundedCents: number } | null) => (p?.status === 'succeeded' ? p.amountCents - p.refundedCents : 0);

/** What the customer may still do, from the booking's state and the clock; a cancellation refunds every payment (decision 125). */
function policy(booking: { status: BookingStatus; startsAt: Date | null }, payment: Payment, now: Date, fees: readonly SignerPaymentView[] = []) {
  const active = standingStatuses.includes(booking.status);
  const beforeCutoff = active && !!booking.startsAt && isBeforeCutoff(booking.startsAt, now);
  const refundable = refundableOf(payment) + fees.reduce((sum, fee) => sum + refundableOf(fee), 0);
  return {
    beforeCutoff,
    refundOnCancelCents: beforeCutoff ? Math.max(0, refundable) : 0,
    canReschedule: booking.status === 'confirmed' && beforeCutoff,
    canCancel: active && !!booking.startsAt && booking.startsAt.getTime() > now.getTime(),
  };
}

/** A paid Notarize now booking not yet served: in line, or timed out (it may then take a scheduled time). */
async function onDemandState(db: DbOrTx, booking: { id: string; kind: 'scheduled' | 'on_demand'; status: BookingStatus; startsAt: Date | null }): Promise<ManageBookingView['onDemand']> {
  if (booking.kind !== 'on_demand' || booking.status !== 'confirmed' || booking.startsAt) return null;
  const entry = await lineEntry(db, booking.id);
  if (entry?.status === 'timed_out') return 'timed_out';
  return entry && ['waiting', 'away', 'accepted'].includes(entry.status) ? 'in_line' : null;
}

export async function getManageView(deps: Deps, db: DbOrTx, token: string): Promise<ManageBookingView> {
  const id = await bookingIdForToken(deps, db, token, 'view');
  const view = await getBookingView(db, id);
  if (!view) throw notFound();
  const [payment, act] = await Promise.all([paymentOf(db, id), actStage(db, id)]);
  const fees = await signerPaymentsOf(db, id);
  const onDemand = await onDemandState(db, view);
  const rules = policy(view, payment, deps.now(), fees);
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
    priceLines: view.priceLines,
    signerPayments: fees,
    ...rules,
    canReschedule: rules.canReschedule || onDemand === 'timed_out',
    // In line: the session page is the lobby, open now.
    canJoinSession: onDemand === 'in_line' || roomIsOpen(view, false, deps.now()),
    sessionOpensAt: onDemand === 'in_line' ? deps.now() : view.status === 'confirmed' && view.startsAt ? new Date(view.startsAt.getTime() - roomOpensMs) : null,
    onDemand,
    actStage: act.stage,
  };
}

/**
 * Inside a change. Cancelling locks the booking row first, so two presses
 * cannot both refund; moving leaves the locking to `moveBooking`, which takes
 * the slot lock before the row (taking them in the other order here could
 * deadlock against a staff move of the same booking).
 */
async function policyInTx(tx: Tx, deps: Deps, token: string, lock: boolean) {
  const id = await bookingIdForToken(deps, tx, token, lock ? 'cancel' : 'reschedule');
  const row = lock ? await lockBookingRow(tx, id) : await findBooking(tx, id);
  if (!row) throw notFound();
  const payment = await paymentOf(tx, id);
  const rules = policy(row, payment, deps.now(), await signerPaymentsOf(tx, id));
  // A Notarize now customer nobody served in time may take a scheduled time instead (decision 110).
  const timedOut = (await onDemandState(tx, row)) === 'timed_out';
  return { id, status: row.status, startsAt: row.startsAt, ...rules, canReschedule: rules.canReschedule || timedOut };
}

/** Moves a confirmed appointment to another free slot; nothing more to pay. */
export async function rescheduleByCustomer(deps: Deps, input: { token: string; startsAt: Date }): Promise<ManageBookingView> {
  await deps.db.transaction(async (tx) => {
    const view = await policyInTx(tx, deps, input.token, false);
    if (view.status !== 'confirmed') throw new DomainError('CONFLICT', manageMessages.notChangeable);
    if (!view.canReschedule) throw new DomainError('CONFLICT', manageMessages.tooLateToMove);
    if (!isBeforeCutoff(input.startsAt, deps.now())) throw new DomainError('BAD_REQUEST', manageMessages.newTimeTooSoon);
    const moved = await moveBooking(tx, deps, { bookingId: view.id, startsAt: input.startsAt });
    // From a time to another, or from Notarize now (no time) to a scheduled one.
    if (moved.previousStartsAt?.getTime() !== moved.startsAt.getTime()) {
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
    if (!view.canCancel) throw new DomainError('CONFLICT', manageMessages.notChangeable);
    const refund = view.beforeCutoff;
    await cancelWithRefund(tx, deps, {
      bookingId: view.id,
      reason: refund ? 'Cancelled by the customer (refunded)' : 'Cancelled by the customer within 24 hours',
      by: 'customer',
      refund,
      refundReason: 'customer cancellation',
    });
  });
  // After the commit: anyone in the booking's room is checked again (features/session/socket.ts).
  actChanged(deps, (await authorise(deps, { token: input.token }, 'view')).bookingId, 'access');
  return getManageView(deps, deps.db, input.token);
}

/** The manage link's per-address rule: the page, its procedures, downloads and the session room share it. */
export { manageRate } from '../customer-links/service.ts';
