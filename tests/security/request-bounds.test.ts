import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyLimits } from '../../src/server/http/body-limit.ts';
import { createBoundedServer } from '../../src/server/http/server.ts';
import { bookingRates } from '../../src/server/features/booking/router.ts';
import { trpcMaxBatchSize } from '../../src/shared/trpc-limits.ts';
import { startTestApp, type TestServer } from '../helpers/app.ts';

/**
 * Attacks on the HTTP layer's bounds: bodies, batches, slow and many
 * connections. The database does not matter here (PGlite).
 */
describe('request bounds', () => {
  let app: TestServer;
  beforeAll(async () => {
    app = await startTestApp('pglite');
  });
  afterAll(() => app.close());

  /** Sends headers declaring `declared` bytes and a first KB; resolves with the status the server answers before the rest. */
  const statusBeforeBody = (path: string, declared: number, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; bodyText: string }>((resolve, reject) => {
      const url = new URL(path, app.url);
      const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(declared), ...headers } });
      req.on('response', (res) => {
        let bodyText = '';
        res.on('data', (c: Buffer) => (bodyText += c));
        res.on('end', () => {
          resolve({ status: res.statusCode!, bodyText });
          req.destroy();
        });
      });
      req.on('error', (error) => ((error as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(error)));
      req.write(Buffer.alloc(1024, 0x20));
    });

  it('a 100 MB JSON body to booking.start → 413 before the body is read', async () => {
    const started = Date.now();
    const answer = await statusBeforeBody('/trpc/booking.start', 100 * 1024 * 1024);
    expect(answer.status).toBe(413);
    expect(answer.bodyText).not.toMatch(/\/|ENOENT|at /);
    // Answered from the headers alone: the other 99.99 MB were never sent.
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  /**
   * Finding 2 (round 3): the identity upload read and parsed 34 MB per
   * anonymous request before looking at its token; the recording-chunk route
   * read 8 MB before the staff session. Expected: the caller is known and
   * authorised from the headers, the refusal answered before the body is sent,
   * and memory does not grow with such requests.
   */
  it('an anonymous 34 MB identity upload, or 8 MB recording chunk → refused from the headers before the body is read; memory does not grow', async () => {
    const started = Date.now();
    const identity = await statusBeforeBody(`/api/manage/identity/test?token=${'x'.repeat(43)}`, 34 * 1024 * 1024, { 'sec-fetch-site': 'same-origin' });
    expect(identity.status).toBe(404);
    expect(JSON.parse(identity.bodyText)).toEqual({ error: 'We could not find this booking. Please check the link in your confirmation email.' });
    const chunk = await new Promise<number>((resolve, reject) => {
      const req = request(new URL('/api/session/recordings/00000000-0000-4000-8000-000000000000/chunks/0', app.url), {
        method: 'PUT',
        headers: { 'content-type': 'application/octet-stream', 'content-length': String(8 * 1024 * 1024), 'sec-fetch-site': 'same-origin' },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode!);
        req.destroy();
      });
      req.on('error', (error) => ((error as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(error)));
      req.write(Buffer.alloc(1024));
    });
    expect(chunk).toBe(401);
    expect(Date.now() - started).toBeLessThan(2_000);

    // Thirty of them at once: the server holds none of their bodies.
    globalThis.gc?.();
    const before = process.memoryUsage().rss;
    const answers = await Promise.all(Array.from({ length: 30 }, () => statusBeforeBody(`/api/manage/identity/test?token=${'z'.repeat(43)}`, 34 * 1024 * 1024, { 'sec-fetch-site': 'same-origin' })));
    expect(answers.map((a) => a.status)).toEqual(Array(30).fill(404));
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
  });

  it(`a chunked body (no Content-Length) over ${bodyLimits.trpc / 1024} KB to tRPC → 413`, async () => {
    const big = JSON.stringify({ timeZone: 'x'.repeat(bodyLimits.trpc + 10) });
    const res = await fetch(`${app.url}/trpc/booking.start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new Blob([big]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    await res.text();
  });

  it('a body just under the limit still reaches the procedure (answered 400 for its bad input, not 413)', async () => {
    const res = await fetch(`${app.url}/trpc/booking.start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ json: { timeZone: 'x'.repeat(bodyLimits.trpc - 200) } }),
    });
    expect(res.status).toBe(400);
    await res.text();
  });

  it('the Stripe webhook and the no-script form posts have their own limits → 413', async () => {
    expect((await statusBeforeBody('/api/stripe/webhook', bodyLimits.stripeWebhook + 1)).status).toBe(413);
    expect((await statusBeforeBody('/api/contact', bodyLimits.formPost + 1, { 'content-type': 'application/x-www-form-urlencoded' })).status).toBe(413);
  });

  it(`a tRPC batch of ${trpcMaxBatchSize + 1} calls → 400; ${trpcMaxBatchSize} are answered`, async () => {
    const batch = (n: number) => {
      const paths = Array(n).fill('slots.list').join(',');
      const input = Object.fromEntries(Array.from({ length: n }, (_, i) => [i, { json: { date: '2026-03-05', timeZone: 'America/Chicago' } }]));
      return fetch(`${app.url}/trpc/${paths}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`);
    };
    const tooMany = await batch(trpcMaxBatchSize + 1);
    expect(tooMany.status).toBe(400);
    await tooMany.text();
    const fine = await batch(trpcMaxBatchSize);
    expect(fine.status).toBe(200);
    expect(await fine.json()).toHaveLength(trpcMaxBatchSize);
  });

  it(`batching booking.start does not dodge its rate limit: of ${bookingRates.start.limit + trpcMaxBatchSize} calls in batches, at most ${bookingRates.start.limit} pass, the rest are refused 429`, async () => {
    const statuses: number[] = [];
    const total = bookingRates.start.limit + trpcMaxBatchSize;
    for (let sent = 0; sent < total; sent += trpcMaxBatchSize) {
      const paths = Array(trpcMaxBatchSize).fill('booking.start').join(',');
      const body = Object.fromEntries(Array.from({ length: trpcMaxBatchSize }, (_, i) => [i, { json: { timeZone: 'America/Chicago' } }]));
      const res = await fetch(`${app.url}/trpc/${paths}?batch=1`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9' }, body: JSON.stringify(body) });
      const results = (await res.json()) as { error?: { json: { data: { httpStatus: number } } } }[];
      statuses.push(...results.map((r) => r.error?.json.data.httpStatus ?? 200));
    }
    // Earlier calls in this file from the same address count too (the limit is checked before input parsing).
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(bookingRates.start.limit);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(trpcMaxBatchSize);
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
  });
});

describe('slow and many connections', () => {
  it('slowloris (headers a byte at a time) → cut off at the header deadline, while a slow honest 10 MB upload completes', async () => {
    let received = 0;
    const server = createBoundedServer(
      (req, res) => {
        req.on('data', (chunk: Buffer) => (received += chunk.length));
        req.on('end', () => res.writeHead(201).end('stored'));
      },
      // The production bounds scaled down (20 s → 1 s) so the test is quick.
      { trustProxy: 0, bounds: { headersTimeoutMs: 1_000, requestTimeoutMs: 30_000, idleTimeoutMs: 1_500, checkIntervalMs: 100 } },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      // The attacker: a request line, then one header byte every 200 ms, never the blank line.
      const loris = connect(port, '127.0.0.1');
      const lorisClosed = new Promise<number>((resolve) => loris.on('close', () => resolve(Date.now())));
      loris.on('error', () => {});
      const lorisStart = Date.now();
      loris.write('POST /upload HTTP/1.1\r\nHost: x\r\n');
      const drip = setInterval(() => loris.writable && loris.write('X'), 200);

      // The honest client: 10 MB at ~4 MB/s, steadily, for ~2.5 s — longer than the header deadline.
      const size = 10 * 1024 * 1024;
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const upload = new Promise<number>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, method: 'PUT', path: '/upload', headers: { 'content-length': String(size) } }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on('error', reject);
        let sent = 0;
        const tick = setInterval(() => {
          req.write(chunk);
          sent += chunk.length;
          if (sent >= size) {
            clearInterval(tick);
            req.end();
          }
        }, 16);
      });

      const closedAt = await lorisClosed;
      clearInterval(drip);
      expect(closedAt - lorisStart).toBeLessThan(3_000);
      expect(await upload).toBe(201);
      expect(received).toBe(size);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('one address opening more connections than the cap → the extra ones are closed at once, the others keep working (loopback counted here; by default it is a same-host proxy and exempt)', async () => {
    const server = createBoundedServer((_req, res) => res.end('ok'), { trustProxy: 0, bounds: { maxConnectionsPerAddress: 5, capLoopback: true } });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const sockets: Socket[] = [];
    try {
      const open = async () => {
        const socket = connect(port, '127.0.0.1');
        sockets.push(socket);
        socket.on('error', () => {});
        await new Promise((resolve) => socket.once('connect', resolve));
        return socket;
      };
      for (let i = 0; i < 5; i++) await open();
      const extra = await open();
      await new Promise((resolve) => extra.once('close', resolve));
      // One of the five still gets an answer.
      const first = sockets[0]!;
      const answer = new Promise<string>((resolve) => first.once('data', (d: Buffer) => resolve(d.toString())));
      first.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
      expect(await answer).toMatch(/^HTTP\/1\.1 200/);
    } finally {
      for (const s of sockets) s.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
