import { randomUUID } from 'node:crypto';
import { io } from 'socket.io-client';
import superjson from 'superjson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingRates } from '../../src/server/features/booking/router.ts';
import { chatRateRules } from '../../src/server/features/chat/service.ts';
import { contactRate } from '../../src/server/features/contact/service.ts';
import { uploadRate } from '../../src/server/features/documents/router.ts';
import { manageRate } from '../../src/server/features/manage-booking/router.ts';
import { attemptRule, syncRule } from '../../src/server/features/payments/router.ts';
import { ipFailures } from '../../src/server/features/staff/login-throttle.ts';
import { consumeRate, tooManyRequestsMessage, type RateRule } from '../../src/server/rate-limit.ts';
import { startChatApp, newVisitorCookie, type ChatTestApp } from '../helpers/chat.ts';
import { dbKinds } from '../helpers/db.ts';

/**
 * Every family of endpoints a stranger can call that costs us something is
 * limited per client address (on this node, or in the shared database for the
 * limits that guard a secret), and the refusal says when to come back. The limiter's arithmetic is tested in
 * src/server/http/rate-limit.test.ts; here each family's counter is filled to
 * its limit and the next call must be refused — for that address only.
 */
const limited = '203.0.113.7';
const other = '203.0.113.8';

describe.each(dbKinds)('rate limits on every costly public endpoint (%s)', (kind) => {
  let app: ChatTestApp;
  beforeAll(async () => {
    app = await startChatApp(kind, { TRUST_PROXY: '1' });
  });
  afterAll(() => app.close());

  /** Uses up the address's allowance where the rule counts (this node's memory, or the shared table). */
  async function exhaust(rule: RateRule, subject: string = limited) {
    for (let used = 0; used < rule.limit; used++) await consumeRate(app.deps, rule, subject);
  }

  async function call(procedure: string, input: unknown, from: string, kindOf: 'query' | 'mutation' = 'mutation') {
    const encoded = JSON.stringify(superjson.serialize(input));
    const res =
      kindOf === 'query'
        ? await fetch(`${app.url}/trpc/${procedure}?input=${encodeURIComponent(encoded)}`, { headers: { 'x-forwarded-for': from } })
        : await fetch(`${app.url}/trpc/${procedure}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
            body: encoded,
          });
    const body = (await res.json()) as { error?: { json?: { message?: string } } };
    return { status: res.status, retryAfter: res.headers.get('retry-after'), message: body.error?.json?.message };
  }

  const families: Array<{ family: string; rule: RateRule; procedure: string; input: () => unknown; kind?: 'query' | 'mutation' }> = [
    { family: 'uploads', rule: uploadRate, procedure: 'documents.createUpload', input: () => ({ bookingId: randomUUID(), fileName: 'a.pdf', sizeBytes: 10, contentType: 'application/pdf' }) },
    { family: 'booking start', rule: bookingRates.start, procedure: 'booking.start', input: () => ({ timeZone: 'America/Chicago' }) },
    { family: 'holds', rule: bookingRates.hold, procedure: 'booking.hold', input: () => ({ bookingId: randomUUID(), startsAt: new Date(Date.now() + 3 * 86_400_000), timeZone: 'America/Chicago' }) },
    { family: 'booking contact', rule: bookingRates.contact, procedure: 'booking.saveContact', input: () => ({ bookingId: randomUUID(), firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '(555) 010-2030' }) },
    { family: 'signers added while booking', rule: bookingRates.participants, procedure: 'booking.addParticipant', input: () => ({ bookingId: randomUUID(), role: 'signer', name: 'Alan Turing', email: 'alan@example.com' }) },
    { family: 'payments', rule: attemptRule, procedure: 'payments.createIntent', input: () => ({ bookingId: randomUUID() }) },
    { family: 'payment status', rule: syncRule, procedure: 'payments.sync', input: () => ({ bookingId: randomUUID() }) },
    { family: 'contact form', rule: contactRate, procedure: 'contact.send', input: () => ({ name: 'Ada Lovelace', email: 'ada@example.com', message: 'Hello there' }) },
    { family: 'manage link', rule: manageRate, procedure: 'manageBooking.get', input: () => ({ token: 'a'.repeat(43) }), kind: 'query' },
    { family: 'staff sign-in', rule: ipFailures, procedure: 'staff.login', input: () => ({ email: 'someone@staff.test', password: 'not the password at all' }) },
  ];

  it.each(families)('$family: 429 with Retry-After once the address has used its allowance', async ({ rule, procedure, input, kind: callKind }) => {
    await exhaust(rule);
    const refused = await call(procedure, input(), limited, callKind);
    expect(refused.status).toBe(429);
    expect(refused.message).toBe(tooManyRequestsMessage);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(rule.windowSeconds);
    // Another address is not affected (it may fail for other reasons, never 429).
    expect((await call(procedure, input(), other, callKind)).status).not.toBe(429);
  });

  it('manage-link downloads (.ics, documents): 429 with Retry-After for that address only', async () => {
    await exhaust(manageRate);
    for (const path of [`/api/bookings/${randomUUID()}/calendar.ics?token=${'a'.repeat(43)}`, `/api/manage/documents/${randomUUID()}?token=${'a'.repeat(43)}`]) {
      const refused = await fetch(`${app.url}${path}`, { headers: { 'x-forwarded-for': limited } });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await fetch(`${app.url}${path}`, { headers: { 'x-forwarded-for': other } })).status).not.toBe(429);
    }
  });

  it('chat: a visitor over the limit is refused with the time to wait', async () => {
    await exhaust(chatRateRules.perAddress);
    const cookie = await newVisitorCookie(app.url);
    const socket = io(`${app.url}/chat`, {
      transports: ['websocket'],
      forceNew: true,
      reconnection: false,
      query: { chat: 'visitor' },
      extraHeaders: { cookie, 'x-forwarded-for': limited },
    });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      const ack = (await socket.timeout(5000).emitWithAck('send', { clientId: randomUUID(), body: 'Hello?' })) as {
        ok: boolean;
        error?: string;
        retryAfterSeconds?: number;
      };
      expect(ack).toMatchObject({ ok: false, error: tooManyRequestsMessage });
      expect(ack.retryAfterSeconds).toBeGreaterThan(0);
    } finally {
      socket.disconnect();
    }
  });
});
