import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { Writable } from 'node:stream';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { openConfirmationLink as openManageToken } from '../../src/server/features/customer-links/service.ts';
import { buildDeps, type Deps } from '../../src/server/deps.ts';
import { deliverDue } from '../../src/server/features/notifications/worker.ts';
import { createLogger } from '../../src/server/logger.ts';
import { addDays, localDateOf, parseIsoDate, zonedInstant } from '../../src/shared/time.ts';
import { createTestDatabase, dbKinds } from '../helpers/db.ts';
import { createStaffUser } from '../helpers/staff.ts';
import { bookingClient, putBytes } from './booking-helpers.ts';

/** Every log line the server writes, as text. */
function captureLogs() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(String(chunk));
      callback();
    },
  });
  return { stream, text: () => lines.join('') };
}

describe.each(dbKinds)('no secrets in logs (%s)', (kind) => {
  let deps: Deps;
  let server: Server;
  let url: string;
  let dataDir: string;
  const logs = captureLogs();
  let closeAll: () => Promise<void>;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'notary-logs-'));
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, SESSION_COOKIE_SECURE: 'false' });
    const database = await createTestDatabase(kind);
    // The most talkative level: whatever any code logs, at any level, is checked.
    deps = await buildDeps(config, database, createLogger('trace', logs.stream));
    const { app, close } = await createApp(deps, { pages: false });
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    closeAll = async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    };
  });
  afterAll(() => closeAll());

  it('keeps upload, manage-link and session tokens, passwords and card numbers out of every line', async () => {
    const client = bookingClient(url);
    const secrets: Record<string, string> = {};

    // Booking: upload through the one-time URL, hold, contact, pay with the test card.
    const { bookingId } = await client.booking.start.mutate({ timeZone: 'America/Chicago' });
    const pdf = readFileSync('tests/fixtures/sample.pdf');
    const { uploadUrl } = await client.documents.createUpload.mutate({ bookingId, fileName: 'deed.pdf', sizeBytes: pdf.length, contentType: 'application/pdf' });
    secrets.uploadToken = uploadUrl.split('/').pop()!;
    const uploaded = await putBytes(url, uploadUrl, pdf, 'application/pdf');
    expect(uploaded.status).toBe(201);
    // A second PUT on a spent link is refused, and logged as such.
    expect((await putBytes(url, uploadUrl, pdf, 'application/pdf')).status).toBeGreaterThanOrEqual(400);
    const startsAt = zonedInstant(addDays(parseIsoDate(localDateOf(deps.now(), 'America/Chicago')), 2), 11 * 60, 'America/Chicago');
    await client.booking.hold.mutate({ bookingId, startsAt, timeZone: 'America/Chicago' });
    await client.booking.saveContact.mutate({ bookingId, firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '(555) 010-2030' });
    await client.payments.createIntent.mutate({ bookingId });
    secrets.card = '4242424242424242';
    await client.payments.confirmTestCard.mutate({ bookingId, number: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '987', name: 'Ada Lovelace', email: 'ada@example.com' });
    expect((await client.booking.get.query({ bookingId })).status).toBe('confirmed');

    // The manage link exists only in the confirmation email (sealed until it is sent).
    secrets.manageToken = (await openManageToken(deps.db, deps, bookingId))!;
    expect(secrets.manageToken.length).toBeGreaterThan(20);
    await deliverDue(deps);
    await fetch(`${url}/booking/${secrets.manageToken}`);
    await fetch(`${url}/booking/${secrets.manageToken}?utm_source=email`);
    await fetch(`${url}/api/bookings/${bookingId}/calendar.ics?token=${secrets.manageToken}`);
    await client.manageBooking.get.query({ token: secrets.manageToken });
    // A wrong token, too: refusals are logged, the guess must not be.
    await fetch(`${url}/api/bookings/${bookingId}/calendar.ics?token=${secrets.manageToken}x`);

    // Staff sign-in: password in, session token out through Set-Cookie.
    const staff = await createStaffUser(deps, { role: 'notary', totp: false, password: 'Tr0ub4dor&3-horse-staple' });
    secrets.password = staff.password;
    const login = await fetch(`${url}/trpc/staff.login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ json: { email: staff.email, password: staff.password } }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
    secrets.sessionToken = cookie.split('=')[1]!;
    await fetch(`${url}/trpc/staff.me`, { headers: { cookie } });
    // A failed sign-in with a wrong password.
    await fetch(`${url}/trpc/staff.login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ json: { email: staff.email, password: 'wrong-password-attempt-1' } }),
    });
    secrets.wrongPassword = 'wrong-password-attempt-1';

    const text = logs.text();
    // The flow was logged (request lines with ids), so the absence below means something.
    expect(text).toContain('"path":"/api/uploads/[redacted]"');
    expect(text).toContain('"path":"/booking/[redacted]"');
    expect(text).toMatch(/"reqId":"[0-9a-f-]{36}"|"id":"[0-9a-f-]{36}"/);
    for (const [name, value] of Object.entries(secrets)) {
      expect(text.includes(value), `${name} appears in the logs`).toBe(false);
    }
    expect(text).not.toContain('4242 4242 4242 4242');
  });
});
