import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, openBrowser, type Browser } from './browser.ts';

/**
 * The Content-Security-Policy in a real browser: every page loads, hydrates
 * and runs with zero policy violations (a violation is not always a console
 * error, so they are collected from `securitypolicyviolation` events).
 */
describe('content security policy in the browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await openBrowser();
    await browser.context.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (event) => {
        seen.push(`${event.violatedDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`);
      });
    });
  });
  afterAll(() => browser.close());

  it('serves every script with the response\'s nonce', async () => {
    const res = await fetch(`${baseUrl()}/`);
    const csp = res.headers.get('content-security-policy')!;
    const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
    const html = await res.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) {
      if (/type="application\/ld\+json"/.test(tag)) continue;
      expect(tag).toContain(`nonce="${nonce}"`);
    }
  });

  it('keeps private pages out of caches and caches hashed assets for a year', async () => {
    for (const path of ['/schedule', '/booking/not-a-real-token-000000', '/admin', '/admin/login']) {
      const res = await fetch(`${baseUrl()}${path}`, { redirect: 'manual' });
      expect(res.headers.get('cache-control'), path).toBe('no-store');
    }
    const home = await (await fetch(`${baseUrl()}/`)).text();
    const asset = /\/assets\/[^"]+\.js/.exec(home)![0];
    const res = await fetch(`${baseUrl()}${asset}`);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('loads the public pages, the booking wizard and the console sign-in with no violation', async () => {
    const { page, errors } = browser;
    const sitemap = await (await fetch(`${baseUrl()}/sitemap.xml`)).text();
    const article = /<loc>[^<]*?(\/blog\/[^<]+)<\/loc>/.exec(sitemap)?.[1];
    const paths = ['/', '/remote-notarization', '/blog', ...(article ? [article] : []), '/schedule', '/admin', '/no-such-page'];
    for (const path of paths) {
      await page.goto(path, { waitUntil: 'networkidle' });
      // Let lazy chunks, the chat widget and the first effects run.
      await page.waitForTimeout(500);
      const violations = await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);
      expect(violations, path).toEqual([]);
    }
    expect(errors.filter((e) => !/status of 404/.test(e))).toEqual([]);
  });
});
