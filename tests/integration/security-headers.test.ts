import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPrivatePath, redactPath } from '../../src/server/http/security.ts';
import { dbKinds } from '../helpers/db.ts';
import { startTestApp, type TestServer } from '../helpers/app.ts';

function cspOf(res: Response): Map<string, string[]> {
  const header = res.headers.get('content-security-policy') ?? '';
  return new Map(
    header
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

describe.each(dbKinds)('security headers (%s)', (kind) => {
  let app: TestServer;
  beforeAll(async () => {
    app = await startTestApp(kind);
  });
  afterAll(() => app.close());

  it('allows camera and microphone only on the session room pages', async () => {
    for (const path of ['/booking/some-token/session', '/admin/appointments/6f1d2c3e-0000-4000-8000-000000000000/session', '/BOOKING/x/session/']) {
      const res = await fetch(`${app.url}${path}`, { redirect: 'manual' });
      expect(res.headers.get('permissions-policy'), path).toContain('camera=(self), microphone=(self)');
    }
    for (const path of ['/booking/some-token', '/admin/appointments/x', '/booking/x/session/extra', '/session']) {
      const res = await fetch(`${app.url}${path}`, { redirect: 'manual' });
      expect(res.headers.get('permissions-policy'), path).toContain('camera=(), microphone=()');
    }
  });

  it('sends the hardening headers on every response, errors included', async () => {
    for (const path of ['/healthz', '/trpc/health', '/no-such-endpoint']) {
      const res = await fetch(`${app.url}${path}`);
      expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('permissions-policy')).toContain('camera=()');
      expect(res.headers.get('permissions-policy')).toContain('payment=(self "https://js.stripe.com")');
      expect(res.headers.get('x-powered-by')).toBeNull();
      const csp = cspOf(res);
      // Express's final 404 handler replaces the policy with an even stricter one.
      if (res.status === 404) expect(csp.get('default-src')).toEqual(["'none'"]);
      else expect(csp.get('object-src')).toEqual(["'none'"]);
    }
  });

  it('allows exactly our origin, the per-request nonce and Stripe', async () => {
    const first = cspOf(await fetch(`${app.url}/healthz`));
    const second = cspOf(await fetch(`${app.url}/healthz`));
    const nonce = first.get('script-src')!.find((value) => value.startsWith("'nonce-"));
    expect(nonce).toMatch(/^'nonce-[A-Za-z0-9+/]{22}=='$/);
    expect(second.get('script-src')).not.toContain(nonce);
    expect(first.get('default-src')).toEqual(["'self'"]);
    expect(first.get('script-src')).toEqual(["'self'", nonce, 'https://js.stripe.com', 'https://*.js.stripe.com']);
    expect(first.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(first.get('img-src')).toEqual(["'self'", 'data:', 'https://*.stripe.com']);
    expect(first.get('connect-src')).toEqual(["'self'", app.deps.config.publicUrl.replace(/^http/, 'ws'), 'https://api.stripe.com']);
    expect(first.get('frame-src')).toEqual(['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com']);
    expect(first.get('base-uri')).toEqual(["'none'"]);
    expect(first.get('frame-ancestors')).toEqual(["'none'"]);
    expect(first.get('form-action')).toEqual(["'self'"]);
    // Plain-http install: upgrading subresources to https would break the page.
    expect(first.has('upgrade-insecure-requests')).toBe(false);
  });

  it('never lets a browser or proxy keep booking, payment, admin or API answers', async () => {
    const res = await fetch(`${app.url}/trpc/health`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    for (const path of ['/schedule', '/booking/abc', '/admin', '/admin/bookings', '/trpc/booking.get', '/api/uploads/x', '/api/stripe/webhook', '/api/bookings/1/calendar.ics']) {
      expect(isPrivatePath(path), path).toBe(true);
    }
    for (const path of ['/', '/blog', '/blog/some-article', '/assets/index-abc.js', '/scheduler-tips']) {
      expect(isPrivatePath(path), path).toBe(false);
    }
  });
});

describe('log path redaction', () => {
  it('masks bearer tokens carried in paths and drops query strings', () => {
    expect(redactPath('/booking/AbC123xyz?x=1')).toBe('/booking/[redacted]');
    expect(redactPath('/api/uploads/tok_123')).toBe('/api/uploads/[redacted]');
    expect(redactPath('/api/bookings/42/calendar.ics?token=secret')).toBe('/api/bookings/42/calendar.ics');
    expect(redactPath('/blog/how-it-works')).toBe('/blog/how-it-works');
  });
});
