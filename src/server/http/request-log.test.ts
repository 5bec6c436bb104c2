import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import { requestLog } from './request-log.ts';

describe('requestLog', () => {
  let server: Server | undefined;
  afterEach(() => server?.close());

  async function serve(level: string) {
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
        done();
      },
    });
    const log = createLogger(level, sink);
    let children = 0;
    const child = log.child.bind(log);
    log.child = ((...args: Parameters<typeof child>) => {
      children++;
      return child(...args);
    }) as typeof log.child;
    const app = express();
    app.use(requestLog(log, { quiet: (url) => url.startsWith('/healthz') }));
    app.get('/warn/:token', (req, res) => {
      req.log.warn({ seen: req.id }, 'something to say');
      res.send('ok');
    });
    app.get('/fail', (_req, res) => void res.status(503).send('down'));
    app.get('/{*rest}', (_req, res) => void res.send('ok'));
    server = createServer(app);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
    return { url, lines, children: () => children, settle };
  }

  it('gives each request an id (X-Request-Id) and a logger whose lines carry it, the method and the path with its secret masked, never the query', async () => {
    const { url, lines, settle } = await serve('warn');
    const res = await fetch(`${url}/warn/x?token=secret-in-query`);
    await res.text();
    await settle();
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines).toEqual([expect.objectContaining({ msg: 'something to say', seen: id, req: { id, method: 'GET', path: '/warn/x' } })]);
    expect(JSON.stringify(lines)).not.toContain('secret-in-query');
    const booking = await fetch(`${url}/booking/Zq9secrettoken`);
    await booking.text();
    expect(booking.headers.get('x-request-id')).not.toBe(id);
  });

  it('writes one line per answer at info (errored from 500 up), none for quiet paths', async () => {
    const { url, lines, settle } = await serve('info');
    for (const path of ['/schedule?date=2027-01-01', '/healthz', '/fail', '/booking/Zq9secrettoken']) await (await fetch(`${url}${path}`)).text();
    await settle();
    expect(lines.map((l) => [l.msg, (l.req as { path: string }).path, (l.res as { statusCode: number }).statusCode])).toEqual([
      ['request completed', '/schedule', 200],
      ['request errored', '/fail', 503],
      ['request completed', '/booking/[redacted]', 200],
    ]);
    expect(lines.every((l) => typeof l.responseTime === 'number' && l.level === 30)).toBe(true);
  });

  it('makes no logger for a request that logs nothing (the level drops the request line)', async () => {
    const { url, lines, children, settle } = await serve('warn');
    for (let i = 0; i < 5; i++) await (await fetch(`${url}/schedule`)).text();
    await settle();
    expect(lines).toEqual([]);
    expect(children()).toBe(0);
  });
});
