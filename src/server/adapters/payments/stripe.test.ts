import { createServer, type IncomingMessage, type Server } from 'node:http';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDeps, type TestContext } from '../../../../tests/helpers/app.ts';
import { bookingIn } from '../../../../tests/helpers/bookings.ts';
import { payments } from '../../db/schema.ts';
import { createPaymentIntent, syncPayment } from '../../features/payments/service.ts';
import { createStripePaymentProvider } from './stripe.ts';

/**
 * The Stripe adapter against a local node:http server standing in for
 * api.stripe.com (STRIPE_API_BASE): what the SDK actually sends is checked,
 * and canned answers in Stripe's shapes come back.
 */
interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  form: URLSearchParams;
}

let server: Server;
let base: string;
const seen: Seen[] = [];
let nextIntentStatus = 'requires_payment_method';
let nextMethod: string | null = null;

function intentBody(id: string, form: URLSearchParams) {
  return {
    id,
    object: 'payment_intent',
    amount: Number(form.get('amount') ?? 2500),
    currency: form.get('currency') ?? 'usd',
    status: nextIntentStatus,
    client_secret: `${id}_secret_abc`,
    metadata: { bookingId: form.get('metadata[bookingId]'), reference: form.get('metadata[reference]') },
    payment_method: nextMethod ? { id: 'pm_1', object: 'payment_method', type: nextMethod } : null,
    payment_method_types: ['card', 'cashapp'],
    last_payment_error: null,
  };
}

beforeAll(async () => {
  const intents = new Map<string, URLSearchParams>();
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const url = new URL(req.url!, 'http://stand-in');
      const form = new URLSearchParams(req.method === 'GET' ? url.search : raw);
      seen.push({ method: req.method!, path: url.pathname, headers: req.headers, form });
      res.setHeader('Content-Type', 'application/json');
      res.setHeader('Request-Id', `req_${seen.length}`);
      if (req.method === 'POST' && url.pathname === '/v1/payment_intents') {
        const id = `pi_standin_${intents.size + 1}`;
        intents.set(id, form);
        return res.end(JSON.stringify(intentBody(id, form)));
      }
      const retrieve = url.pathname.match(/^\/v1\/payment_intents\/(pi_[\w]+)$/);
      if (req.method === 'GET' && retrieve) {
        const form = intents.get(retrieve[1]!);
        if (!form) {
          res.statusCode = 404;
          return res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'No such payment_intent' } }));
        }
        return res.end(JSON.stringify(intentBody(retrieve[1]!, form)));
      }
      if (req.method === 'POST' && url.pathname === '/v1/refunds') {
        return res.end(JSON.stringify({ id: 're_standin_1', object: 'refund', status: 'succeeded', amount: Number(form.get('amount')) }));
      }
      res.statusCode = 404;
      res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'Unrecognized request URL' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  seen.length = 0;
  nextIntentStatus = 'requires_payment_method';
  nextMethod = null;
});

describe('Stripe adapter (SDK against a local stand-in)', () => {
  it('creates the PaymentIntent with amount, currency, metadata, methods and the Idempotency-Key header', async () => {
    const provider = createStripePaymentProvider({ secretKey: 'sk_test_adapter', webhookSecret: 'whsec_x', apiBase: base });
    const created = await provider.createIntent({
      bookingId: '7b6f3c1e-1111-4222-8333-944455556666',
      reference: 'NOTARY-ABCD2345',
      amountCents: 2500,
      currency: 'usd',
      idempotencyKey: 'booking-7b6f3c1e-1111-4222-8333-944455556666-2500',
      description: 'Online Notary Service — NOTARY-ABCD2345',
    });
    expect(created).toEqual({ providerPaymentId: 'pi_standin_1', clientSecret: 'pi_standin_1_secret_abc', status: 'requires_payment_method' });

    expect(seen).toHaveLength(1);
    const request = seen[0]!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1/payment_intents');
    expect(request.headers.authorization).toBe('Bearer sk_test_adapter');
    expect(request.headers['idempotency-key']).toBe('booking-7b6f3c1e-1111-4222-8333-944455556666-2500');
    expect(request.form.get('amount')).toBe('2500');
    expect(request.form.get('currency')).toBe('usd');
    expect(request.form.get('metadata[bookingId]')).toBe('7b6f3c1e-1111-4222-8333-944455556666');
    expect(request.form.get('metadata[reference]')).toBe('NOTARY-ABCD2345');
    expect(request.form.getAll('allowed_payment_method_types[0]')).toEqual(['card']);
    expect(request.form.getAll('allowed_payment_method_types[1]')).toEqual(['cashapp']);
    expect(request.form.get('description')).toBe('Online Notary Service — NOTARY-ABCD2345');
  });

  it('retrieves with the payment method expanded and reads card or Cash App from it', async () => {
    const provider = createStripePaymentProvider({ secretKey: 'sk_test_adapter', webhookSecret: 'whsec_x', apiBase: base });
    const { providerPaymentId } = await provider.createIntent({
      bookingId: 'b',
      reference: 'NOTARY-X',
      amountCents: 2500,
      currency: 'usd',
      idempotencyKey: 'k-retrieve',
      description: 'd',
    });
    nextIntentStatus = 'processing';
    nextMethod = 'cashapp';
    expect(await provider.retrieve(providerPaymentId)).toEqual({
      status: 'processing',
      amountCents: 2500,
      currency: 'usd',
      method: 'cashapp',
      failureMessage: null,
      bookingId: 'b',
    });
    const get = seen.at(-1)!;
    expect(get.method).toBe('GET');
    expect(get.form.getAll('expand[0]')).toEqual(['payment_method']);
  });

  it('refunds with an idempotency key', async () => {
    const provider = createStripePaymentProvider({ secretKey: 'sk_test_adapter', webhookSecret: 'whsec_x', apiBase: base });
    expect(await provider.refund({ providerPaymentId: 'pi_1', amountCents: 2500, idempotencyKey: 'refund-pi_1-2500' })).toEqual({
      refundId: 're_standin_1',
      status: 'succeeded',
    });
    const request = seen.at(-1)!;
    expect(request.path).toBe('/v1/refunds');
    expect(request.headers['idempotency-key']).toBe('refund-pi_1-2500');
    expect(request.form.get('payment_intent')).toBe('pi_1');
    expect(request.form.get('amount')).toBe('2500');
  });
});

describe('payments service in Stripe mode', () => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestDeps('pglite', {
      STRIPE_SECRET_KEY: 'sk_test_service',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_service',
      STRIPE_WEBHOOK_SECRET: 'whsec_service',
      STRIPE_API_BASE: base,
      BOOKING_BASE_FEE_CENTS: '2700',
    });
  });
  afterEach(() => ctx.close());

  it('asks Stripe for the booking’s price under one key per booking and amount, and stores the intent', async () => {
    const { bookingId, reference } = await bookingIn(ctx.deps, 'awaiting_payment');
    const setup = await createPaymentIntent(ctx.deps, { bookingId });
    expect(setup).toMatchObject({ mode: 'stripe', amountCents: 2700, currency: 'usd' });
    expect(setup.clientSecret).toBe(`${setup.providerPaymentId}_secret_abc`);
    const request = seen.find((s) => s.path === '/v1/payment_intents')!;
    expect(request.headers['idempotency-key']).toBe(`booking-${bookingId}-2700`);
    expect(request.form.get('amount')).toBe('2700');
    expect(request.form.get('metadata[bookingId]')).toBe(bookingId);
    expect(request.form.get('metadata[reference]')).toBe(reference);
    const [row] = await ctx.deps.db.select().from(payments).where(eq(payments.bookingId, bookingId));
    expect(row).toMatchObject({ provider: 'stripe', providerPaymentId: setup.providerPaymentId, amountCents: 2700, currency: 'usd' });
  });

  it('after the Payment Element returns, trusts what Stripe says rather than the browser', async () => {
    const { bookingId } = await bookingIn(ctx.deps, 'awaiting_payment');
    await createPaymentIntent(ctx.deps, { bookingId });
    nextIntentStatus = 'succeeded';
    nextMethod = 'card';
    const receipt = await syncPayment(ctx.deps, { bookingId });
    expect(receipt).toMatchObject({ status: 'succeeded', method: 'card', amountCents: 2700 });
  });
});
