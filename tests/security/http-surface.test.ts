import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app.ts';
import type { Deps } from '../../src/server/deps.ts';
import { openConfirmationLink as openManageToken } from '../../src/server/features/customer-links/service.ts';
import { attachChat, type ChatServer } from '../../src/server/features/chat/socket.ts';
import { confirmTestCard } from '../../src/server/features/payments/service.ts';
import { applySecurityHeadersToEngine, redactPath } from '../../src/server/http/security.ts';
import { createLogger } from '../../src/server/logger.ts';
import { createTestDeps, type TestContext } from '../helpers/app.ts';
import { bookingIn } from '../helpers/bookings.ts';
import { createStaffUser, trpcHttp } from '../helpers/staff.ts';

/**
 * Attacks on what the server answers and logs: error bodies, malformed URLs,
 * manage-token guessing, Socket.IO's own responses, token-bearing paths
 * spelled differently, the staff cookie. The production app (built pages)
 * on PGlite; the database does not matter here. Needs `npm run build` first
 * (as `npm test` does).
 */
describe('HTTP surface', () => {
  let ctx: TestContext;
  let deps: Deps;
  let server: Server;
  let chat: ChatServer;
  let url: string;
  let closePages: () => Promise<void>;
  const logLines: string[] = [];

  beforeAll(async () => {
    ctx = await createTestDeps('pglite', { PUBLIC_URL: 'https://notary.test', LOG_LEVEL: 'info' });
    const sink = new Writable({
      write(chunk, _enc, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    deps = { ...ctx.deps, log: createLogger('info', sink) };
    const app = await createApp(deps, { pages: 'production' });
    closePages = app.close;
    server = createServer(app.app);
    chat = await attachChat(server, deps);
    applySecurityHeadersToEngine(chat.io.engine, deps.config, server); // as serve.ts does
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await chat.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await closePages();
    await ctx.close();
  });

  it('a missing /assets/ file → plain 404, no file path or error message in the body', async () => {
    const res = await fetch(`${url}/assets/nope.js`);
    expect(res.status).toBe(404);
    const body = await res.text();
    expect(body).not.toMatch(/ENOENT|stat|dist|\/client\/|[A-Z]:\\/);
    expect(body.length).toBeLessThan(100);
  });

  it('a URL that cannot be decoded (/%E0%A4%A) → the branded error page with 400, not raw JSON', async () => {
    const res = await fetch(`${url}/%E0%A4%A`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).toContain('<header');
    expect(html).toMatch(/Page not found|not found/i);
    expect(html).not.toContain('Failed to decode');
    // The page keeps its security headers (nonce-based CSP).
    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'self' 'nonce-/);
  });

  it('an unknown manage token → 404 with the friendly manage page; a real one → 200', async () => {
    const unknown = await fetch(`${url}/booking/${'A'.repeat(43)}`);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('Your Booking');
    const malformed = await fetch(`${url}/booking/short`);
    expect(malformed.status).toBe(404);
    await malformed.text();

    const { bookingId } = await bookingIn(deps, 'awaiting_payment');
    await confirmTestCard(deps, { bookingId, number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123', name: 'Grace Hopper', email: 'grace@example.com' });
    const token = (await openManageToken(deps.db, deps, bookingId))!;
    const known = await fetch(`${url}/booking/${token}`);
    expect(known.status).toBe(200);
    await known.text();
  });

  it('Socket.IO polling responses → the same security headers as every page, and no-store', async () => {
    const res = await fetch(`${url}/socket.io/?EIO=4&transport=polling&chat=visitor`);
    await res.text();
    expect(res.status).toBe(200);
    const page = await fetch(`${url}/`);
    await page.text();
    for (const name of ['x-frame-options', 'x-content-type-options', 'strict-transport-security', 'referrer-policy', 'permissions-policy', 'cross-origin-opener-policy']) {
      expect(res.headers.get(name), name).toBe(page.headers.get(name));
    }
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it("Socket.IO's own refusals (?EIO=3, an unknown transport, a bad sid) → 400 with the same security headers", async () => {
    for (const query of ['EIO=3&transport=polling', 'EIO=4&transport=carrier-pigeon', 'EIO=4&transport=polling&sid=nope']) {
      const res = await fetch(`${url}/socket.io/?${query}`);
      await res.text();
      expect(res.status, query).toBe(400);
      for (const name of ['x-frame-options', 'x-content-type-options', 'strict-transport-security', 'referrer-policy', 'permissions-policy']) {
        expect(res.headers.get(name), `${query} ${name}`).toBeTruthy();
      }
      expect(res.headers.get('content-security-policy'), query).toContain("frame-ancestors 'none'");
      expect(res.headers.get('cache-control'), query).toBe('no-store');
    }
  });

  it('token paths spelled in another case, percent-encoded or with doubled slashes → the token never reaches the log', async () => {
    const secret = 'Zq9' + 'x'.repeat(40);
    const spellings = [`/BOOKING/${secret}`, `/%62ooking/${secret}`, `/API/UPLOADS/${secret}`, `//booking//${secret}`, `/Booking/${secret}?utm=1`, `/admin/INVITE/${secret}`];
    for (const path of spellings) await (await fetch(`${url}${path}`, { method: path.includes('UPLOADS') ? 'PUT' : 'GET' })).text();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const log = logLines.join('');
    expect(log).toContain('[redacted]');
    expect(log.toLowerCase()).not.toContain(secret.toLowerCase());
    expect(redactPath(`/%62ooking/${secret}`)).toBe('/booking/[redacted]');
    expect(redactPath('/booking/%E0%A4%A')).toBe('[undecodable path]');
    expect(redactPath('/schedule')).toBe('/schedule');
  });

  it('on an HTTPS site the staff cookie is __Host-staff_session (Secure, Path=/, no Domain); a planted plain staff_session is ignored', async () => {
    const user = await createStaffUser(deps, { role: 'staff' });
    const res = await trpcHttp(url, 'staff.login', { input: { email: user.email, password: user.password } });
    expect(res.status).toBe(200);
    const line = res.cookies.find((c) => c.startsWith('__Host-staff_session='))!;
    expect(line).toMatch(/; Secure/i);
    expect(line).toMatch(/; Path=\//);
    expect(line).not.toMatch(/Domain=/i);
    const token = line.split(';')[0]!.split('=')[1]!;
    const asHost = await trpcHttp(url, 'console.messages.list', { type: 'query', input: { show: 'all' }, cookie: `__Host-staff_session=${token}` });
    expect(asHost.status).toBe(200);
    const planted = await trpcHttp(url, 'console.messages.list', { type: 'query', input: { show: 'all' }, cookie: `staff_session=${token}` });
    expect(planted.status).toBe(401);
  });
});
