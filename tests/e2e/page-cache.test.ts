import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { baseUrl } from './browser.ts';

const scriptSrc = (res: Response) => /script-src ([^;]+)/.exec(res.headers.get('content-security-policy') ?? '')?.[1]?.split(' ') ?? [];
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** The production server renders and compresses a public page once, then answers every visitor with the same bytes. */
describe('rendered page cache', () => {
  it('serves a public page byte-identical from the cache, compressed once, scripts allowed by hash, with a strong ETag and 304', async () => {
    // A query string of our own: a key no other test has warmed.
    const url = `${baseUrl()}/remote-notarization?page-cache-test=${Date.now()}`;
    const headers = { 'accept-encoding': 'gzip, deflate, br, zstd' };
    const first = await fetch(url, { headers });
    const second = await fetch(url, { headers });
    expect(first.headers.get('x-page-cache')).toBe('miss');
    expect(second.headers.get('x-page-cache')).toBe('hit');
    expect(second.status).toBe(200);
    expect(second.headers.get('content-encoding')).toBe('br');
    expect(second.headers.get('vary')).toMatch(/accept-encoding/i);

    const [html1, html2] = [await first.text(), await second.text()];
    expect(html2).toBe(html1);
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(second.headers.get('etag')).toMatch(/^"[^"]+-br"$/);
    expect(html2).not.toContain('nonce=');
    // First paint needs no style-sheet request: the sheet is inline (the wizard keeps the cached link).
    expect(html2).toMatch(/<style>[\s\S]{1000,}?<\/style>/);
    expect(html2).not.toMatch(/<link rel="stylesheet"/);
    expect(await (await fetch(`${baseUrl()}/schedule`)).text()).toMatch(/<link rel="stylesheet"[^>]*\.css"/);

    // The policy is as strict as before: no nonce, no 'unsafe-inline', exactly the page's inline scripts by hash.
    const sources = scriptSrc(second);
    expect(sources).toEqual(scriptSrc(first));
    expect(sources.some((s) => s.startsWith("'nonce-"))).toBe(false);
    expect(sources).not.toContain("'unsafe-inline'");
    const inline = [...html2.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*application\/ld\+json)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(inline.length).toBeGreaterThanOrEqual(2); // public config + router hydration data
    for (const script of inline) expect(sources).toContain(sha256(script));

    // Revalidation: the browser's copy is current.
    const again = await fetch(url, { headers: { ...headers, 'if-none-match': second.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    // gzip for a client without brotli: its own validator, same page.
    const gz = await fetch(url, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gz.headers.get('etag')).toMatch(/-gz"$/);
    expect(await gz.text()).toBe(html1);
  });

  it('never answers the booking wizard, a manage link or the console from the cache', async () => {
    for (const path of ['/schedule', '/SCHEDULE', '/%73chedule', '/booking/not-a-real-token-000000', '/admin/login']) {
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${baseUrl()}${path}`, { redirect: 'manual' });
        expect(res.headers.get('x-page-cache'), path).toBeNull();
      }
    }
  });

  it('does not keep pages that were not found', async () => {
    const url = `${baseUrl()}/no-such-page-${Date.now()}`;
    for (let i = 0; i < 2; i++) {
      const res = await fetch(url);
      expect(res.status).toBe(404);
      expect(res.headers.get('x-page-cache')).toBe('miss');
    }
  });
});
