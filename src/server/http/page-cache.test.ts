import { describe, expect, it } from 'vitest';
import { createPageCache, isCacheablePage, pageWithNonce } from './page-cache.ts';

describe('page cache', () => {
  it('stores a page once and gives each response its own nonce', () => {
    const cache = createPageCache({ maxEntries: 10, maxBytes: 10_000 });
    const p = cache.placeholder;
    cache.set('/', 200, `<script nonce="${p}">a</script><script nonce="${p}" type="module">b</script>`);
    const page = cache.get('/')!;
    expect(pageWithNonce(page, 'n1').toString()).toBe('<script nonce="n1">a</script><script nonce="n1" type="module">b</script>');
    expect(pageWithNonce(page, 'n2').toString()).toBe('<script nonce="n2">a</script><script nonce="n2" type="module">b</script>');
  });

  it('uses a placeholder no page text can know in advance', () => {
    expect(createPageCache({ maxEntries: 1, maxBytes: 1 }).placeholder).not.toBe(createPageCache({ maxEntries: 1, maxBytes: 1 }).placeholder);
  });

  it('evicts the least recently used page beyond the entry bound', () => {
    const cache = createPageCache({ maxEntries: 2, maxBytes: 10_000 });
    cache.set('/a', 200, 'a');
    cache.set('/b', 200, 'b');
    cache.get('/a');
    cache.set('/c', 200, 'c');
    expect(cache.size).toBe(2);
    expect(cache.get('/b')).toBeUndefined();
    expect(cache.get('/a')).toBeDefined();
    expect(cache.get('/c')).toBeDefined();
  });

  it('stays under its byte bound however many URLs are asked for', () => {
    const cache = createPageCache({ maxEntries: 1_000, maxBytes: 1_000 });
    for (let i = 0; i < 500; i++) cache.set(`/?utm=${i}`, 200, 'x'.repeat(90));
    expect(cache.bytes).toBeLessThanOrEqual(1_000);
    expect(cache.size).toBeLessThanOrEqual(10);
    cache.set('/huge', 200, 'x'.repeat(2_000));
    expect(cache.get('/huge')).toBeUndefined();
  });

  it('replaces an entry without counting it twice', () => {
    const cache = createPageCache({ maxEntries: 10, maxBytes: 10_000 });
    cache.set('/a', 200, 'aaaa');
    cache.set('/a', 200, 'aaaa');
    expect(cache.size).toBe(1);
    expect(cache.bytes).toBe(6);
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
