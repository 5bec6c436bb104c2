import { describe, expect, it } from 'vitest';
import { nonceSource } from './security.ts';

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
