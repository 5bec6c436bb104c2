import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientAddress, originAllowed } from './socket.ts';

const request = (headers: Record<string, string>, remoteAddress = '10.0.0.9') =>
  ({ headers, socket: { remoteAddress } }) as unknown as IncomingMessage;

describe('originAllowed', () => {
  const publicUrl = 'https://notary.example';
  it('allows same-origin and header-less requests', () => {
    expect(originAllowed(request({ host: 'notary.example' }), publicUrl)).toBe(true);
    expect(originAllowed(request({ host: 'node-1:3000', origin: 'https://notary.example' }), publicUrl)).toBe(true);
    expect(originAllowed(request({ host: '127.0.0.1:4000', origin: 'http://127.0.0.1:4000', 'sec-fetch-site': 'same-origin' }), publicUrl)).toBe(true);
  });
  it('refuses foreign, malformed and cross-site requests', () => {
    expect(originAllowed(request({ host: 'notary.example', origin: 'https://evil.example' }), publicUrl)).toBe(false);
    expect(originAllowed(request({ host: 'notary.example', origin: 'null' }), publicUrl)).toBe(false);
    expect(originAllowed(request({ host: 'notary.example', 'sec-fetch-site': 'cross-site' }), publicUrl)).toBe(false);
  });
});

describe('clientAddress', () => {
  it('uses the socket address unless proxies are trusted', () => {
    expect(clientAddress(request({ 'x-forwarded-for': '1.2.3.4' }), 0)).toBe('10.0.0.9');
  });
  it('takes the address the trusted proxies saw, like Express', () => {
    const req = request({ 'x-forwarded-for': '6.6.6.6, 1.2.3.4' });
    expect(clientAddress(req, 1)).toBe('1.2.3.4');
    expect(clientAddress(req, 2)).toBe('6.6.6.6');
    expect(clientAddress(req, 5)).toBe('6.6.6.6');
  });
});
