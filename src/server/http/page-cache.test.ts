import { createHash } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { chooseEncoding, createPageCache, etagFor, inlineScripts, isCacheablePage, notModified } from './page-cache.ts';

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('page cache', () => {
  it('stores a page once: the same bytes, brotli and gzip of them, the hashes of its inline scripts', async () => {
    const cache = createPageCache({ maxEntries: 10, maxBytes: 100_000 });
    const html = `<script>window.a=1</script><script type="module" src="/assets/x.js"></script><script type="application/ld+json">{"@type":"Thing"}</script><script type="module">import "/b.js"</script>`;
    await cache.set('/', 200, html);
    const page = cache.get('/')!;
    expect(page.identity.toString()).toBe(html);
    expect(brotliDecompressSync(page.br).toString()).toBe(html);
    expect(gunzipSync(page.gzip).toString()).toBe(html);
    // JSON-LD is data, never executed: CSP does not govern it. External scripts are 'self'.
    expect(page.scriptHashes).toEqual([sha256('window.a=1'), sha256('import "/b.js"')]);
    expect(cache.get('/')).toBe(page);
  });

  it('names each encoding with its own strong ETag and answers If-None-Match', async () => {
    const cache = createPageCache({ maxEntries: 10, maxBytes: 100_000 });
    const page = await cache.set('/', 200, '<p>hello</p>');
    const tags = (['br', 'gzip', 'identity'] as const).map((e) => etagFor(page, e));
    expect(new Set(tags).size).toBe(3);
    for (const tag of tags) expect(tag).toMatch(/^"[A-Za-z0-9_-]+(-br|-gz)?"$/);
    expect(notModified(tags[0], tags[0]!)).toBe(true);
    expect(notModified(`"other", W/${tags[0]}`, tags[0]!)).toBe(true);
    expect(notModified(tags[1], tags[0]!)).toBe(false);
    expect(notModified(undefined, tags[0]!)).toBe(false);
    // Another page, another validator.
    expect(etagFor(await cache.set('/b', 200, '<p>other</p>'), 'br')).not.toBe(tags[0]);
  });

  it('chooses brotli, then gzip, honouring q=0', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(chooseEncoding('gzip, deflate')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding(undefined)).toBe('identity');
    expect(chooseEncoding('deflate')).toBe('identity');
  });

  it('finds the inline scripts a browser would execute', () => {
    expect(inlineScripts('<script nonce="x">a()</script><SCRIPT type="text/javascript">b()</SCRIPT><script src=/c.js></script><script type="application/json">{}</script>')).toEqual(['a()', 'b()']);
  });

  it('forgets every page on clear(), and never stores a page rendered before it', async () => {
    const cache = createPageCache({ maxEntries: 10, maxBytes: 100_000 });
    await cache.set('/', 200, '<p>24/7</p>');
    const before = cache.generation;
    cache.clear();
    expect(cache.get('/')).toBeUndefined();
    expect(cache.bytes).toBe(0);
    // Rendered with the old hours, stored after the clear: answered, not kept.
    await cache.set('/', 200, '<p>24/7</p>', before);
    expect(cache.get('/')).toBeUndefined();
    await cache.set('/', 200, '<p>Monday–Friday</p>', cache.generation);
    expect(cache.get('/')?.identity.toString()).toBe('<p>Monday–Friday</p>');
  });

  it('evicts the least recently used page beyond the entry bound', async () => {
    const cache = createPageCache({ maxEntries: 2, maxBytes: 10_000 });
    await cache.set('/a', 200, 'a');
    await cache.set('/b', 200, 'b');
    cache.get('/a');
    await cache.set('/c', 200, 'c');
    expect(cache.size).toBe(2);
    expect(cache.get('/b')).toBeUndefined();
    expect(cache.get('/a')).toBeDefined();
    expect(cache.get('/c')).toBeDefined();
  });

  it('stays under its byte bound however many URLs are asked for', async () => {
    const cache = createPageCache({ maxEntries: 1_000, maxBytes: 3_000 });
    for (let i = 0; i < 200; i++) await cache.set(`/?utm=${i}`, 200, 'x'.repeat(90));
    expect(cache.bytes).toBeLessThanOrEqual(3_000);
    expect(cache.size).toBeLessThan(200);
    await cache.set('/huge', 200, 'x'.repeat(5_000));
    expect(cache.get('/huge')).toBeUndefined();
  });

  it('replaces an entry without counting it twice', async () => {
    const cache = createPageCache({ maxEntries: 10, maxBytes: 10_000 });
    await cache.set('/a', 200, 'aaaa');
    const once = cache.bytes;
    await cache.set('/a', 200, 'aaaa');
    expect(cache.size).toBe(1);
    expect(cache.bytes).toBe(once);
  });
});

describe('which pages may be cached', () => {
  it.each([
    ['/', true],
    ['/blog', true],
    ['/blog/some-article', true],
    ['/remote-notarization', true],
    ['/schedule', false],
    ['/schedule/', false],
    ['/Schedule', false],
    ['/%73chedule', false],
    ['//schedule', false],
    ['/booking/abc', false],
    ['/admin', false],
    ['/admin/login', false],
    ['/ADMIN/bookings', false],
    ['/%E0%A4%A', false],
  ])('%s → %s', (path, expected) => {
    expect(isCacheablePage('GET', path, path)).toBe(expected);
  });

  it('only caches reads of reasonably short URLs', () => {
    expect(isCacheablePage('POST', '/', '/')).toBe(false);
    expect(isCacheablePage('HEAD', '/', '/')).toBe(true);
    expect(isCacheablePage('GET', '/', `/?q=${'x'.repeat(300)}`)).toBe(false);
  });
});
