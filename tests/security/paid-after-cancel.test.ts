import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/server/db/client.ts';
import { auditLog, bookings, payments } from '../../src/server/db/schema.ts';
import type { Deps } from '../../src/server/deps.ts';
import { cancelBookingRecord } from '../../src/server/features/booking/service.ts';
import { applyIntentUpdate, createPaymentIntent, refundBookingPayment } from '../../src/server/features/payments/service.ts';
import { createTestDeps, type TestContext } from '../helpers/app.ts';
import { dbKinds } from '../helpers/db.ts';
import { paymentClock } from '../helpers/payments.ts';
import { bookingIn } from '../helpers/bookings.ts';
import { until } from './helpers.ts';

/**
 * Attack (or bad luck): the card payment succeeds while staff, or the job that
 * cancels abandoned bookings, cancels the booking. Expected: whichever order
 * the two transactions commit in, money taken for a cancelled booking is
 * refunded exactly once — "paid after cancellation" is decided under the
 * booking's row lock, never from an earlier unlocked read.
 */
describe.each(dbKinds)('paid after cancellation (%s)', (kind) => {
  let ctx: TestContext;
  let deps: Deps;
  beforeAll(async () => {
    ctx = await createTestDeps(kind);
    deps = { ...ctx.deps, now: () => paymentClock };
  });
  afterAll(() => ctx.close());

  const succeeded = (bookingId: string, providerPaymentId: string) =>
    ({ providerPaymentId, bookingId, status: 'succeeded', amountCents: 2500, currency: 'usd', method: 'card', failureMessage: null }) as const;

  async function outcome(bookingId: string) {
    const [payment] = await deps.db.select().from(payments).where(eq(payments.bookingId, bookingId));
    const [booking] = await deps.db.select({ status: bookings.status }).from(bookings).where(eq(bookings.id, bookingId));
    const refunds = await queryRows<{ n: number }>(deps.db, sql`select count(*)::int as n from audit_log where action = 'payment.refunded_after_cancellation' and entity_id = ${bookingId}`);
    return { booking: booking!.status, payment: payment!.status, refundedCents: payment!.refundedCents, refundAudits: refunds[0]!.n };
  }

  it('cancel commits first, then the payment succeeds → booking stays cancelled, payment refunded once', async () => {
    const { bookingId } = await bookingIn(deps, 'awaiting_payment');
    const intent = await createPaymentIntent(deps, { bookingId });
    await deps.db.transaction((tx) => cancelBookingRecord(tx, deps, { bookingId, reason: 'abandoned', by: 'system' }));
    await deps.db.transaction((tx) => applyIntentUpdate(tx, deps, succeeded(bookingId, intent.providerPaymentId)));
    await deps.db.transaction((tx) => applyIntentUpdate(tx, deps, succeeded(bookingId, intent.providerPaymentId)));
    expect(await outcome(bookingId)).toEqual({ booking: 'cancelled', payment: 'refunded', refundedCents: 2500, refundAudits: 1 });
  });

  it.skipIf(kind === 'pglite')(
    'the payment reads the booking while a staff cancel is still open, and the cancel commits before the payment takes the lock → refunded (PostgreSQL: PGlite has one connection and cannot interleave)',
    async () => {
      const { bookingId } = await bookingIn(deps, 'awaiting_payment');
      const intent = await createPaymentIntent(deps, { bookingId });

      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const holding = new Promise<void>((resolve) => (locked = resolve));
      // Staff cancel: takes the slot and row locks, refunds what it sees (nothing yet), and waits.
      const cancel = deps.db.transaction(async (tx) => {
        await cancelBookingRecord(tx, deps, { bookingId, reason: 'customer called', by: 'staff' });
        await refundBookingPayment(tx, deps, { bookingId, reason: 'customer called' });
        locked();
        await released;
      });
      await holding;

      // The payment: its reads see the booking still awaiting payment; then it waits on the lock.
      const payment = deps.db.transaction((tx) => applyIntentUpdate(tx, deps, succeeded(bookingId, intent.providerPaymentId)));
      await until(async () => {
        const rows = await queryRows<{ n: number }>(deps.db, sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`);
        return rows[0]!.n > 0;
      }, 5_000, 'the payment to wait on the booking lock');
      release();
      await cancel;
      await payment;

      expect(await outcome(bookingId)).toEqual({ booking: 'cancelled', payment: 'refunded', refundedCents: 2500, refundAudits: 1 });
      const paidAfterCancel = await deps.db.select().from(auditLog).where(eq(auditLog.action, 'booking.paid_after_cancel'));
      expect(paidAfterCancel.some((a) => a.entityId === bookingId)).toBe(true);
    },
  );
});
