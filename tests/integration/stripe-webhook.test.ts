import { and, eq, sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, bookings, payments, processedEvents } from '../../src/server/db/schema.ts';
import { startTestApp, type TestServer } from '../helpers/app.ts';
import { dbKinds } from '../helpers/db.ts';
import { bookingIn } from '../helpers/bookings.ts';

/**
 * The webhook as Stripe calls it: real HTTP, bodies signed with Stripe's own
 * test-header helper, against the app in Stripe mode.
 */
const webhookSecret = 'whsec_test_secret_for_webhook_tests';
const stripeEnv = {
  STRIPE_SECRET_KEY: 'sk_test_webhooks',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_webhooks',
  STRIPE_WEBHOOK_SECRET: webhookSecret,
  // Nothing listens here: the webhook path must not need to call Stripe.
  STRIPE_API_BASE: 'http://127.0.0.1:9',
  // Every test books the same slot on one database.
  BOOKING_SLOT_CAPACITY: '1000',
};
const signer = new Stripe('sk_test_signer').webhooks;

let eventCounter = 0;
function intentEvent(type: string, intent: { id: string; bookingId: string; status: string; amount?: number; error?: string; method?: string }) {
  return {
    id: `evt_test_${++eventCounter}_${Date.now()}`,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: {
      object: {
        id: intent.id,
        object: 'payment_intent',
        amount: intent.amount ?? 2500,
        currency: 'usd',
        status: intent.status,
        metadata: { bookingId: intent.bookingId, reference: 'NOTARY-TEST' },
        payment_method: intent.method ? { id: 'pm_1', object: 'payment_method', type: intent.method } : null,
        payment_method_types: ['card', 'cashapp'],
        last_payment_error: intent.error ? { message: intent.error, type: 'card_error' } : null,
      },
    },
  };
}

describe.each(dbKinds)('POST /api/stripe/webhook on %s', (kind) => {
  let app: TestServer;

  beforeAll(async () => {
    app = await startTestApp(kind, stripeEnv);
  });
  afterAll(() => app.close());

  async function send(event: object, options: { timestamp?: number; tamper?: boolean; signature?: string } = {}) {
    const payload = JSON.stringify(event);
    const header =
      options.signature ??
      signer.generateTestHeaderString({ payload, secret: webhookSecret, timestamp: options.timestamp ?? Math.floor(Date.now() / 1000) });
    const body = options.tamper ? payload.replace('"amount":2500', '"amount":1') : payload;
    const res = await fetch(`${app.url}/api/stripe/webhook`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': header },
      body,
    });
    return { status: res.status, body: (await res.json()) as { received?: boolean; outcome?: string; error?: string } };
  }

  async function newPaidIntent() {
    const { bookingId } = await bookingIn(app.deps, 'awaiting_payment');
    const providerPaymentId = `pi_test_${bookingId.slice(0, 8)}`;
    await app.deps.db.insert(payments).values({ bookingId, provider: 'stripe', providerPaymentId, amountCents: 2500, status: 'requires_payment_method' });
    return { bookingId, providerPaymentId };
  }

  const bookingStatus = async (id: string) => (await app.deps.db.select({ s: bookings.status }).from(bookings).where(eq(bookings.id, id)))[0]?.s;
  const payment = async (id: string) => (await app.deps.db.select().from(payments).where(eq(payments.providerPaymentId, id)))[0];
  const confirmations = async (id: string) =>
    (
      await app.deps.db
        .select({ n: sql<number>`count(*)::int` })
        .from(auditLog)
        .where(and(eq(auditLog.entityId, id), eq(auditLog.action, 'booking.status_changed'), sql`${auditLog.data}->>'to' = 'confirmed'`))
    )[0]!.n;

  it('confirms the booking on a valid payment_intent.succeeded and records the event', async () => {
    const { bookingId, providerPaymentId } = await newPaidIntent();
    const event = intentEvent('payment_intent.succeeded', { id: providerPaymentId, bookingId, status: 'succeeded', method: 'card' });
    expect(await send(event)).toEqual({ status: 200, body: { received: true, outcome: 'processed' } });
    expect(await bookingStatus(bookingId)).toBe('confirmed');
    expect(await payment(providerPaymentId)).toMatchObject({ status: 'succeeded', method: 'card' });
    const recorded = await app.deps.db.select().from(processedEvents).where(eq(processedEvents.id, event.id));
    expect(recorded).toMatchObject([{ provider: 'stripe', type: 'payment_intent.succeeded' }]);
  });

  it('rejects a tampered body with 400 and changes nothing', async () => {
    const { bookingId, providerPaymentId } = await newPaidIntent();
    const event = intentEvent('payment_intent.succeeded', { id: providerPaymentId, bookingId, status: 'succeeded' });
    expect(await send(event, { tamper: true })).toEqual({ status: 400, body: { error: 'Invalid signature' } });
    expect(await send(event, { signature: 't=1,v1=deadbeef' })).toMatchObject({ status: 400 });
    const missing = await fetch(`${app.url}/api/stripe/webhook`, { method: 'POST', body: JSON.stringify(event) });
    expect(missing.status).toBe(400);
    expect(await bookingStatus(bookingId)).toBe('awaiting_payment');
    expect(await app.deps.db.select().from(processedEvents).where(eq(processedEvents.id, event.id))).toEqual([]);
  });

  it('rejects a correctly signed but stale event (older than 300 s)', async () => {
    const { bookingId, providerPaymentId } = await newPaidIntent();
    const event = intentEvent('payment_intent.succeeded', { id: providerPaymentId, bookingId, status: 'succeeded' });
    expect((await send(event, { timestamp: Math.floor(Date.now() / 1000) - 301 })).status).toBe(400);
    expect(await bookingStatus(bookingId)).toBe('awaiting_payment');
    // The same event freshly signed (Stripe's retry) goes through.
    expect((await send(event)).status).toBe(200);
    expect(await bookingStatus(bookingId)).toBe('confirmed');
  });

  it('processes a duplicate delivery once', async () => {
    const { bookingId, providerPaymentId } = await newPaidIntent();
    const event = intentEvent('payment_intent.succeeded', { id: providerPaymentId, bookingId, status: 'succeeded' });
    const [a, b] = await Promise.all([send(event), send(event)]);
    expect([a.body.outcome, b.body.outcome].sort()).toEqual(['duplicate', 'processed']);
    expect((await send(event)).body.outcome).toBe('duplicate');
    expect(await confirmations(bookingId)).toBe(1);
  });

  it('does not let late events undo a success (out of order)', async () => {
    const { bookingId, providerPaymentId } = await newPaidIntent();
    await send(intentEvent('payment_intent.succeeded', { id: providerPaymentId, bookingId, status: 'succeeded' }));
    expect(await send(intentEvent('payment_intent.processing', { id: providerPaymentId, bookingId, status: 'processing' }))).toMatchObject({ status: 200 });
    await send(intentEvent('payment_intent.payment_failed', { id: providerPaymentId, bookingId, status: 'requires_payment_method', error: 'Your card was declined.' }));
    expect(await bookingStatus(bookingId)).toBe('confirmed');
    expect(await payment(providerPaymentId)).toMatchObject({ status: 'succeeded', failureMessage: null });
    expect(await confirmations(bookingId)).toBe(1);
  });

  it('keeps a Cash App payment processing, then confirms it when it succeeds', async () => {
    const { bookingId, providerPaymentId } = await newPaidIntent();
    await send(intentEvent('payment_intent.processing', { id: providerPaymentId, bookingId, status: 'processing', method: 'cashapp' }));
    expect(await bookingStatus(bookingId)).toBe('payment_processing');
    expect(await payment(providerPaymentId)).toMatchObject({ status: 'processing', method: 'cashapp' });
    await send(intentEvent('payment_intent.succeeded', { id: providerPaymentId, bookingId, status: 'succeeded' }));
    expect(await bookingStatus(bookingId)).toBe('confirmed');
    // The method learnt earlier is kept when a later event does not carry it.
    expect(await payment(providerPaymentId)).toMatchObject({ status: 'succeeded', method: 'cashapp' });
  });

  it('records a failure message and lets a failed Cash App payment be paid again', async () => {
    const { bookingId, providerPaymentId } = await newPaidIntent();
    await send(intentEvent('payment_intent.processing', { id: providerPaymentId, bookingId, status: 'processing', method: 'cashapp' }));
    await send(
      intentEvent('payment_intent.payment_failed', { id: providerPaymentId, bookingId, status: 'requires_payment_method', error: 'The payment was declined by Cash App.' }),
    );
    expect(await payment(providerPaymentId)).toMatchObject({ status: 'requires_payment_method', failureMessage: 'The payment was declined by Cash App.' });
    expect(await bookingStatus(bookingId)).toBe('awaiting_payment');
  });

  it('places an intent it never recorded from its metadata', async () => {
    const { bookingId } = await bookingIn(app.deps, 'awaiting_payment');
    const providerPaymentId = `pi_unrecorded_${bookingId.slice(0, 8)}`;
    await send(intentEvent('payment_intent.succeeded', { id: providerPaymentId, bookingId, status: 'succeeded', method: 'card' }));
    expect(await payment(providerPaymentId)).toMatchObject({ bookingId, provider: 'stripe', status: 'succeeded', amountCents: 2500 });
    expect(await bookingStatus(bookingId)).toBe('confirmed');
  });

  it('never confirms a payment below the booking price', async () => {
    const { bookingId, providerPaymentId } = await newPaidIntent();
    await send(intentEvent('payment_intent.succeeded', { id: providerPaymentId, bookingId, status: 'succeeded', amount: 100 }));
    expect(await bookingStatus(bookingId)).toBe('awaiting_payment');
  });

  it('records refunds from charge.refunded, never lowering the total', async () => {
    const { bookingId, providerPaymentId } = await newPaidIntent();
    await send(intentEvent('payment_intent.succeeded', { id: providerPaymentId, bookingId, status: 'succeeded' }));
    const charge = (amountRefunded: number, refunded: boolean) => ({
      id: `evt_charge_${++eventCounter}`,
      object: 'event',
      type: 'charge.refunded',
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          id: 'ch_1',
          object: 'charge',
          payment_intent: providerPaymentId,
          amount: 2500,
          amount_refunded: amountRefunded,
          refunded,
          refunds: { object: 'list', data: [{ id: `re_${amountRefunded}`, object: 'refund' }] },
        },
      },
    });
    await send(charge(2500, true));
    await send(charge(1000, false));
    expect(await payment(providerPaymentId)).toMatchObject({ status: 'refunded', refundedCents: 2500, providerRefundId: 're_2500' });
  });

  it('acknowledges event types it does not handle', async () => {
    const event = { id: `evt_other_${Date.now()}`, object: 'event', type: 'customer.created', data: { object: { id: 'cus_1' } } };
    expect(await send(event)).toEqual({ status: 200, body: { received: true, outcome: 'ignored' } });
  });
});

describe('POST /api/stripe/webhook without Stripe keys', () => {
  it('is not there (404)', async () => {
    const app = await startTestApp('pglite');
    try {
      const res = await fetch(`${app.url}/api/stripe/webhook`, { method: 'POST', body: '{}' });
      expect(res.status).toBe(404);
    } finally {
      await app.close();
    }
  });
});
