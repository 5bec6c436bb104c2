import { createHash } from 'node:crypto';
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

  it('allows a public page\'s inline scripts by hash and a private page\'s by the response\'s nonce', async () => {
    const scriptSrc = (res: Response) => /script-src ([^;]+)/.exec(res.headers.get('content-security-policy') ?? '')![1]!.split(' ');
    const inlineScripts = (html: string) => [...html.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*application\/ld\+json)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);

    // Public (cached) page: the same bytes for everyone, so hashes instead of a nonce.
    const home = await fetch(`${baseUrl()}/`);
    const homeSources = scriptSrc(home);
    const homeHtml = await home.text();
    expect(homeSources.some((s) => s.startsWith("'nonce-") || s === "'unsafe-inline'")).toBe(false);
    expect(inlineScripts(homeHtml).length).toBeGreaterThan(0);
    for (const script of inlineScripts(homeHtml)) {
      expect(homeSources).toContain(`'sha256-${createHash('sha256').update(script).digest('base64')}'`);
    }

    // Private page (never cached): every script carries this response's nonce.
    const res = await fetch(`${baseUrl()}/schedule`);
    const nonce = /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy')!)![1]!;
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
    // Precompressed at build time: brotli for a browser that accepts it.
    const br = await fetch(`${baseUrl()}${asset}`, { headers: { 'accept-encoding': 'br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    // A script is not a document: only the headers that apply to a file.
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    for (const name of ['content-security-policy', 'permissions-policy', 'x-frame-options', 'strict-transport-security', 'referrer-policy', 'x-request-id']) {
      expect(res.headers.get(name), name).toBeNull();
    }
    // An SVG opened directly is a document: it may run nothing.
    const svg = await fetch(`${baseUrl()}/favicon.svg`);
    expect(svg.headers.get('content-security-policy')).toContain("default-src 'none'");
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
