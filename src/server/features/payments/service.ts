import { TRPCError } from '@trpc/server';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import {
  bookingLockedMessage,
  bookingNotFoundMessage,
  holdExpiredMessage,
  infectedDocumentsMessage,
  type BookingView,
} from '../../../shared/booking.ts';
import type { ConfirmTestCardInput, PaymentAttempt, PaymentReceipt, PaymentSetup } from '../../../shared/payments.ts';
import { intentSummary } from '../../adapters/payments/stripe.ts';
import type { TestPaymentProvider } from '../../adapters/payments/test-provider.ts';
import type { RetrievedIntent } from '../../adapters/payments/types.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { bookings, payments, processedEvents } from '../../db/schema.ts';
import type { Deps } from '../../deps.ts';
import { writeAudit } from '../audit.ts';
import { confirmBooking, getBookingView, markPaymentFailed, markPaymentProcessing } from '../booking/service.ts';

/**
 * Payments for bookings. The amount always comes from the booking on the
 * server; the browser only says which booking. Whatever tells us about a
 * payment — Stripe's webhook, a retrieve after the Payment Element returns, or
 * the test provider's card check — goes through `applyIntentUpdate`, the one
 * path that moves the payment row and confirms the booking.
 */

export const incompleteStepsMessage = 'Please complete the previous steps before paying.';
export const testModeOnlyMessage = 'Test cards are only accepted in test mode.';
const paidStatuses = ['confirmed', 'completed', 'no_show'] as const;

type PaymentRow = typeof payments.$inferSelect;

function toReceipt(row: PaymentRow): PaymentReceipt {
  return {
    bookingId: row.bookingId,
    provider: row.provider,
    providerPaymentId: row.providerPaymentId,
    amountCents: row.amountCents,
    currency: row.currency,
    status: row.status,
    method: row.method,
    failureMessage: row.failureMessage,
    createdAt: row.createdAt,
  };
}

async function loadBooking(db: DbOrTx, bookingId: string): Promise<BookingView> {
  const booking = await getBookingView(db, bookingId);
  if (!booking) throw new TRPCError({ code: 'NOT_FOUND', message: bookingNotFoundMessage });
  return booking;
}

/** The payment a booking's receipt shows: one that went through if any, else the latest attempt. */
async function currentPaymentRow(db: DbOrTx, bookingId: string): Promise<PaymentRow | null> {
  const rows = await db.select().from(payments).where(eq(payments.bookingId, bookingId)).orderBy(desc(payments.createdAt));
  return rows.find((r) => ['succeeded', 'processing', 'refunded'].includes(r.status)) ?? rows[0] ?? null;
}

export async function getPaymentReceipt(db: DbOrTx, bookingId: string): Promise<PaymentReceipt | null> {
  const row = await currentPaymentRow(db, bookingId);
  return row ? toReceipt(row) : null;
}

/**
 * Creates (or, for the same booking and amount, returns again) the provider's
 * payment intent. The idempotency key `booking-<id>-<priceCents>` makes a
 * reload, a second tab or a double click land on the same intent.
 */
export async function createPaymentIntent(deps: Deps, { bookingId }: { bookingId: string }): Promise<PaymentSetup> {
  const booking = await loadBooking(deps.db, bookingId);
  if ((paidStatuses as readonly string[]).includes(booking.status)) {
    throw new TRPCError({ code: 'CONFLICT', message: bookingLockedMessage });
  }
  if (booking.status === 'cancelled') throw new TRPCError({ code: 'NOT_FOUND', message: bookingNotFoundMessage });
  if (booking.status !== 'payment_processing') {
    if (booking.status !== 'awaiting_payment' || booking.documents.length === 0 || !booking.contact) {
      throw new TRPCError({ code: 'PRECONDITION_FAILED', message: incompleteStepsMessage });
    }
    if (!booking.startsAt || !booking.holdExpiresAt || booking.holdExpiresAt.getTime() <= deps.now().getTime()) {
      throw new TRPCError({ code: 'PRECONDITION_FAILED', message: holdExpiredMessage });
    }
    if (booking.documents.some((d) => d.scanStatus === 'infected')) {
      throw new TRPCError({ code: 'PRECONDITION_FAILED', message: infectedDocumentsMessage });
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
  await deps.db
    .insert(payments)
    .values({
      bookingId,
      provider: deps.payments.mode,
      providerPaymentId: created.providerPaymentId,
      amountCents,
      currency: 'usd',
      status: created.status,
    })
    .onConflictDoNothing({ target: payments.providerPaymentId });
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

/** Status and price only: one query, safe inside a transaction. */
async function bookingState(tx: DbOrTx, bookingId: string) {
  if (!/^[0-9a-f-]{36}$/i.test(bookingId)) return null;
  const [row] = await tx.select({ status: bookings.status, priceCents: bookings.priceCents }).from(bookings).where(eq(bookings.id, bookingId));
  return row ?? null;
}

export interface IntentUpdate extends RetrievedIntent {
  providerPaymentId: string;
}

/**
 * The one path from "the provider says" to our records, inside the caller's
 * transaction: moves the payments row (never backwards), and confirms the
 * booking or marks it processing. Safe to repeat.
 */
export async function applyIntentUpdate(tx: Tx, deps: Deps, update: IntentUpdate): Promise<PaymentRow | null> {
  let [row] = await tx.select().from(payments).where(eq(payments.providerPaymentId, update.providerPaymentId)).for('update');
  if (!row) {
    // An intent we never recorded (e.g. our insert failed after Stripe answered): place it from its metadata.
    if (!update.bookingId || !(await bookingState(tx, update.bookingId))) {
      deps.log.warn({ providerPaymentId: update.providerPaymentId }, 'payment update for an unknown booking ignored');
      return null;
    }
    [row] = await tx
      .insert(payments)
      .values({
        bookingId: update.bookingId,
        provider: deps.payments.mode,
        providerPaymentId: update.providerPaymentId,
        amountCents: update.amountCents,
        currency: update.currency,
        status: 'requires_payment_method',
      })
      .returning();
  }
  const current = row!;
  const status = nextStatus(current.status, update.status);
  const changed = status !== current.status;
  const [saved] = await tx
    .update(payments)
    .set({
      status,
      method: update.method ?? current.method,
      failureMessage: settledStatuses.has(status) || status === 'processing' ? null : (update.failureMessage ?? current.failureMessage),
      updatedAt: sql`now()`,
    })
    .where(eq(payments.id, current.id))
    .returning();

  if (status === 'succeeded' && (changed || update.status === 'succeeded')) {
    const booking = await bookingState(tx, current.bookingId);
    if (booking && update.amountCents < booking.priceCents) {
      // Never confirm on less than the price the server set; staff can see the row.
      deps.log.error({ bookingId: current.bookingId, paid: update.amountCents, price: booking.priceCents }, 'payment below booking price');
    } else if (booking && booking.status !== 'cancelled') {
      await confirmBooking(tx, deps, { bookingId: current.bookingId });
    } else if (booking) {
      // Paid for a booking that was cancelled meanwhile (abandoned, or by staff while the
      // visitor was paying): the money goes straight back; the refund key makes a repeat harmless.
      const { refundedCents } = await refundBookingPayment(tx, deps, { bookingId: current.bookingId, reason: 'paid after cancellation' });
      await writeAudit(tx, {
        actorType: 'system',
        action: 'payment.refunded_after_cancellation',
        entityType: 'booking',
        entityId: current.bookingId,
        data: { providerPaymentId: current.providerPaymentId, refundedCents },
      });
    }
  } else if (status === 'processing') {
    // The booking service ignores this for a booking already further along (e.g. confirmed).
    await markPaymentProcessing(tx, deps, { bookingId: current.bookingId });
  } else if (changed && (status === 'requires_payment_method' || status === 'canceled')) {
    // A delayed method (Cash App Pay) failed: the visitor may pay again; no-op unless processing.
    await markPaymentFailed(tx, deps, { bookingId: current.bookingId });
  }
  return saved ?? null;
}

/**
 * After the Payment Element returns (or Stripe redirects back), ask the
 * provider itself how the payment stands, rather than trusting the browser,
 * and record it through the same path as the webhook.
 */
export async function syncPayment(deps: Deps, { bookingId }: { bookingId: string }): Promise<PaymentReceipt | null> {
  await loadBooking(deps.db, bookingId);
  const row = await currentPaymentRow(deps.db, bookingId);
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
  if (deps.payments.mode !== 'test') throw new TRPCError({ code: 'BAD_REQUEST', message: testModeOnlyMessage });
  const provider = deps.payments as TestPaymentProvider;
  const setup = await createPaymentIntent(deps, { bookingId: input.bookingId });
  const outcome = await provider.confirmCard(setup.providerPaymentId, input, deps.now());
  const retrieved = await provider.retrieve(setup.providerPaymentId);
  const saved = await deps.db.transaction((tx) =>
    applyIntentUpdate(tx, deps, { ...retrieved, providerPaymentId: setup.providerPaymentId }),
  );
  return { receipt: toReceipt(saved!), error: outcome.failureMessage };
}

/**
 * Stripe's webhook events, each processed once: its id is recorded in
 * `processed_events` in the same transaction as its effect, so a redelivery
 * (or two deliveries racing) changes nothing the second time.
 */
export async function handleStripeEvent(deps: Deps, event: Stripe.Event): Promise<'processed' | 'duplicate' | 'ignored'> {
  return deps.db.transaction(async (tx) => {
    const fresh = await tx
      .insert(processedEvents)
      .values({ id: event.id, provider: 'stripe', type: event.type })
      .onConflictDoNothing()
      .returning({ id: processedEvents.id });
    if (fresh.length === 0) return 'duplicate';

    switch (event.type) {
      case 'payment_intent.succeeded':
      case 'payment_intent.processing':
      case 'payment_intent.payment_failed':
      case 'payment_intent.canceled': {
        const intent = event.data.object;
        await applyIntentUpdate(tx, deps, { ...intentSummary(intent), providerPaymentId: intent.id });
        return 'processed';
      }
      case 'charge.refunded': {
        const charge = event.data.object;
        const intentId = typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id;
        if (!intentId) return 'ignored';
        const refundId = charge.refunds?.data[0]?.id ?? null;
        await recordRefund(tx, intentId, charge.amount_refunded, refundId, charge.refunded);
        return 'processed';
      }
      default:
        return 'ignored';
    }
  });
}

async function recordRefund(tx: DbOrTx, providerPaymentId: string, refundedCents: number, refundId: string | null, full: boolean) {
  await tx
    .update(payments)
    .set({
      // Refund totals only grow: an older event never lowers them.
      refundedCents: sql`greatest(${payments.refundedCents}, ${refundedCents})`,
      // An older (smaller) refund event does not replace the latest refund's id.
      providerRefundId: refundId
        ? sql`case when ${refundedCents} >= ${payments.refundedCents} then ${refundId} else ${payments.providerRefundId} end`
        : sql`${payments.providerRefundId}`,
      status: full ? 'refunded' : sql`${payments.status}`,
      updatedAt: sql`now()`,
    })
    .where(eq(payments.providerPaymentId, providerPaymentId));
}

/**
 * Refunds what is left of a booking's captured payment (customer or staff
 * cancellation). The idempotency key ties the refund to the payment and
 * amount, so retrying a failed cancellation never refunds twice.
 */
export async function refundBookingPayment(
  tx: DbOrTx,
  deps: Deps,
  { bookingId, reason }: { bookingId: string; reason: string },
): Promise<{ refundedCents: number; providerRefundId: string | null }> {
  const [row] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.bookingId, bookingId), inArray(payments.status, ['succeeded', 'refunded'])))
    .orderBy(desc(payments.createdAt))
    .limit(1)
    .for('update');
  if (!row) return { refundedCents: 0, providerRefundId: null };
  const remaining = row.amountCents - row.refundedCents;
  if (remaining <= 0) return { refundedCents: 0, providerRefundId: row.providerRefundId };
  const refund = await deps.payments.refund({
    providerPaymentId: row.providerPaymentId,
    amountCents: remaining,
    idempotencyKey: `refund-${row.providerPaymentId}-${remaining}`,
  });
  await tx
    .update(payments)
    .set({ refundedCents: row.amountCents, providerRefundId: refund.refundId, status: 'refunded', updatedAt: sql`now()` })
    .where(eq(payments.id, row.id));
  deps.log.info({ bookingId, refundId: refund.refundId, amountCents: remaining, reason }, 'payment refunded');
  return { refundedCents: remaining, providerRefundId: refund.refundId };
}
