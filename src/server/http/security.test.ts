import helmet from 'helmet';
import { describe, expect, it } from 'vitest';
import type { Config } from '../config.ts';
import { helmetOptions, nonceSource, securityHeaders } from './security.ts';

describe('nonceSource', () => {
  it('gives 16 random bytes as base64 per call, never the same twice, across refills', () => {
    const next = nonceSource();
    // 1,000 nonces span four 4 KB draws.
    const nonces = Array.from({ length: 1000 }, next);
    for (const nonce of nonces) {
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(Buffer.from(nonce, 'base64')).toHaveLength(16);
    }
    expect(new Set(nonces).size).toBe(nonces.length);
    // Two sources do not share bytes.
    expect(nonceSource()()).not.toBe(nonceSource()());
  });
});

describe('securityHeaders', () => {
  /** The headers a middleware leaves on a response (names as written, in order), and those it removed. */
  function run(middleware: (req: never, res: never, next: () => void) => void, path: string, nonce: string) {
    const headers: Array<[string, string]> = [];
    const removed: string[] = [];
    const res = {
      locals: { cspNonce: nonce },
      setHeader: (name: string, value: unknown) => void headers.push([name, String(value)]),
      removeHeader: (name: string) => void removed.push(name),
    };
    let nexts = 0;
    middleware({ headers: {}, path } as never, res as never, () => nexts++);
    expect(nexts).toBe(1);
    return { headers, removed };
  }

  it("sets, per response, exactly what helmet sets with that response's nonce (decided once at start-up)", () => {
    for (const publicUrl of ['https://notary.test', 'http://127.0.0.1:3000']) {
      for (const development of [false, true]) {
        const config = { publicUrl } as Config;
        const ours = securityHeaders(config, { development });
        const perResponse = helmet(helmetOptions(config, development));
        for (const [path, nonce] of [
          ['/schedule', 'bm9uY2Ugb25lIG9uZSBvbmU='],
          ['/booking/abc/session', 'YW5vdGhlciBub25jZSB0d28='],
        ] as const) {
          const expected = run(perResponse as never, path, nonce);
          const got = run(ours as never, path, nonce);
          expect(got.headers.slice(0, -1)).toEqual(expected.headers);
          expect(got.removed).toEqual(expected.removed);
          expect(got.headers.find(([name]) => name === 'Content-Security-Policy')?.[1]).toContain(`'nonce-${nonce}'`);
          expect(got.headers.at(-1)).toEqual(['Permissions-Policy', expect.stringContaining(path.endsWith('/session') ? 'camera=(self)' : 'camera=()')]);
        }
      }
    }
  });
});
