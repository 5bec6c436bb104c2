import { describe, expect, it } from 'vitest';
import { baseUrl } from './browser.ts';

const cspNonce = (res: Response) => /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1];

/** The production server renders a public page once, then answers from memory with a fresh nonce. */
describe('rendered page cache', () => {
  it('serves a public page from the cache with identical content and a new nonce each time', async () => {
    // A query string of our own: a key no other test has warmed.
    const url = `${baseUrl()}/remote-notarization?page-cache-test=${Date.now()}`;
    const first = await fetch(url);
    const second = await fetch(url);
    expect(first.headers.get('x-page-cache')).toBe('miss');
    expect(second.headers.get('x-page-cache')).toBe('hit');
    expect(second.status).toBe(200);

    const [nonce1, nonce2] = [cspNonce(first), cspNonce(second)];
    expect(nonce1).toBeTruthy();
    expect(nonce2).toBeTruthy();
    expect(nonce1).not.toBe(nonce2);

    const [html1, html2] = [await first.text(), await second.text()];
    // Every script carries its own response's nonce, and nothing else differs.
    expect(html2).toContain(`nonce="${nonce2}"`);
    expect(html2).not.toContain(nonce1);
    expect(html2).not.toMatch(/csp-nonce-[0-9a-f]{32}/);
    expect(html1.replaceAll(nonce1!, 'NONCE')).toBe(html2.replaceAll(nonce2!, 'NONCE'));
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
