import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bookingLockedMessage, holdExpiredMessage } from '../../../shared/booking.ts';
import { cardMessages } from '../../../shared/payments.ts';
import { createTestDeps, type TestContext } from '../../../../tests/helpers/app.ts';
import { dbKinds } from '../../../../tests/helpers/db.ts';
import { paymentClock } from '../../../../tests/helpers/payments.ts';
import { bookingIn } from '../../../../tests/helpers/bookings.ts';
import { rejectionOf } from '../../../../tests/helpers/async.ts';
import { auditLog, bookings, payments } from '../../db/schema.ts';
import type { Deps } from '../../deps.ts';
import { getBookingView } from '../booking/service.ts';
import { applyIntentUpdate, confirmTestCard, createPaymentIntent, refundBookingPayment, syncPayment } from './service.ts';

const card = { number: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', name: 'Grace Hopper', email: 'grace@example.com' };

describe.each(dbKinds)('payments with the test provider on %s', (kind) => {
  let ctx: TestContext;
  let deps: Deps;
  let clock: Date;

  beforeEach(async () => {
    ctx = await createTestDeps(kind, { BOOKING_BASE_FEE_CENTS: '3100' });
    clock = paymentClock;
    deps = { ...ctx.deps, now: () => clock };
  });
  afterEach(() => ctx.close());

  it('creates one intent per booking and amount, priced by the server', async () => {
    const { bookingId } = await bookingIn(deps, 'awaiting_payment');
    const first = await createPaymentIntent(deps, { bookingId });
    const again = await createPaymentIntent(deps, { bookingId });
    expect(first).toMatchObject({ mode: 'test', amountCents: 3100, currency: 'usd', clientSecret: null });
    expect(again.providerPaymentId).toBe(first.providerPaymentId);
    const rows = await deps.db.select().from(payments).where(eq(payments.bookingId, bookingId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ provider: 'test', amountCents: 3100, status: 'requires_payment_method' });
  });

  it('refuses to take payment before the earlier steps, or after the hold lapsed', async () => {
    const { bookingId } = await bookingIn(deps, 'awaiting_payment');
    const draft = await deps.db.insert(bookings).values({ reference: 'NOTARY-DRAFT234', priceCents: 2500 }).returning({ id: bookings.id });
    expect(await rejectionOf(createPaymentIntent(deps, { bookingId: draft[0]!.id }))).toMatchObject({ code: 'PRECONDITION_FAILED' });

    clock = new Date(paymentClock.getTime() + (deps.config.BOOKING_HOLD_MINUTES + 1) * 60_000);
    expect(await rejectionOf(createPaymentIntent(deps, { bookingId }))).toEqual({ code: 'PRECONDITION_FAILED', message: holdExpiredMessage });
    expect(await rejectionOf(confirmTestCard(deps, { bookingId, ...card }))).toMatchObject({ message: holdExpiredMessage });
  });

  it('4242 pays and confirms the booking through the shared path', async () => {
    const { bookingId } = await bookingIn(deps, 'awaiting_payment');
    const { receipt, error } = await confirmTestCard(deps, { bookingId, ...card });
    expect(error).toBeNull();
    expect(receipt).toMatchObject({ bookingId, provider: 'test', amountCents: 3100, currency: 'usd', status: 'succeeded', method: 'card', failureMessage: null });
    expect(receipt.providerPaymentId).toMatch(/^pi_test_/);
    const view = await getBookingView(deps.db, bookingId);
    expect(view?.status).toBe('confirmed');
    expect(view?.holdExpiresAt).toBeNull();
    expect(view?.payment).toMatchObject({ providerPaymentId: receipt.providerPaymentId, status: 'succeeded' });

    // Paid: no second intent, no second charge.
    expect(await rejectionOf(createPaymentIntent(deps, { bookingId }))).toEqual({ code: 'CONFLICT', message: bookingLockedMessage });
    expect(await syncPayment(deps, { bookingId })).toMatchObject({ status: 'succeeded' });
  });

  it('4000 0000 0000 0002 is declined with Stripe’s message; a retry with 4242 succeeds on the same intent', async () => {
    const { bookingId } = await bookingIn(deps, 'awaiting_payment');
    const declined = await confirmTestCard(deps, { bookingId, ...card, number: '4000 0000 0000 0002' });
    expect(declined.error).toBe(cardMessages.declined);
    expect(declined.receipt.status).toBe('requires_payment_method');
    const [failed] = await deps.db.select().from(payments).where(eq(payments.bookingId, bookingId));
    expect(failed).toMatchObject({ status: 'requires_payment_method', failureMessage: 'Your card was declined.' });
    expect((await getBookingView(deps.db, bookingId))?.status).toBe('awaiting_payment');

    const { receipt } = await confirmTestCard(deps, { bookingId, ...card });
    expect(receipt.providerPaymentId).toBe(failed!.providerPaymentId);
    expect(receipt.status).toBe('succeeded');
    expect(receipt.failureMessage).toBeNull();
  });

  it('checks the card on the server too (format, expiry, non-test numbers)', async () => {
    const { bookingId } = await bookingIn(deps, 'awaiting_payment');
    expect((await confirmTestCard(deps, { bookingId, ...card, number: '4242 4242 4242 4241' })).error).toBe(cardMessages.numberInvalid);
    expect((await confirmTestCard(deps, { bookingId, ...card, expiry: '01 / 20' })).error).toBe(cardMessages.expiryPast);
    expect((await confirmTestCard(deps, { bookingId, ...card, cvc: '1' })).error).toBe(cardMessages.cvcIncomplete);
    expect((await confirmTestCard(deps, { bookingId, ...card, number: '4000 0000 0000 9995' })).error).toBe('Your card has insufficient funds.');
    // A Luhn-valid number that is not one of Stripe's test cards: refused, like Stripe's test mode does.
    expect((await confirmTestCard(deps, { bookingId, ...card, number: '4111 1111 1111 1111' })).error).toMatch(/test mode/);
    expect((await getBookingView(deps.db, bookingId))?.status).toBe('awaiting_payment');
  });

  it('refunds what was paid, once', async () => {
    const { bookingId } = await bookingIn(deps, 'awaiting_payment');
    await confirmTestCard(deps, { bookingId, ...card });
    const first = await deps.db.transaction((tx) => refundBookingPayment(tx, deps, { bookingId, reason: 'customer cancelled' }));
    expect(first.refundedCents).toBe(3100);
    expect(first.providerRefundId).toMatch(/^re_test_/);
    const [row] = await deps.db.select().from(payments).where(eq(payments.bookingId, bookingId));
    expect(row).toMatchObject({ status: 'refunded', refundedCents: 3100, providerRefundId: first.providerRefundId });
    const second = await deps.db.transaction((tx) => refundBookingPayment(tx, deps, { bookingId, reason: 'again' }));
    expect(second.refundedCents).toBe(0);
  });

  it('refunds a payment that succeeds after its booking was cancelled, and leaves the booking cancelled', async () => {
    const { bookingId } = await bookingIn(deps, 'awaiting_payment');
    const intent = await createPaymentIntent(deps, { bookingId });
    await deps.db.update(bookings).set({ status: 'cancelled', cancellationReason: 'abandoned' }).where(eq(bookings.id, bookingId));
    const succeeded = { providerPaymentId: intent.providerPaymentId, bookingId, status: 'succeeded', amountCents: 3100, currency: 'usd', method: 'card', failureMessage: null } as const;
    await deps.db.transaction((tx) => applyIntentUpdate(tx, deps, succeeded));
    await deps.db.transaction((tx) => applyIntentUpdate(tx, deps, succeeded)); // the event again: no second refund

    const [row] = await deps.db.select().from(payments).where(eq(payments.bookingId, bookingId));
    expect(row).toMatchObject({ status: 'refunded', refundedCents: 3100 });
    expect((await getBookingView(deps.db, bookingId))?.status).toBe('cancelled');
    const audits = await deps.db.select().from(auditLog).where(eq(auditLog.action, 'payment.refunded_after_cancellation'));
    expect(audits).toHaveLength(1);
  });

  it('refunds nothing for a booking that was never paid', async () => {
    const { bookingId } = await bookingIn(deps, 'awaiting_payment');
    await createPaymentIntent(deps, { bookingId });
    expect(await deps.db.transaction((tx) => refundBookingPayment(tx, deps, { bookingId, reason: 'x' }))).toEqual({ refundedCents: 0, providerRefundId: null });
  });
});
