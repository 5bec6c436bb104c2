import { randomBytes } from 'node:crypto';
import type { DbOrTx, Tx } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import { DomainError } from '../../errors.ts';
import { hashToken } from '../../tokens.ts';
import { writeAudit } from '../audit.ts';
import { actChanged } from '../act/service.ts';
import { authorise } from '../access/service.ts';
import { onParticipantInvited } from '../notifications/events.ts';
import { maxAddedParticipants, participantMessages, type BookedParticipant, type ParticipantDetails, type SignerPaymentSetup } from '../../../shared/participants.ts';
import { feeFor, lockForAdding } from './service.ts';
import * as repo from './repository.ts';

/**
 * Co-signers and witnesses added while booking, and the extra signer's fee
 * (issue 29; docs/decisions/125-extra-signer-fee.md). This feature keeps the
 * people; the booking (its lock, its price) and payments (the money) call in,
 * never the other way round.
 *
 * - In the wizard (before paying) a person is a `pending` row without a link;
 *   their fee (BOOKING_EXTRA_SIGNER_FEE_CENTS for a co-signer, nothing for a
 *   witness) is part of the booking's price. When the booking is confirmed
 *   they get their link and their invitation, in the payment's transaction.
 * - From the booking page with a fee above zero, the person is `pending` with
 *   a payment of their own (purpose 'signer'); only that payment's success adds
 *   and invites them. A success for someone who can no longer be added (the
 *   session started, the booking was cancelled, the room is full, a newer
 *   attempt replaced theirs) is refunded at once by payments.
 */

const newToken = () => randomBytes(32).toString('base64url');
/** A pending row's token hash: of a value nobody is ever given (the column is unique and required). */
const unissuedTokenHash = () => hashToken(`unissued:${newToken()}`);

function booked(row: repo.ParticipantRow): BookedParticipant {
  return { id: row.id, role: row.role, name: row.name, email: row.email, phone: row.phone, feeCents: row.feeCents };
}

/** The people added with the booking and paid for with it (pending until it is confirmed, then invited). */
export async function bookedParticipants(db: DbOrTx, bookingId: string): Promise<BookedParticipant[]> {
  return (await repo.listParticipants(db, bookingId)).filter((p) => p.paymentId === null).map(booked);
}

/** The fees of those not yet paid for, which the booking's price includes (booking service `recomputePrice`). */
export async function bookedParticipantFees(db: DbOrTx, bookingId: string): Promise<number[]> {
  return (await repo.listParticipants(db, bookingId)).filter((p) => p.status === 'pending' && p.paymentId === null).map((p) => p.feeCents);
}

/**
 * The wizard's "Add a signer", inside the booking service's transaction (the
 * booking locked and still editable): at most three besides the customer, one
 * per email address (the customer's own included).
 */
export async function addPendingToBooking(tx: Tx, deps: Pick<Deps, 'config'>, booking: { id: string; customerEmail: string | null }, details: ParticipantDetails): Promise<{ id: string; feeCents: number }> {
  const email = details.email.toLowerCase();
  const pending = (await repo.listParticipants(tx, booking.id)).filter((p) => p.status === 'pending');
  if (pending.length >= maxAddedParticipants) throw new DomainError('PRECONDITION_FAILED', participantMessages.tooMany);
  if (pending.some((p) => p.email.toLowerCase() === email) || booking.customerEmail?.toLowerCase() === email) throw new DomainError('CONFLICT', participantMessages.duplicateEmail);
  const feeCents = feeFor(deps, details.role);
  const added = await repo.insertParticipant(tx, { bookingId: booking.id, role: details.role, name: details.name, email, phone: details.phone, tokenHash: unissuedTokenHash(), feeCents, createdBy: 'customer', status: 'pending' });
  return { id: added.id, feeCents };
}

/** The wizard's "Remove" (the booking locked and editable): the row goes, nobody was ever invited. */
export async function removePendingFromBooking(tx: Tx, bookingId: string, participantId: string): Promise<void> {
  const person = await repo.findParticipant(tx, participantId);
  if (!person || person.bookingId !== bookingId || person.status !== 'pending' || person.paymentId !== null) throw new DomainError('NOT_FOUND', participantMessages.notInSession);
  await repo.deleteParticipant(tx, participantId);
}

/** Gives a pending person their link and queues "You've been invited to sign" (in the caller's transaction). */
async function invite(tx: Tx, deps: Deps, person: repo.ParticipantRow): Promise<void> {
  const raw = newToken();
  await repo.updateParticipant(tx, person.id, { status: 'invited', tokenHash: hashToken(raw) });
  await writeAudit(tx, { actorType: 'customer', action: 'participant.added', entityType: 'booking', entityId: person.bookingId, data: { participantId: person.id, role: person.role, feeCents: person.feeCents } });
  await onParticipantInvited(tx, deps, { bookingId: person.bookingId, participantId: person.id, name: person.name, email: person.email, role: person.role, token: raw });
}

/** The booking was paid (booking service `confirmBooking`): everyone added in the wizard is invited now. */
export async function inviteBookedParticipants(tx: Tx, deps: Deps, bookingId: string): Promise<void> {
  for (const person of await repo.listParticipants(tx, bookingId)) {
    if (person.status === 'pending' && person.paymentId === null) await invite(tx, deps, person);
  }
}

/** The booking of a customer link that may add people (every signer-payment call starts here). */
export async function bookingForAdding(deps: Deps, token: string): Promise<string> {
  return (await authorise(deps, { token }, 'add_participant')).bookingId;
}

export type CreateSignerPayment = (tx: Tx, input: { bookingId: string; reference: string; participantId: string; amountCents: number }) => Promise<SignerPaymentSetup & { paymentId: string }>;

/**
 * From the booking page, a co-signer whose fee is above zero: checked like a
 * free addition (confirmed, before the session, room left, a new address),
 * then a pending row and a payment of their own, created by payments through
 * `createPayment`. An earlier attempt still unpaid is set aside (its payment,
 * should it still succeed, is refunded).
 */
export async function startPaidAddition(deps: Deps, token: string, details: ParticipantDetails, createPayment: CreateSignerPayment): Promise<SignerPaymentSetup> {
  const bookingId = await bookingForAdding(deps, token);
  const email = details.email.toLowerCase();
  const feeCents = feeFor(deps, details.role);
  if (feeCents === 0) throw new DomainError('BAD_REQUEST', participantMessages.noFee);
  return deps.db.transaction(async (tx) => {
    const booking = await lockForAdding(tx, bookingId, email);
    for (const earlier of await repo.listParticipants(tx, bookingId)) {
      if (earlier.status === 'pending' && earlier.paymentId !== null) {
        await repo.updateParticipant(tx, earlier.id, { status: 'removed', removedAt: deps.now(), removedReason: participantMessages.paymentNotCompleted });
      }
    }
    const row = await repo.insertParticipant(tx, { bookingId, role: details.role, name: details.name, email, phone: details.phone, tokenHash: unissuedTokenHash(), feeCents, createdBy: 'customer', status: 'pending' });
    const { paymentId, ...setup } = await createPayment(tx, { bookingId, reference: booking.reference, participantId: row.id, amountCents: feeCents });
    await repo.updateParticipant(tx, row.id, { paymentId });
    await writeAudit(tx, { actorType: 'customer', action: 'participant.payment_started', entityType: 'booking', entityId: bookingId, data: { participantId: row.id, feeCents } });
    return setup;
  });
}

/**
 * A co-signer's fee succeeded (payments `applyIntentUpdate`, under the
 * booking's lock): they are added and invited if they still can be. Otherwise
 * the answer says why, they stay out, and payments refunds the money.
 */
export async function signerPaymentSucceeded(tx: Tx, deps: Deps, payment: { id: string; bookingId: string; amountCents: number }): Promise<{ refund: string | null }> {
  const person = await repo.findParticipantByPayment(tx, payment.id);
  if (person?.status === 'invited' || person?.status === 'joined') return { refund: null }; // a repeat of the same success
  if (!person || person.status !== 'pending') return { refund: 'no longer waiting for this payment' };
  const booking = await repo.lockBookingForParticipants(tx, payment.bookingId);
  const active = await repo.activeParticipants(tx, payment.bookingId);
  const why =
    payment.amountCents < person.feeCents
      ? 'paid less than the fee'
      : booking?.status !== 'confirmed'
        ? 'booking not confirmed'
        : booking.startedAt || booking.finishedAt
          ? 'session started'
          : active.length >= maxAddedParticipants
            ? 'session full'
            : active.some((p) => p.email.toLowerCase() === person.email.toLowerCase())
              ? 'already invited'
              : null;
  if (why) {
    await repo.updateParticipant(tx, person.id, { status: 'removed', removedAt: deps.now(), removedReason: participantMessages.paymentRefunded });
    await writeAudit(tx, { actorType: 'system', action: 'participant.not_added', entityType: 'booking', entityId: payment.bookingId, data: { participantId: person.id, why } });
    return { refund: why };
  }
  await invite(tx, deps, person);
  actChanged(deps, payment.bookingId);
  return { refund: null };
}
