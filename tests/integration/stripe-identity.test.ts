import { createServer, type IncomingMessage, type Server } from 'node:http';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStripeIdentityProvider } from '../../src/server/adapters/identity/stripe.ts';
import { identityVerifications, outbox, processedEvents } from '../../src/server/db/schema.ts';
import type { Deps } from '../../src/server/deps.ts';
import { confirmBooking } from '../../src/server/features/booking/service.ts';
import { createTestDeps, startTestApp, type TestServer } from '../helpers/app.ts';
import { Writable } from 'node:stream';
import { createApp } from '../../src/server/app.ts';
import { createLogger } from '../../src/server/logger.ts';
import { identityMessages } from '../../src/shared/notarial-act.ts';
import { dbKinds } from '../helpers/db.ts';
import { bookingIn } from '../helpers/bookings.ts';
import { trpcHttp } from '../helpers/staff.ts';

/**
 * Stripe Identity: the adapter's requests against a local stand-in for
 * api.stripe.com, and the webhook (`identity.verification_session.*` on the
 * existing endpoint) with events signed by the stripe package's test helper.
 * The outcome is read back from the (stand-in) API, never taken from the event.
 */
interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  form: URLSearchParams;
}
const seen: Seen[] = [];
const sessions = new Map<string, { status: string; lastError: { code: string; reason: string } | null; bookingId: string; verified: boolean; noUrl?: boolean }>();
/** The stand-in answers new sessions without a hosted page's URL (an outage on Stripe's side). */
let createWithoutUrl = false;
let server: Server;
let base: string;

function sessionBody(id: string) {
  const s = sessions.get(id)!;
  return {
    id,
    object: 'identity.verification_session',
    type: 'document',
    status: s.status,
    url: s.status === 'requires_input' && !s.noUrl ? `https://verify.stripe.com/start/${id}` : null,
    client_secret: `${id}_secret`,
    metadata: { bookingId: s.bookingId, attempt: '1' },
    last_error: s.lastError,
    verified_outputs: s.verified ? { first_name: 'Grace', last_name: 'Hopper', dob: { day: 9, month: 12, year: 1906 } } : null,
    last_verification_report: s.verified
      ? {
          id: 'vr_1',
          object: 'identity.verification_report',
          document: { type: 'driving_license', issuing_country: 'US', first_name: 'Grace', last_name: 'Hopper', expiration_date: { day: 1, month: 7, year: 2030 }, number: 'H1234-5678-0912', address: { state: 'IA' }, status: 'verified', error: null },
          selfie: { status: 'verified', error: null },
        }
      : null,
  };
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const url = new URL(req.url!, 'http://stand-in');
      const form = new URLSearchParams(req.method === 'GET' ? url.search : raw);
      seen.push({ method: req.method!, path: url.pathname, headers: req.headers, form });
      res.setHeader('Content-Type', 'application/json');
      if (req.method === 'POST' && url.pathname === '/v1/identity/verification_sessions') {
        const id = `vs_standin_${sessions.size + 1}`;
        sessions.set(id, { status: 'requires_input', lastError: null, bookingId: form.get('metadata[bookingId]') ?? '', verified: false, noUrl: createWithoutUrl });
        return res.end(JSON.stringify(sessionBody(id)));
      }
      const match = url.pathname.match(/^\/v1\/identity\/verification_sessions\/(vs_\w+)$/);
      if (req.method === 'GET' && match && sessions.has(match[1]!)) return res.end(JSON.stringify(sessionBody(match[1]!)));
      res.statusCode = 404;
      res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'No such verification session' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('Stripe Identity adapter (SDK against a local stand-in)', () => {
  it('creates a document session with a matching live selfie, and reads the outcome back with the report expanded', async () => {
    const provider = createStripeIdentityProvider({ secretKey: 'sk_test_identity', apiBase: base });
    const started = await provider.createSession({ bookingId: 'b-1', attempt: 1, returnUrl: 'https://notary.test/', idempotencyKey: 'identity-b-1-1' });
    expect(started.url).toMatch(/^https:\/\/verify\.stripe\.com\/start\/vs_standin_/);
    const create = seen.find((s) => s.method === 'POST')!;
    expect(create.headers.authorization).toBe('Bearer sk_test_identity');
    expect(create.headers['idempotency-key']).toBe('identity-b-1-1');
    expect(create.form.get('type')).toBe('document');
    expect(create.form.get('options[document][require_matching_selfie]')).toBe('true');
    expect(create.form.get('options[document][require_live_capture]')).toBe('true');
    expect(create.form.get('metadata[bookingId]')).toBe('b-1');
    expect(create.form.get('return_url')).toBe('https://notary.test/');

    sessions.set(started.sessionId, { ...sessions.get(started.sessionId)!, status: 'verified', verified: true });
    expect(await provider.retrieve(started.sessionId)).toEqual({
      status: 'verified',
      failureMessage: null,
      nameOnId: 'Grace Hopper',
      documentType: 'driving_license',
      issuingState: 'IA',
      expiresOn: '2030-07-01',
      selfieMatch: true,
      documentNumberLast4: '0912',
      bookingId: 'b-1',
    });
    const get = seen.at(-1)!;
    expect(get.form.getAll('expand[0]')).toEqual(['verified_outputs']);
    expect(get.form.getAll('expand[1]')).toEqual(['last_verification_report']);
    // The document number only when asked for explicitly; only its last 4 are kept.
    expect(get.form.getAll('expand[2]')).toEqual(['last_verification_report.document.number']);
  });
});

const webhookSecret = 'whsec_identity_tests';
const signer = new Stripe('sk_test_signer').webhooks;

describe.each(dbKinds)('identity webhook on %s', (kind) => {
  let app: TestServer;
  beforeAll(async () => {
    app = await startTestApp(kind, {
      STRIPE_SECRET_KEY: 'sk_test_identity_app',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_identity_app',
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_API_BASE: base,
      BOOKING_SLOT_CAPACITY: '100',
    });
  });
  afterAll(() => app.close());

  async function paidBooking(deps: Deps) {
    const { bookingId } = await bookingIn(deps, 'awaiting_payment');
    const { manageToken } = await deps.db.transaction((tx) => confirmBooking(tx, deps, { bookingId }));
    return { bookingId, token: manageToken! };
  }
  let counter = 0;
  async function send(type: string, sessionId: string, options: { forge?: boolean; id?: string } = {}) {
    const event = { id: options.id ?? `evt_identity_${++counter}_${Date.now()}`, object: 'event', type, created: Math.floor(Date.now() / 1000), livemode: false, data: { object: { id: sessionId, object: 'identity.verification_session', status: 'verified' } } };
    const payload = JSON.stringify(event);
    const header = signer.generateTestHeaderString({ payload, secret: options.forge ? 'whsec_forged' : webhookSecret });
    const res = await fetch(`${app.url}/api/stripe/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': header }, body: payload });
    return { status: res.status, body: (await res.json()) as { outcome?: string; error?: string }, eventId: event.id };
  }
  const row = async (sessionId: string) => (await app.deps.db.select().from(identityVerifications).where(eq(identityVerifications.providerSessionId, sessionId)))[0]!;

  it('starts a session from the manage link; a valid signed event is read back and recorded once; a forged one changes nothing', async () => {
    const { bookingId, token } = await paidBooking(app.deps);
    const started = await trpcHttp(app.url, 'manageAct.startIdentity', { input: { token }, headers: { origin: app.url } });
    const url = (started.body.result!.data.json as { url: string }).url;
    const sessionId = url.split('/').at(-1)!;
    expect((await row(sessionId)).status).toBe('pending');

    // The event claims "verified" but Stripe (the stand-in) has not verified yet: a forged event is refused outright.
    sessions.set(sessionId, { ...sessions.get(sessionId)!, status: 'verified', verified: true });
    expect(await send('identity.verification_session.verified', sessionId, { forge: true })).toMatchObject({ status: 400, body: { error: 'Invalid signature' } });
    expect((await row(sessionId)).status).toBe('pending');

    const valid = await send('identity.verification_session.verified', sessionId);
    expect(valid).toMatchObject({ status: 200, body: { outcome: 'processed' } });
    expect(await row(sessionId)).toMatchObject({ status: 'verified', nameOnId: 'Grace Hopper', documentType: 'driving_license', issuingState: 'IA', expiresOn: '2030-07-01', selfieMatch: true, bookingId });
    // Redelivered: recorded once.
    expect(await send('identity.verification_session.verified', sessionId, { id: valid.eventId })).toMatchObject({ status: 200, body: { outcome: 'duplicate' } });
    expect(await app.deps.db.select().from(processedEvents).where(eq(processedEvents.id, valid.eventId))).toHaveLength(1);
  });

  it('a session back in requires_input with an error is a failed attempt with Stripe’s reason; the third tells staff', async () => {
    const { bookingId, token } = await paidBooking(app.deps);
    for (let attempt = 1; attempt <= 3; attempt++) {
      const started = await trpcHttp(app.url, 'manageAct.startIdentity', { input: { token }, headers: { origin: app.url } });
      const sessionId = (started.body.result!.data.json as { url: string }).url.split('/').at(-1)!;
      sessions.set(sessionId, { ...sessions.get(sessionId)!, status: 'requires_input', lastError: { code: 'document_expired', reason: 'The document is expired.' } });
      expect((await send('identity.verification_session.requires_input', sessionId)).body.outcome).toBe('processed');
      expect(await row(sessionId)).toMatchObject({ status: 'failed', failureMessage: 'The document is expired.', attempt });
    }
    const locked = await trpcHttp(app.url, 'manageAct.startIdentity', { input: { token }, headers: { origin: app.url } });
    expect(locked.status).toBe(412);
    expect(await app.deps.db.select().from(outbox).where(eq(outbox.dedupeKey, `identity-exhausted:${bookingId}`))).toHaveLength(1);
  });

  it('"Verify your identity" when Stripe returns no URL: a clear 503, no attempt spent; the next try is attempt 1', async () => {
    const { bookingId, token } = await paidBooking(app.deps);
    createWithoutUrl = true;
    try {
      const refused = await trpcHttp(app.url, 'manageAct.startIdentity', { input: { token }, headers: { origin: app.url } });
      expect(refused.status).toBe(503);
      expect(refused.body.error?.json.message).toBe(identityMessages.providerUnavailable);
    } finally {
      createWithoutUrl = false;
    }
    expect(await app.deps.db.select().from(identityVerifications).where(eq(identityVerifications.bookingId, bookingId))).toHaveLength(0);
    const started = await trpcHttp(app.url, 'manageAct.startIdentity', { input: { token }, headers: { origin: app.url } });
    expect(started.status).toBe(200);
    const rows = await app.deps.db.select().from(identityVerifications).where(eq(identityVerifications.bookingId, bookingId));
    expect(rows.map((r) => r.attempt)).toEqual([1]);
  });

  it('an event for a session Stripe cannot return is a 500 (Stripe retries) and is not marked processed', async () => {
    const res = await send('identity.verification_session.verified', 'vs_unknown_1');
    expect(res.status).toBe(500);
    expect(await app.deps.db.select().from(processedEvents).where(eq(processedEvents.id, res.eventId))).toHaveLength(0);
  });
});

/**
 * Attack (finding 12): a webhook with a bad signature used to log the whole
 * error, which carries the payload — customers' names and emails. Expected:
 * the log has the reason and the event's id, nothing of the body.
 */
describe('a webhook with a bad signature', () => {
  it('logs the reason and the event id only', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const context = await createTestDeps('pglite', { STRIPE_SECRET_KEY: 'sk_test_log', STRIPE_PUBLISHABLE_KEY: 'pk_test_log', STRIPE_WEBHOOK_SECRET: webhookSecret, STRIPE_API_BASE: base });
    const { app } = await createApp({ ...context.deps, log: createLogger('info', sink) }, { pages: false });
    const listener = createServer(app);
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    try {
      const payload = JSON.stringify({ id: 'evt_forged_42', object: 'event', type: 'payment_intent.succeeded', data: { object: { receipt_email: 'grace.secret@example.com', shipping: { name: 'Grace Secret' } } } });
      const header = signer.generateTestHeaderString({ payload, secret: 'whsec_forged' });
      const res = await fetch(`http://127.0.0.1:${(listener.address() as { port: number }).port}/api/stripe/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': header }, body: payload });
      expect(res.status).toBe(400);
      await res.text();
      const rejected = lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line.msg === 'stripe webhook rejected');
      expect(rejected).toMatchObject({ eventId: 'evt_forged_42', reason: expect.stringMatching(/signature/i) });
      expect(lines.join('\n')).not.toMatch(/grace\.secret|Grace Secret/);
    } finally {
      listener.closeAllConnections();
      await new Promise<void>((resolve) => listener.close(() => resolve()));
      await context.close();
    }
  });
});
