import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { outbox, staffInvites, staffSessions, staffUsers } from '../../src/server/db/schema.ts';
import { hashToken } from '../../src/server/tokens.ts';
import { sessionAbsoluteMs, sessionIdleMs } from '../../src/server/features/staff/session.ts';
import { dbKinds } from '../helpers/db.ts';
import { startTestApp, type TestServer } from '../helpers/app.ts';
import { createStaffUser, sessionCookieFrom, totpCodeAt, trpcHttp } from '../helpers/staff.ts';

const codeFor = totpCodeAt;

describe.each(dbKinds)('staff sign-in (%s)', (kind) => {
  let app: TestServer;
  beforeEach(async () => {
    app = await startTestApp(kind);
  });
  afterEach(() => app.close());

  const login = (email: string, password: string, cookie?: string) =>
    trpcHttp(app.url, 'staff.login', { input: { email, password }, cookie });

  it('signs in with a fresh HttpOnly, Secure, SameSite=Lax session cookie whose token is never stored', async () => {
    const user = await createStaffUser(app.deps, { role: 'staff' });
    const res = await login(user.email.toUpperCase(), user.password);
    expect(res.status).toBe(200);
    const line = res.cookies.find((c) => c.startsWith('staff_session='))!;
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toMatch(/Secure/i);
    expect(line).toMatch(/SameSite=Lax/i);
    expect(line).toMatch(/Path=\//);
    const token = sessionCookieFrom(res.cookies)!.split('=')[1]!;
    expect(token).toMatch(/^[a-z2-7]{32}$/);
    const sessions = await app.deps.db.select().from(staffSessions).where(eq(staffSessions.userId, user.id));
    expect(sessions.map((s) => s.id)).toEqual([hashToken(token)]);
    expect(JSON.stringify(sessions)).not.toContain(token);

    const me = await trpcHttp(app.url, 'staff.me', { type: 'query', cookie: sessionCookieFrom(res.cookies)! });
    expect(me.body.result?.data.json).toMatchObject({ user: { email: user.email, role: 'staff' }, twoFactor: 'ok' });
  });

  it('replaces the previous session on a new login (no fixation)', async () => {
    const user = await createStaffUser(app.deps, { role: 'staff' });
    const first = sessionCookieFrom((await login(user.email, user.password)).cookies)!;
    const second = sessionCookieFrom((await login(user.email, user.password, first)).cookies)!;
    expect(second).not.toBe(first);
    const old = await trpcHttp(app.url, 'console.messages.list', { type: 'query', cookie: first, input: {} });
    expect(old.status).toBe(401);
  });

  it('answers an unknown email and a wrong password alike', async () => {
    const user = await createStaffUser(app.deps, { role: 'staff' });
    const wrong = await login(user.email, 'not the password at all');
    const unknown = await login('nobody@staff.test', 'not the password at all');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.error?.json.message).toBe('Incorrect email or password.');
    expect(unknown.body.error?.json.message).toBe(wrong.body.error?.json.message);
  });

  it('refuses the 11th rapid failed login for one account, even with the right password, without locking others out', async () => {
    const user = await createStaffUser(app.deps, { role: 'staff' });
    const other = await createStaffUser(app.deps, { role: 'staff' });
    for (let i = 0; i < 10; i++) {
      expect((await login(user.email, `wrong password ${i}`)).status).toBe(401);
    }
    const eleventh = await login(user.email, user.password);
    expect(eleventh.status).toBe(429);
    expect(Number(eleventh.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(sessionCookieFrom(eleventh.cookies)).toBeNull();
    // The lock is short and does not grow while a stranger keeps trying.
    expect(Number(eleventh.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect((await login(user.email, 'still wrong')).status).toBe(429);
    expect(Number((await login(user.email, user.password)).headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect((await login(other.email, other.password)).status).toBe(200);
  });

  it('lets the owner in again once the short lock has passed', async () => {
    let now = Date.now();
    app.deps.now = () => new Date(now);
    const user = await createStaffUser(app.deps, { role: 'staff' });
    for (let i = 0; i < 10; i++) await login(user.email, `wrong password ${i}`);
    expect((await login(user.email, user.password)).status).toBe(429);
    now += 61_000;
    expect((await login(user.email, user.password)).status).toBe(200);
  });

  it('refuses a session cookie replayed after logout', async () => {
    const user = await createStaffUser(app.deps, { role: 'staff' });
    const cookie = sessionCookieFrom((await login(user.email, user.password)).cookies)!;
    expect((await trpcHttp(app.url, 'console.bookings.list', { type: 'query', cookie, input: {} })).status).toBe(200);
    const out = await trpcHttp(app.url, 'staff.logout', { cookie });
    expect(out.status).toBe(200);
    expect(out.cookies.some((c) => c.startsWith('staff_session=;') && /Max-Age=0/i.test(c))).toBe(true);
    expect((await trpcHttp(app.url, 'console.bookings.list', { type: 'query', cookie, input: {} })).status).toBe(401);
    expect((await trpcHttp(app.url, 'staff.me', { type: 'query', cookie })).body.result?.data.json).toBeNull();
  });

  it('refuses every session of a deactivated account at once', async () => {
    const admin = await createStaffUser(app.deps, { role: 'admin' });
    const user = await createStaffUser(app.deps, { role: 'staff' });
    const cookie = sessionCookieFrom((await login(user.email, user.password)).cookies)!;
    const res = await trpcHttp(app.url, 'staff.users.deactivate', { cookie: await admin.sessionCookie(), input: { userId: user.id } });
    expect(res.status).toBe(200);
    expect((await trpcHttp(app.url, 'console.bookings.list', { type: 'query', cookie, input: {} })).status).toBe(401);
    expect((await login(user.email, user.password)).status).toBe(401);
    // Even a session row that survived (another node mid-request) is refused for an inactive user.
    const stale = await user.sessionCookie();
    expect((await trpcHttp(app.url, 'console.bookings.list', { type: 'query', cookie: stale, input: {} })).status).toBe(401);
  });

  it('ends a session after 12 idle hours, slides it while used, and never past 7 days', async () => {
    let now = Date.parse('2030-01-01T00:00:00Z');
    app.deps.now = () => new Date(now);
    const user = await createStaffUser(app.deps, { role: 'staff' });
    const cookie = sessionCookieFrom((await login(user.email, user.password)).cookies)!;
    const list = () => trpcHttp(app.url, 'console.messages.list', { type: 'query', cookie, input: {} });
    // Used every 8 hours: each use past half-life pushes the expiry on.
    for (let elapsed = 0; elapsed + 8 * 3600_000 < sessionAbsoluteMs; elapsed += 8 * 3600_000) {
      now += 8 * 3600_000;
      expect((await list()).status).toBe(200);
    }
    now = Date.parse('2030-01-01T00:00:00Z') + sessionAbsoluteMs + 1000;
    expect((await list()).status).toBe(401);

    const idle = sessionCookieFrom((await login(user.email, user.password)).cookies)!;
    now += sessionIdleMs + 1000;
    expect((await trpcHttp(app.url, 'console.messages.list', { type: 'query', cookie: idle, input: {} })).status).toBe(401);
  });

  it('requires an admin without TOTP to enrol before anything else', async () => {
    const admin = await createStaffUser(app.deps, { role: 'admin', totp: false });
    const res = await login(admin.email, admin.password);
    expect(res.body.result?.data.json).toMatchObject({ twoFactor: 'enrol' });
    const cookie = sessionCookieFrom(res.cookies)!;
    expect((await trpcHttp(app.url, 'staff.users.list', { type: 'query', cookie })).status).toBe(401);
    expect((await trpcHttp(app.url, 'console.bookings.list', { type: 'query', cookie, input: {} })).status).toBe(401);
    // The page guard sends the half-signed-in admin to the second step.
    const page = await fetch(`${app.url}/admin/bookings`, { headers: { cookie }, redirect: 'manual' });
    expect(page.headers.get('location')).toBe('/admin/two-factor');

    const begin = await trpcHttp(app.url, 'staff.totp.begin', { cookie });
    const { secret, uri } = begin.body.result!.data.json as { secret: string; uri: string };
    expect(uri).toMatch(/^otpauth:\/\/totp\/NotaryOnline:/);
    expect(uri).toContain(`secret=${secret}`);
    expect((await trpcHttp(app.url, 'staff.totp.confirm', { cookie, input: { code: '000000' } })).status).toBe(400);
    expect((await trpcHttp(app.url, 'staff.totp.confirm', { cookie, input: { code: codeFor(secret) } })).status).toBe(200);
    expect((await trpcHttp(app.url, 'staff.users.list', { type: 'query', cookie })).status).toBe(200);
    const [row] = await app.deps.db.select().from(staffUsers).where(eq(staffUsers.id, admin.id));
    expect(row!.totpEnabled).toBe(true);
  });

  it('asks for a TOTP code (±30 s) after the password when TOTP is on', async () => {
    const admin = await createStaffUser(app.deps, { role: 'admin' });
    const res = await login(admin.email, admin.password);
    expect(res.body.result?.data.json).toMatchObject({ twoFactor: 'verify' });
    const cookie = sessionCookieFrom(res.cookies)!;
    expect((await trpcHttp(app.url, 'staff.users.list', { type: 'query', cookie })).status).toBe(401);
    // A password alone cannot replace the authenticator.
    expect((await trpcHttp(app.url, 'staff.totp.begin', { cookie })).status).toBeGreaterThanOrEqual(400);
    const stale = codeFor(admin.totpSecret!, Date.now() - 95_000);
    expect((await trpcHttp(app.url, 'staff.totp.verify', { cookie, input: { code: stale } })).status).toBe(400);
    const previous = codeFor(admin.totpSecret!, Date.now() - 30_000);
    expect((await trpcHttp(app.url, 'staff.totp.verify', { cookie, input: { code: previous } })).status).toBe(200);
    expect((await trpcHttp(app.url, 'staff.users.list', { type: 'query', cookie })).status).toBe(200);
  });

  it('accepts a TOTP code once: the same code, or an older one, is refused afterwards, even in a race', async () => {
    let now = Date.now();
    app.deps.now = () => new Date(now);
    const admin = await createStaffUser(app.deps, { role: 'admin' });
    const pendingSession = async () => sessionCookieFrom((await login(admin.email, admin.password)).cookies)!;
    const verify = (cookie: string, code: string) => trpcHttp(app.url, 'staff.totp.verify', { cookie, input: { code } });

    const first = await pendingSession();
    const code = codeFor(admin.totpSecret!, now);
    expect((await verify(first, code)).status).toBe(200);

    // Someone who saw the code (shoulder, phishing proxy) tries it within its window.
    const second = await pendingSession();
    const replay = await verify(second, code);
    expect(replay.status).toBe(400);
    expect(replay.body.error?.json.message).toBe('That code is not right. Codes change every 30 seconds — enter the current one.');
    // Addressed to the code field, so the form shows it there (issue 30).
    expect((replay.body.error?.json.data as { fieldErrors?: unknown } | undefined)?.fieldErrors).toEqual({ code: ['That code is not right. Codes change every 30 seconds — enter the current one.'] });
    expect((await verify(second, codeFor(admin.totpSecret!, now - 30_000))).status).toBe(400);
    expect((await trpcHttp(app.url, 'staff.users.list', { type: 'query', cookie: second })).status).toBe(401);

    // The next code, 30 s later, is good.
    now += 30_000;
    expect((await verify(second, codeFor(admin.totpSecret!, now))).status).toBe(200);
    expect((await trpcHttp(app.url, 'staff.users.list', { type: 'query', cookie: second })).status).toBe(200);

    // Two sign-ins racing with one code: exactly one wins.
    now += 30_000;
    const [a, b] = [await pendingSession(), await pendingSession()];
    const racing = codeFor(admin.totpSecret!, now);
    const statuses = (await Promise.all([verify(a, racing), verify(b, racing)])).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 400]);
    const [row] = await app.deps.db.select({ step: staffUsers.totpLastStep }).from(staffUsers).where(eq(staffUsers.id, admin.id));
    expect(row!.step).toBe(Math.floor(now / 30_000));
  });

  it('refuses a replayed code when a staff member turns TOTP off', async () => {
    const now = Date.now();
    app.deps.now = () => new Date(now);
    const member = await createStaffUser(app.deps, { role: 'staff', totp: true });
    const res = await login(member.email, member.password);
    const cookie = sessionCookieFrom(res.cookies)!;
    const code = codeFor(member.totpSecret!, now);
    expect((await trpcHttp(app.url, 'staff.totp.verify', { cookie, input: { code } })).status).toBe(200);
    expect((await trpcHttp(app.url, 'staff.totp.disable', { cookie, input: { code } })).status).toBe(400);
    expect((await trpcHttp(app.url, 'staff.totp.disable', { cookie, input: { code: codeFor(member.totpSecret!, now + 30_000) } })).status).toBe(200);
  });

  it('invites by a one-time link valid 7 days, stored only as a hash and emailed', async () => {
    let now = Date.now();
    app.deps.now = () => new Date(now);
    const admin = await createStaffUser(app.deps, { role: 'admin' });
    const cookie = await admin.sessionCookie();
    const res = await trpcHttp(app.url, 'staff.users.invite', { cookie, input: { email: 'New.Notary@Staff.test', role: 'notary' } });
    expect(res.status).toBe(200);
    const { url, emailed } = res.body.result!.data.json as { url: string; emailed: boolean };
    const token = url.split('/').pop()!;
    expect(emailed).toBe(true);
    const [invite] = await app.deps.db.select().from(staffInvites);
    expect(invite!.tokenHash).toBe(hashToken(token));
    expect(invite!.expiresAt.getTime() - now).toBe(7 * 24 * 3600_000);
    const mails = await app.deps.db.select().from(outbox).where(eq(outbox.kind, 'staff_invite'));
    expect(JSON.stringify(mails[0]!.payload)).toContain('new.notary@staff.test');

    const look = await trpcHttp(app.url, 'staff.invitation', { type: 'query', input: { token } });
    expect(look.body.result?.data.json).toEqual({ email: 'new.notary@staff.test', role: 'notary' });
    const weak = await trpcHttp(app.url, 'staff.acceptInvite', { input: { token, name: 'Nora', password: 'short' } });
    expect(weak.status).toBe(400);
    const accepted = await trpcHttp(app.url, 'staff.acceptInvite', { input: { token, name: 'Nora Notary', password: 'a long enough passphrase' } });
    expect(accepted.status).toBe(200);
    const session = sessionCookieFrom(accepted.cookies)!;
    expect((await trpcHttp(app.url, 'console.appointments', { type: 'query', cookie: session })).status).toBe(200);
    const again = await trpcHttp(app.url, 'staff.acceptInvite', { input: { token, name: 'Mallory', password: 'a long enough passphrase' } });
    expect(again.status).toBe(404);

    const late = await trpcHttp(app.url, 'staff.users.invite', { cookie, input: { email: 'late@staff.test', role: 'staff' } });
    const lateToken = (late.body.result!.data.json as { url: string }).url.split('/').pop()!;
    now += 7 * 24 * 3600_000 + 1000;
    const expired = await trpcHttp(app.url, 'staff.acceptInvite', { input: { token: lateToken, name: 'Late', password: 'a long enough passphrase' } });
    expect(expired.status).toBe(404);
    expect(expired.body.error?.json.message).toBe('This invitation link is invalid or has expired.');
  });

  it('changes roles and keeps at least one active admin', async () => {
    const admin = await createStaffUser(app.deps, { role: 'admin' });
    const user = await createStaffUser(app.deps, { role: 'staff' });
    const cookie = await admin.sessionCookie();
    expect((await trpcHttp(app.url, 'staff.users.setRole', { cookie, input: { userId: user.id, role: 'notary' } })).status).toBe(200);
    const userCookie = await user.sessionCookie();
    expect((await trpcHttp(app.url, 'console.bookings.list', { type: 'query', cookie: userCookie, input: {} })).status).toBe(403);
    expect((await trpcHttp(app.url, 'console.appointments', { type: 'query', cookie: userCookie })).status).toBe(200);
    const demoteSelf = await trpcHttp(app.url, 'staff.users.setRole', { cookie, input: { userId: admin.id, role: 'staff' } });
    expect(demoteSelf.status).toBe(400);
    expect(demoteSelf.body.error?.json.message).toBe('At least one active admin is required.');
  });
});

describe.each(dbKinds)('cross-site request forgery (%s)', (kind) => {
  let app: TestServer;
  beforeEach(async () => {
    app = await startTestApp(kind);
  });
  afterEach(() => app.close());

  it('refuses a cross-origin POST to a staff mutation, even with a valid session', async () => {
    const admin = await createStaffUser(app.deps, { role: 'admin' });
    const user = await createStaffUser(app.deps, { role: 'staff' });
    const cookie = await admin.sessionCookie();
    const forged = await fetch(`${app.url}/trpc/staff.users.deactivate`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', origin: 'http://evil.example' },
      body: JSON.stringify({ json: { userId: user.id } }),
    });
    expect(forged.status).toBe(403);
    const bySite = await fetch(`${app.url}/trpc/staff.users.deactivate`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' },
      body: JSON.stringify({ json: { userId: user.id } }),
    });
    expect(bySite.status).toBe(403);
    const formPost = await fetch(`${app.url}/trpc/staff.users.deactivate`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'text/plain' },
      body: JSON.stringify({ json: { userId: user.id } }),
    });
    expect(formPost.status).toBe(415);
    const [row] = await app.deps.db.select().from(staffUsers).where(eq(staffUsers.id, user.id));
    expect(row!.active).toBe(true);

    const sameOrigin = await trpcHttp(app.url, 'staff.users.deactivate', {
      cookie,
      input: { userId: user.id },
      headers: { origin: app.url, 'sec-fetch-site': 'same-origin' },
    });
    expect(sameOrigin.status).toBe(200);
  });

  it('leaves the signed Stripe webhook to its own signature check', async () => {
    const res = await fetch(`${app.url}/api/stripe/webhook`, {
      method: 'POST',
      headers: { origin: 'http://evil.example', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).not.toBe(403);
  });
});
