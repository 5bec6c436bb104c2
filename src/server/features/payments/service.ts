import {
  bookingLockedMessage,
  bookingNotFoundMessage,
  holdExpiredMessage,
  infectedDocumentsMessage,
  hasDocumentToNotarize,
  isPaid,
  type BookingView,
} from '../../../shared/booking.ts';
import type { CardFields, ConfirmTestCardInput, PaymentAttempt, PaymentReceipt, PaymentSetup } from '../../../shared/payments.ts';
import type { ProviderEvent, RetrievedIntent } from '../../adapters/payments/types.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import type { RateRule } from '../../rate-limit.ts';
import type { Deps } from '../../deps.ts';
import { writeAudit } from '../audit.ts';
import {
  confirmBooking,
  currentPaymentOf,
  getBookingView,
  lockBooking,
  markPaymentFailed,
  markPaymentProcessing,
  paymentView,
} from '../booking/service.ts';
import { assertSomeoneOnDuty } from '../booking/on-demand-service.ts';
import { bookingForAdding, signerPaymentSucceeded, startPaidAddition } from '../participants/fee-service.ts';
import type { ParticipantDetails, SignerPaymentSetup, SignerPaymentView, SignerTestCardInput } from '../../../shared/participants.ts';
import * as repo from './repository.ts';
import type { PaymentRow } from './repository.ts';
import { DomainError } from '../../errors.ts';

export type { PaymentRow } from './repository.ts';

/**
 * Payments for bookings. The amount always comes from the booking on the
 * server; the browser only says which booking. Whatever tells us about a
 * payment — Stripe's webhook, a retrieve after the Payment Element returns, or
 * the test provider's card check — goes through `applyIntentUpdate`, the one
 * path that moves the payment row and confirms the booking.
 */

/** Card attempts per visitor address (every card form, the booking's and a signer's fee): enough for typos, too few for card testing. */
export const attemptRule: RateRule = { name: 'payments:attempt', limit: 20, windowSeconds: 600 };
/** Each sync asks the provider's API; the page polls it while a Cash App payment is processing. */
export const syncRule: RateRule = { name: 'payments:sync', limit: 120, windowSeconds: 600 };

export const paymentNotFoundMessage = 'We could not find this payment.';
export const incompleteStepsMessage = 'Please complete the previous steps before paying.';
export const testModeOnlyMessage = 'Test cards are only accepted in test mode.';

function toReceipt(row: PaymentRow): PaymentReceipt {
  return { ...paymentView(row), bookingId: row.bookingId, failureMessage: row.failureMessage };
}

async function loadBooking(db: DbOrTx, bookingId: string): Promise<BookingView> {
  const booking = await getBookingView(db, bookingId);
  if (!booking) throw new DomainError('NOT_FOUND', bookingNotFoundMessage);
  return booking;
}

/**
 * Creates (or, for the same booking and amount, returns again) the provider's
 * payment intent. The idempotency key `booking-<id>-<priceCents>` makes a
 * reload, a second tab or a double click land on the same intent.
 */
export async function createPaymentIntent(deps: Deps, { bookingId }: { bookingId: string }): Promise<PaymentSetup> {
  const booking = await loadBooking(deps.db, bookingId);
  if (isPaid(booking.status)) {
    throw new DomainError('CONFLICT', bookingLockedMessage);
  }
  if (booking.status === 'cancelled') throw new DomainError('NOT_FOUND', bookingNotFoundMessage);
  if (booking.status !== 'payment_processing') {
    if (booking.status !== 'awaiting_payment' || !hasDocumentToNotarize(booking.documents) || !booking.contact) {
      throw new DomainError('PRECONDITION_FAILED', incompleteStepsMessage);
    }
    if ((!booking.startsAt && booking.kind !== 'on_demand') || !booking.holdExpiresAt || booking.holdExpiresAt.getTime() <= deps.now().getTime()) {
      throw new DomainError('PRECONDITION_FAILED', holdExpiredMessage);
    }
    // Notarize now: asked again at payment, so nobody pays to wait for no one (issue 28).
    if (booking.kind === 'on_demand') await assertSomeoneOnDuty(deps.db);
    if (booking.documents.some((d) => d.scanStatus === 'infected')) {
      throw new DomainError('PRECONDITION_FAILED', infectedDocumentsMessage);
    }
  }

  const amountCents = booking.priceCents;
  const created = await deps.payments.createIntent({
    bookingId,
    reference: booking.reference,
    amountCents,
    currency: 'usd',
    idempotencyKey: `booking-${bookingId}-${amountCents}`,
    description: `Online Notary Service — ${booking.reference}`,
  });
  await repo.insertPaymentOnce(deps.db, {
    bookingId,
    provider: deps.payments.mode,
    providerPaymentId: created.providerPaymentId,
    amountCents,
    currency: 'usd',
    status: created.status,
    purpose: 'booking',
  });
  return {
    mode: deps.payments.mode,
    providerPaymentId: created.providerPaymentId,
    clientSecret: created.clientSecret,
    amountCents,
    currency: 'usd',
  };
}

/** Statuses a late or repeated event must not undo (Stripe does not promise delivery order). */
const settledStatuses = new Set(['succeeded', 'refunded']);

function nextStatus(current: string, incoming: string): string {
  if (current === 'refunded') return current;
  if (current === 'succeeded') return incoming === 'refunded' ? incoming : current;
  return incoming;
}

/** What a payment's move means for its booking: confirm it, hold it as processing, or let the visitor pay again. */
function bookingEffect(from: string, to: string, incoming: string): 'confirm' | 'processing' | 'failed' | null {
  if (to === 'succeeded' && (to !== from || incoming === 'succeeded')) return 'confirm';
  if (to === 'processing') return 'processing';
  // A delayed method (Cash App Pay) failed: no-op unless the booking is processing.
  if (to !== from && (to === 'requires_payment_method' || to === 'canceled')) return 'failed';
  return null;
}

export interface IntentUpdate extends RetrievedIntent {
  providerPaymentId: string;
}

/**
 * The one path from "the provider says" to our records, inside the caller's
 * transaction: moves the payments row (never backwards), and confirms the
 * booking or marks it processing. Safe to repeat. The booking is read once,
 * under its lock (booking/service `lockBooking`), and that row is what the
 * price check and the booking's change both see.
 */
export async function applyIntentUpdate(tx: Tx, deps: Deps, update: IntentUpdate): Promise<PaymentRow | null> {
  const existing = await repo.lockPaymentByProviderId(tx, update.providerPaymentId);
  const from = existing?.status ?? 'requires_payment_method';
  const status = nextStatus(from, update.status);
  const effect = bookingEffect(from, status, update.status);
  // An intent we never recorded (e.g. our insert failed after Stripe answered) is placed from its metadata,
  // which may name anything: the booking must exist.
  const bookingId = existing?.bookingId ?? update.bookingId;
  const booking = bookingId && (effect || !existing) ? await lockBooking(tx, bookingId) : null;
  if (!existing && !booking) {
    deps.log.warn({ providerPaymentId: update.providerPaymentId }, 'payment update for an unknown booking ignored');
    return null;
  }
  const current =
    existing ??
    (await repo.insertPayment(tx, {
      bookingId: booking!.id,
      provider: deps.payments.mode,
      providerPaymentId: update.providerPaymentId,
      amountCents: update.amountCents,
      currency: update.currency,
      status: from,
    }));
  const saved = await repo.updatePayment(tx, current.id, {
    status,
    method: update.method ?? current.method,
    failureMessage: settledStatuses.has(status) || status === 'processing' ? null : (update.failureMessage ?? current.failureMessage),
  });
  // A payment row always has its booking (foreign key), so `booking` is there whenever `effect` is.
  if (!booking || !effect) return saved;

  if (current.purpose === 'signer') {
    // A co-signer's fee paid from the booking page: the booking itself is already paid and stays as it is;
    // only a success adds the signer (or refunds, when they can no longer be added). Decision 125.
    if (effect !== 'confirm' || !saved || saved.status !== 'succeeded') return saved;
    const { refund } = await signerPaymentSucceeded(tx, deps, saved);
    if (!refund) return saved;
    const { refundedCents } = await refundPayment(tx, deps, saved, `additional signer not added: ${refund}`);
    await writeAudit(tx, { actorType: 'system', action: 'payment.signer_fee_refunded', entityType: 'booking', entityId: booking.id, data: { providerPaymentId: saved.providerPaymentId, refundedCents, why: refund } });
    return repo.lockPaymentByProviderId(tx, saved.providerPaymentId);
  }

  if (effect === 'confirm') {
    if (update.amountCents < booking.priceCents) {
      // Never confirm on less than the price the server set; staff can see the row.
      deps.log.error({ bookingId: booking.id, paid: update.amountCents, price: booking.priceCents }, 'payment below booking price');
      return saved;
    }
    // Whether the booking was cancelled meanwhile (abandoned, or by staff while the visitor
    // was paying) is decided by confirmBooking on this row, read under the lock: an unlocked
    // read could miss a cancel that commits in between.
    const { outcome } = await confirmBooking(tx, deps, { locked: booking });
    if (outcome === 'cancelled') {
      // The money goes straight back; the refund key makes a repeat harmless.
      const { refundedCents } = await refundBookingPayment(tx, deps, { bookingId: booking.id, reason: 'paid after cancellation' });
      await writeAudit(tx, {
        actorType: 'system',
        action: 'payment.refunded_after_cancellation',
        entityType: 'booking',
        entityId: booking.id,
        data: { providerPaymentId: current.providerPaymentId, refundedCents },
      });
    }
  } else if (effect === 'processing') {
    // The booking service ignores this for a booking already further along (e.g. confirmed).
    await markPaymentProcessing(tx, deps, { locked: booking });
  } else {
    await markPaymentFailed(tx, deps, { locked: booking });
  }
  return saved;
}

/**
 * After the Payment Element returns (or Stripe redirects back), ask the
 * provider itself how the payment stands, rather than trusting the browser,
 * and record it through the same path as the webhook.
 */
export async function syncPayment(deps: Deps, { bookingId }: { bookingId: string }): Promise<PaymentReceipt | null> {
  await loadBooking(deps.db, bookingId);
  const row = await currentPaymentOf(deps.db, bookingId);
  if (!row) return null;
  if (row.provider !== deps.payments.mode || settledStatuses.has(row.status)) return toReceipt(row);
  let retrieved: RetrievedIntent;
  try {
    retrieved = await deps.payments.retrieve(row.providerPaymentId);
  } catch (error) {
    deps.log.warn({ err: error, bookingId }, 'could not retrieve payment; showing the recorded state');
    return toReceipt(row);
  }
  const saved = await deps.db.transaction((tx) =>
    applyIntentUpdate(tx, deps, { ...retrieved, providerPaymentId: row.providerPaymentId }),
  );
  return saved ? toReceipt(saved) : toReceipt(row);
}

/**
 * Test provider only: the card form's submit. The provider judges the card;
 * a success confirms the booking through `applyIntentUpdate`, exactly like a
 * Stripe webhook would. A decline is an answer, not an error (as with
 * Stripe.js's confirmPayment): `{ receipt, error: 'Your card was declined.' }`.
 */
export async function confirmTestCard(deps: Deps, input: ConfirmTestCardInput): Promise<PaymentAttempt> {
  if (!deps.payments.confirmTestCard) throw new DomainError('BAD_REQUEST', testModeOnlyMessage);
  const setup = await createPaymentIntent(deps, { bookingId: input.bookingId });
  return chargeTestCard(deps, setup.providerPaymentId, input);
}

/** The test provider judges the card, then the outcome is recorded through `applyIntentUpdate` like a webhook. */
export async function chargeTestCard(deps: Deps, providerPaymentId: string, card: CardFields): Promise<PaymentAttempt> {
  const confirmCard = deps.payments.confirmTestCard;
  if (!confirmCard) throw new DomainError('BAD_REQUEST', testModeOnlyMessage);
  const outcome = await confirmCard(providerPaymentId, card, deps.now());
  const retrieved = await deps.payments.retrieve(providerPaymentId);
  const saved = await deps.db.transaction((tx) => applyIntentUpdate(tx, deps, { ...retrieved, providerPaymentId }));
  return { receipt: toReceipt(saved!), error: outcome.failureMessage };
}

/**
 * A co-signer's fee, charged on its own after the booking was paid (decision
 * 125): a second intent through the same provider, recorded with purpose
 * 'signer'. The idempotency key names the participant, so a double click lands
 * on the same intent.
 */
async function createSignerPayment(
  tx: DbOrTx,
  deps: Deps,
  input: { bookingId: string; reference: string; participantId: string; amountCents: number },
): Promise<SignerPaymentSetup & { paymentId: string }> {
  const created = await deps.payments.createIntent({
    bookingId: input.bookingId,
    reference: input.reference,
    amountCents: input.amountCents,
    currency: 'usd',
    idempotencyKey: `signer-${input.participantId}-${input.amountCents}`,
    description: `Online Notary Service — ${input.reference} — additional signer`,
  });
  const row = await repo.insertPayment(tx, {
    bookingId: input.bookingId,
    provider: deps.payments.mode,
    providerPaymentId: created.providerPaymentId,
    amountCents: input.amountCents,
    currency: 'usd',
    status: created.status,
    purpose: 'signer',
  });
  return {
    participantId: input.participantId,
    mode: deps.payments.mode,
    providerPaymentId: created.providerPaymentId,
    clientSecret: created.clientSecret,
    amountCents: input.amountCents,
    currency: 'usd',
    paymentId: row.id,
  };
}

/** "Add a signer" from the booking page when a co-signer has a fee: the pending person and their payment. */
export async function startSignerPayment(deps: Deps, token: string, details: ParticipantDetails): Promise<SignerPaymentSetup> {
  return startPaidAddition(deps, token, details, (tx, input) => createSignerPayment(tx, deps, input));
}

async function signerPaymentOf(deps: Deps, token: string, providerPaymentId: string): Promise<PaymentRow> {
  const bookingId = await bookingForAdding(deps, token);
  const row = (await repo.paymentsOf(deps.db, bookingId, 'signer')).find((p) => p.providerPaymentId === providerPaymentId);
  if (!row) throw new DomainError('NOT_FOUND', paymentNotFoundMessage);
  return row;
}

/** Test mode: the card for a signer's fee. A success adds and invites them; a decline adds nobody. */
export async function paySignerTestCard(deps: Deps, input: SignerTestCardInput): Promise<PaymentAttempt> {
  const row = await signerPaymentOf(deps, input.token, input.providerPaymentId);
  return chargeTestCard(deps, row.providerPaymentId, input);
}

/** After Stripe's Payment Element returns for a signer's fee: ask the provider, record it as the webhook would. */
export async function syncSignerPayment(deps: Deps, input: { token: string; providerPaymentId: string }): Promise<PaymentReceipt> {
  const row = await signerPaymentOf(deps, input.token, input.providerPaymentId);
  if (row.provider !== deps.payments.mode || settledStatuses.has(row.status)) return toReceipt(row);
  let retrieved: RetrievedIntent;
  try {
    retrieved = await deps.payments.retrieve(row.providerPaymentId);
  } catch (error) {
    deps.log.warn({ err: error, bookingId: row.bookingId }, 'could not retrieve payment; showing the recorded state');
    return toReceipt(row);
  }
  const saved = await deps.db.transaction((tx) => applyIntentUpdate(tx, deps, { ...retrieved, providerPaymentId: row.providerPaymentId }));
  return toReceipt(saved ?? row);
}

/** The co-signers' fees paid from the booking page, oldest first (the booking page, the console). */
export async function signerPayments(db: DbOrTx, bookingId: string): Promise<SignerPaymentView[]> {
  return (await repo.paymentsOf(db, bookingId, 'signer')).map((row) => ({
    paymentId: row.id,
    providerPaymentId: row.providerPaymentId,
    amountCents: row.amountCents,
    refundedCents: row.refundedCents,
    currency: row.currency,
    status: row.status,
    createdAt: row.createdAt,
  }));
}

/**
 * What the co-signers' fees paid from the booking page add to the session's
 * charge: those that succeeded and were kept (a fee refunded because its signer
 * could not be added is not charged). The journal's fee rule counts them with
 * the booking's price (decision 126).
 */
export async function signerFeesChargedCents(db: DbOrTx, bookingId: string): Promise<number> {
  return (await repo.paymentsOf(db, bookingId, 'signer')).reduce((sum, p) => sum + (p.status === 'succeeded' ? p.amountCents - p.refundedCents : 0), 0);
}

/**
 * What the customer was charged for the session and kept (decision 126): the
 * booking's price less what was refunded of the booking's own payment (a
 * removed co-signer's fee paid within it, decision 133), plus the co-signers'
 * fees paid later and kept. The journal's fee rule counts this.
 */
export async function sessionChargedCents(db: DbOrTx, bookingId: string, priceCents: number): Promise<number> {
  const booking = await currentPaymentOf(db, bookingId);
  return priceCents - (booking?.refundedCents ?? 0) + (await signerFeesChargedCents(db, bookingId));
}

/**
 * A co-signer the notary removed before they signed anything (decision 133):
 * their fee goes back in full through the provider that took it — their own
 * payment when they were added from the booking page, else that part of the
 * booking's payment (added while booking). Audited as
 * `payment.signer_fee_refunded`; a repeat refunds nothing more (the
 * idempotency key is the person's).
 */
export async function refundRemovedSignerFee(tx: Tx, deps: Deps, person: { id: string; bookingId: string; feeCents: number; paymentId: string | null }): Promise<number> {
  const why = 'removed by the notary before signing';
  const captured = await repo.lockCapturedPayments(tx, person.bookingId);
  const paidWith = person.paymentId ? captured.find((p) => p.id === person.paymentId) : captured.find((p) => p.purpose === 'booking');
  if (paidWith?.status !== 'succeeded') return 0;
  const { refundedCents } = person.paymentId
    ? await refundPayment(tx, deps, paidWith, why)
    : await refundPart(tx, deps, paidWith, { cents: person.feeCents, idempotencyKey: `refund-${paidWith.providerPaymentId}-signer-${person.id}`, reason: why });
  if (refundedCents > 0) {
    await writeAudit(tx, { actorType: 'system', action: 'payment.signer_fee_refunded', entityType: 'booking', entityId: person.bookingId, data: { providerPaymentId: paidWith.providerPaymentId, participantId: person.id, refundedCents, why } });
  }
  return refundedCents;
}

/** Refunds one captured payment in full (a co-signer's fee for someone who could not be added). */
export async function refundPayment(tx: DbOrTx, deps: Deps, payment: PaymentRow, reason: string): Promise<{ refundedCents: number; providerRefundId: string | null }> {
  const remaining = payment.amountCents - payment.refundedCents;
  return refundPart(tx, deps, payment, { cents: remaining, idempotencyKey: `refund-${payment.providerPaymentId}-${remaining}`, reason });
}

/** Refunds up to `cents` of a captured payment (never more than is left); the payment reads `refunded` once nothing is left. */
async function refundPart(tx: DbOrTx, deps: Deps, payment: PaymentRow, part: { cents: number; idempotencyKey: string; reason: string }): Promise<{ refundedCents: number; providerRefundId: string | null }> {
  const cents = Math.min(part.cents, payment.amountCents - payment.refundedCents);
  if (cents <= 0) return { refundedCents: 0, providerRefundId: payment.providerRefundId };
  const refund = await deps.payments.refund({ providerPaymentId: payment.providerPaymentId, amountCents: cents, idempotencyKey: part.idempotencyKey });
  const refundedCents = payment.refundedCents + cents;
  await repo.updatePayment(tx, payment.id, { refundedCents, providerRefundId: refund.refundId, ...(refundedCents >= payment.amountCents ? { status: 'refunded' } : {}) });
  deps.log.info({ bookingId: payment.bookingId, refundId: refund.refundId, amountCents: cents, reason: part.reason }, 'payment refunded');
  return { refundedCents: cents, providerRefundId: refund.refundId };
}

/**
 * The provider's webhook events (translated by the adapter), each processed
 * once: its id is recorded in `processed_events` in the same transaction as
 * its effect, so a redelivery (or two deliveries racing) changes nothing the
 * second time.
 */
export async function handleProviderEvent(deps: Deps, event: ProviderEvent): Promise<'processed' | 'duplicate' | 'ignored'> {
  return deps.db.transaction(async (tx) => {
    if (!(await repo.claimEvent(tx, { id: event.id, provider: deps.payments.mode, type: event.type }))) return 'duplicate';

    switch (event.kind) {
      case 'intent':
        await applyIntentUpdate(tx, deps, { ...event.intent, providerPaymentId: event.providerPaymentId });
        return 'processed';
      case 'refund':
        await repo.recordRefund(tx, event);
        return 'processed';
      default:
        return 'ignored';
    }
  });
}

/**
 * Refunds what is left of every captured payment of a booking — its own and
 * each co-signer's fee paid later (customer or staff cancellation). The
 * idempotency key ties each refund to its payment and amount, so retrying a
 * failed cancellation never refunds twice.
 */
export async function refundBookingPayment(
  tx: DbOrTx,
  deps: Deps,
  { bookingId, reason }: { bookingId: string; reason: string },
): Promise<{ refundedCents: number; providerRefundId: string | null }> {
  let refundedCents = 0;
  let providerRefundId: string | null = null;
  for (const row of await repo.lockCapturedPayments(tx, bookingId)) {
    const refund = await refundPayment(tx, deps, row, reason);
    refundedCents += refund.refundedCents;
    if (row.purpose === 'booking') providerRefundId = refund.providerRefundId;
  }
  return { refundedCents, providerRefundId };
}

/**
 * Claims a provider's webhook event id once (processed_events, shared by every
 * webhook: payments and identity); false when it was processed before or is
 * being processed now. Inside the caller's transaction.
 */
export async function claimProviderEvent(tx: DbOrTx, event: { id: string; provider: string; type: string }): Promise<boolean> {
  return repo.claimEvent(tx, event);
}
