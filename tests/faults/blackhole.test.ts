import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundedFetch, createDatabase, explainSkip, faultsEnabled, removeDataDir, startDatabaseProxy, startNode, waitFor, type DatabaseProxy, type Node, type TestDatabase } from './harness.ts';

/**
 * The database stops answering: a peer that accepts TCP and never replies
 * (a proxy in the test swallows the traffic). Every request is answered within
 * its bound, /healthz stays 200 (a restart cannot fix the database), and once
 * the network heals the node is ready again without a restart. A SIGTERM
 * while the database is silent still exits cleanly within the shutdown deadline.
 */
explainSkip('blackhole');

const startBooking = (url: string) =>
  boundedFetch(`${url}/trpc/booking.start`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.${Math.floor(Math.random() * 250) + 1}` },
    body: JSON.stringify({ json: { timeZone: 'America/Chicago' } }),
  });

describe.skipIf(!faultsEnabled)('faults: the database becomes a black hole', () => {
  let database: TestDatabase;
  let proxy: DatabaseProxy;
  let node: Node;

  beforeAll(async () => {
    database = await createDatabase();
    proxy = await startDatabaseProxy(database.url);
    // 2 s statements: a silent peer is given up on after 7 s, a connection attempt after 2 s;
    // the shutdown deadline is longer, so a request stuck on the database still gets its answer.
    node = await startNode({ DATABASE_URL: proxy.url, DATABASE_TIMEOUT_SECONDS: '2', SHUTDOWN_TIMEOUT_SECONDS: '8' });
  });

  afterAll(async () => {
    await node?.kill9();
    await proxy?.close();
    await database?.drop();
    removeDataDir(node);
  });

  it('answers every request within its bound, stays alive, and recovers by itself when the network heals', async () => {
    expect((await startBooking(node.url)) as { status: number }).toMatchObject({ status: 200 });
    proxy.blackhole();

    // Requests that need the database fail within the bound instead of hanging.
    const during = await Promise.all([startBooking(node.url), startBooking(node.url), boundedFetch(`${node.url}/readyz`)]);
    for (const result of during) {
      expect(result, JSON.stringify(result)).toHaveProperty('status');
      expect(result.ms).toBeLessThan(12_000);
    }
    expect((during[0] as { status: number }).status).toBe(500);
    expect(during[2]).toMatchObject({ status: 503, body: { checks: { database: expect.stringMatching(/timeout|error/) } } });
    // Liveness: the database's outage is not the process's fault; restarting would not help.
    expect(await boundedFetch(`${node.url}/healthz`, {}, 5_000)).toMatchObject({ status: 200, body: { status: 'ok' } });

    proxy.heal();
    const recoveredIn = await waitFor(async () => (await boundedFetch(`${node.url}/readyz`, {}, 5_000) as { status?: number }).status === 200, {
      timeoutMs: 30_000,
      what: 'readyz 200 after the network healed',
      detail: node.output,
    });
    expect(recoveredIn).toBeLessThan(30_000);
    // Every pooled connection works again (none wedged behind an unanswered query).
    const after = await Promise.all(Array.from({ length: 12 }, () => startBooking(node.url)));
    expect(after.map((r) => ('status' in r ? r.status : r.error))).toEqual(Array(12).fill(200));
    expect(node.alive()).toBe(true);
  });

  it('shuts down cleanly within the deadline while the database is silent', async () => {
    proxy.blackhole();
    // Something in flight on the database when the signal comes.
    const inFlight = startBooking(node.url);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    const code = await node.stop();
    const tookMs = Date.now() - started;
    expect(code, node.output()).toBe(0);
    // The request in flight is answered (its query gave up after 7 s), then the node exits at once.
    expect(tookMs).toBeLessThan(15_000);
    expect(await inFlight).toMatchObject({ status: 500 });
    proxy.heal();
  });
});
