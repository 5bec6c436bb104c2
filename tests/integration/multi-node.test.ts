import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.ts';
import { openPostgres, type Database } from '../../src/server/db/client.ts';
import { bookings, outbox, payments, processedEvents } from '../../src/server/db/schema.ts';
import { buildDeps, type Deps } from '../../src/server/deps.ts';
import { createLogger } from '../../src/server/logger.ts';
import { slotTakenMessage } from '../../src/shared/booking.ts';
import { addDays, localDateOf, parseIsoDate, zonedInstant } from '../../src/shared/time.ts';
import { closeSockets, connected, connectStaff, connectVisitor, nextEvent, newVisitorCookie } from '../helpers/chat.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { startTestSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { createStaffUser } from '../helpers/staff.ts';
import { bookingClient, putBytes } from './booking-helpers.ts';
import { rejectionOf } from '../helpers/async.ts';

/**
 * Two real server processes (the built production server, `npm run build`
 * first) on different ports, sharing one PostgreSQL database, one document
 * folder and one SMTP server — a two-node deployment on one machine. Both
 * start at the same moment on an empty database (migrations must not race),
 * and both run the outbox worker.
 */
const adminUrl = process.env.TEST_DATABASE_URL;
const built = existsSync('dist/server/entry-server.js');
if (!adminUrl) console.warn('multi-node test skipped: set TEST_DATABASE_URL (a PostgreSQL server) to run it');

const webhookSecret = 'whsec_multi_node_test';
const env = {
  STRIPE_SECRET_KEY: 'sk_test_multi_node',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_multi_node',
  STRIPE_WEBHOOK_SECRET: webhookSecret,
  // Nothing listens here: nothing in these journeys may need to call Stripe.
  STRIPE_API_BASE: 'http://127.0.0.1:9',
  BOOKING_SLOT_CAPACITY: '1',
  // Every request names its client, so per-address rate limits stay out of the way.
  TRUST_PROXY: '1',
};

let address = 0;
const fromNewAddress = () => ({ 'x-forwarded-for': `198.51.100.${++address}` });

describe.skipIf(!adminUrl)('two nodes on one PostgreSQL database', () => {
  let databaseName: string;
  let databaseUrl: string;
  let dataDir: string;
  let smtp: TestSmtp;
  let nodeA: RunningServer;
  let nodeB: RunningServer;
  let database: Database;
  let deps: Deps;

  beforeAll(async () => {
    if (!built) throw new Error('the multi-node test runs the built server: run `npm run build` first');
    databaseName = `t_nodes_${randomUUID().replaceAll('-', '')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${databaseName}`);
    await admin.end();
    const url = new URL(adminUrl!);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();
    dataDir = mkdtempSync(path.join(tmpdir(), 'notary-nodes-'));
    smtp = await startTestSmtp();
    const nodeEnv = { ...env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, SMTP_URL: smtp.url };
    [nodeA, nodeB] = await Promise.all([startServer(nodeEnv), startServer(nodeEnv)]);
    // The test's own view of the shared state (staff accounts, assertions).
    database = await openPostgres(databaseUrl, { max: 3 });
    deps = await buildDeps(loadConfig({ NODE_ENV: 'test', ...nodeEnv }), database, createLogger('silent'));
  }, 120_000);

  afterAll(async () => {
    closeSockets();
    await Promise.all([nodeA?.stop(), nodeB?.stop()]);
    await database?.close();
    await smtp?.stop();
    if (databaseName) {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
      await admin.end();
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  afterEach(() => closeSockets());

  const slot = (days: number, minutes: number) =>
    zonedInstant(addDays(parseIsoDate(localDateOf(new Date(), 'America/Chicago')), days), minutes, 'America/Chicago');

  it('both nodes migrated the empty database at once and are ready', async () => {
    for (const node of [nodeA, nodeB]) {
      const res = await fetch(`${node.url}/readyz`);
      expect(await res.json()).toEqual({ status: 'ok', draining: false, checks: { database: 'ok', storage: 'ok' } });
    }
  });

  it('a visitor on one node and staff on the other talk live', async () => {
    const staff = await createStaffUser(deps, { role: 'staff', totp: false });
    const staffSocket = connectStaff(nodeB.url, await staff.sessionCookie());
    await connected(staffSocket);
    const visitor = connectVisitor(nodeA.url, await newVisitorCookie(nodeA.url));
    await connected(visitor);

    const atStaff = nextEvent<{ message: { body: string }; conversation: { id: string } }>(staffSocket, 'message', (e) => e.message.body === 'Hello from node A');
    const sent = await visitor.timeout(5000).emitWithAck('send', { clientId: randomUUID(), body: 'Hello from node A' });
    expect(sent.ok).toBe(true);
    const { conversation } = await atStaff;

    const atVisitor = nextEvent<{ body: string }>(visitor, 'message', (m) => m.body === 'Hello from node B');
    const reply = await staffSocket.timeout(5000).emitWithAck('send', { conversationId: conversation.id, clientId: randomUUID(), body: 'Hello from node B' });
    expect(reply.ok).toBe(true);
    expect((await atVisitor).body).toBe('Hello from node B');
  });

  it('a hold taken on one node is respected by the other, and a simultaneous race has one winner', async () => {
    const a = bookingClient(nodeA.url);
    const b = bookingClient(nodeB.url);
    const first = await a.booking.start.mutate({ timeZone: 'America/Chicago' });
    const second = await b.booking.start.mutate({ timeZone: 'America/Chicago' });
    const startsAt = slot(2, 9 * 60);
    await a.booking.hold.mutate({ bookingId: first.bookingId, startsAt, timeZone: 'America/Chicago' });
    expect(await rejectionOf(b.booking.hold.mutate({ bookingId: second.bookingId, startsAt, timeZone: 'America/Chicago' }))).toMatchObject({
      code: 'CONFLICT',
      message: slotTakenMessage,
    });

    const racers = await Promise.all([a, b, a, b].map(async (client) => ({ client, ...(await client.booking.start.mutate({ timeZone: 'America/Chicago' })) })));
    const contested = slot(2, 9 * 60 + 30);
    const results = await Promise.allSettled(racers.map(({ client, bookingId }) => client.booking.hold.mutate({ bookingId, startsAt: contested, timeZone: 'America/Chicago' })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  });

  it('a document uploaded through one node is served to staff by the other', async () => {
    const a = bookingClient(nodeA.url);
    const { bookingId } = await a.booking.start.mutate({ timeZone: 'America/Chicago' });
    const pdf = readFileSync('tests/fixtures/sample.pdf');
    const { uploadUrl } = await a.documents.createUpload.mutate({ bookingId, fileName: 'deed.pdf', sizeBytes: pdf.length, contentType: 'application/pdf' });
    const uploaded = await putBytes(nodeA.url, uploadUrl, pdf, 'application/pdf');
    expect(uploaded.status).toBe(201);
    const staff = await createStaffUser(deps, { role: 'staff', totp: false });
    const res = await fetch(`${nodeB.url}/api/staff/documents/${uploaded.body.document!.id}`, { headers: { cookie: await staff.sessionCookie() } });
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(pdf)).toBe(true);
  });

  it('sends each outbox message once although both nodes run the worker', async () => {
    const before = smtp.messages.length;
    const rowsBefore = (await deps.db.select({ id: outbox.id }).from(outbox)).length;
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${[nodeA, nodeB][i % 2]!.url}/trpc/contact.send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...fromNewAddress() },
        body: JSON.stringify({ json: { name: `Visitor ${i}`, email: `visitor${i}@example.com`, message: `Message number ${i}` } }),
      });
      expect(res.status).toBe(200);
    }
    await expect
      .poll(async () => (await deps.db.select({ status: outbox.status }).from(outbox)).every((row) => row.status === 'sent'), { timeout: 30_000, interval: 250 })
      .toBe(true);
    const rows = await deps.db.select().from(outbox);
    // Give a second, duplicate delivery the chance to show up before counting.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const received = smtp.messages.slice(before);
    const messageIds = received.map((m) => /^Message-ID:\s*(\S+)/im.exec(m.raw)?.[1]);
    expect(new Set(messageIds).size).toBe(received.length);
    expect(received.length).toBe(rows.length - rowsBefore);
    expect(received.filter((m) => m.raw.includes('Message number'))).toHaveLength(6);
  });

  it('processes a Stripe event once when it reaches both nodes several times at once', async () => {
    const a = bookingClient(nodeA.url);
    const { bookingId } = await a.booking.start.mutate({ timeZone: 'America/Chicago' });
    const pdf = readFileSync('tests/fixtures/sample.pdf');
    const { uploadUrl } = await a.documents.createUpload.mutate({ bookingId, fileName: 'will.pdf', sizeBytes: pdf.length, contentType: 'application/pdf' });
    expect((await putBytes(nodeA.url, uploadUrl, pdf, 'application/pdf')).status).toBe(201);
    await a.booking.hold.mutate({ bookingId, startsAt: slot(3, 14 * 60), timeZone: 'America/Chicago' });
    await a.booking.saveContact.mutate({ bookingId, firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com', phone: '(555) 010-2030' });
    // The intent Stripe would have created (this test has no Stripe API to call).
    const providerPaymentId = `pi_nodes_${bookingId.slice(0, 8)}`;
    await deps.db.insert(payments).values({ bookingId, provider: 'stripe', providerPaymentId, amountCents: 2500, status: 'requires_payment_method' });

    const event = {
      id: `evt_nodes_${randomUUID().slice(0, 8)}`,
      object: 'event',
      type: 'payment_intent.succeeded',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      data: {
        object: {
          id: providerPaymentId,
          object: 'payment_intent',
          amount: 2500,
          currency: 'usd',
          status: 'succeeded',
          metadata: { bookingId },
          payment_method: { id: 'pm_1', object: 'payment_method', type: 'card' },
          payment_method_types: ['card', 'cashapp'],
          last_payment_error: null,
        },
      },
    };
    const payload = JSON.stringify(event);
    const signer = new Stripe('sk_test_signer').webhooks;
    const deliveries = [nodeA, nodeB, nodeA, nodeB, nodeA, nodeB].map((node) =>
      fetch(`${node.url}/api/stripe/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signer.generateTestHeaderString({ payload, secret: webhookSecret }) },
        body: payload,
      }),
    );
    for (const res of await Promise.all(deliveries)) expect(res.status).toBe(200);

    expect(await deps.db.select().from(processedEvents).where(eq(processedEvents.id, event.id))).toHaveLength(1);
    const [booking] = await deps.db.select().from(bookings).where(eq(bookings.id, bookingId));
    expect(booking!.status).toBe('confirmed');
    const confirmations = await deps.db.select().from(outbox).where(eq(outbox.dedupeKey, `booking-confirmed:${bookingId}`));
    expect(confirmations).toHaveLength(1);
    await expect.poll(() => smtp.messages.filter((m) => m.envelope.to.includes('grace@example.com')).length, { timeout: 30_000 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(smtp.messages.filter((m) => m.envelope.to.includes('grace@example.com'))).toHaveLength(1);
  });
});
