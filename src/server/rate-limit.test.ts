import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dbKinds } from '../../tests/helpers/db.ts';
import { queryRows, type Database } from './db/client.ts';
import { consumeRate, NodeRateCounters, resetRate, sweepExpiredRates, type RateContext, type RateRule } from './rate-limit.ts';

/** How many counters the shared table holds. */
async function sharedRows(database: Database): Promise<number> {
  const [row] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from rate_limits`);
  return Number(row!.n);
}

describe.each(dbKinds)('rate limits on %s', (kind) => {
  let database: Database;
  /** Two nodes of one deployment: one database, each its own counters. */
  let nodeA: RateContext;
  let nodeB: RateContext;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    nodeA = { db: database.db, rateCounters: new NodeRateCounters() };
    nodeB = { db: database.db, rateCounters: new NodeRateCounters() };
  });
  afterAll(() => database.close());

  describe.each(['node', 'shared'] as const)('%s counters', (scope) => {
    it('allow `limit` calls per window, refuse the next with a retry time, and reset after the window', async () => {
      const rule: RateRule = { name: `test-${scope}`, limit: 3, windowSeconds: 60, scope };
      const t0 = new Date('2027-01-01T00:00:00Z');
      const decisions = [];
      for (let i = 0; i < 4; i++) decisions.push(await consumeRate(nodeA, rule, 'a', t0));
      expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false]);
      expect(decisions.map((d) => d.remaining)).toEqual([2, 1, 0, 0]);
      expect(decisions[3]!.retryAfterSeconds).toBe(60);
      expect((await consumeRate(nodeA, rule, 'b', t0)).allowed).toBe(true);
      const later = new Date(t0.getTime() + 61_000);
      expect((await consumeRate(nodeA, rule, 'a', later)).allowed).toBe(true);
      await resetRate(nodeA, rule, 'b');
      for (let i = 0; i < 3; i++) expect((await consumeRate(nodeA, rule, 'b', t0)).allowed).toBe(true);
    });

    it('never let concurrent callers past the limit', async () => {
      const rule: RateRule = { name: `burst-${scope}`, limit: 5, windowSeconds: 60, scope };
      const results = await Promise.all(Array.from({ length: 20 }, () => consumeRate(nodeA, rule, 'x')));
      expect(results.filter((r) => r.allowed)).toHaveLength(5);
    });
  });

  it('counts node rules without touching the database', async () => {
    const before = await sharedRows(database);
    const rule: RateRule = { name: 'per-request', limit: 1_000, windowSeconds: 60 };
    for (let i = 0; i < 50; i++) await consumeRate(nodeA, rule, `203.0.113.${i % 5}`);
    expect(await sharedRows(database)).toBe(before);
    expect(nodeA.rateCounters.size).toBeGreaterThanOrEqual(5);
  });

  it('counts shared rules once across nodes: the second node sees the first node’s calls', async () => {
    const rule: RateRule = { name: 'guessing', limit: 10, windowSeconds: 900, scope: 'shared' };
    const results = [];
    for (let i = 0; i < 6; i++) results.push(await consumeRate(i % 2 ? nodeB : nodeA, rule, 'account-1'));
    for (let i = 0; i < 6; i++) results.push(await consumeRate(i % 2 ? nodeA : nodeB, rule, 'account-1'));
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
    // A node rule is per node: the other node starts its own count.
    const local: RateRule = { name: 'flood', limit: 2, windowSeconds: 60 };
    await consumeRate(nodeA, local, 's');
    await consumeRate(nodeA, local, 's');
    expect((await consumeRate(nodeA, local, 's')).allowed).toBe(false);
    expect((await consumeRate(nodeB, local, 's')).allowed).toBe(true);
  });

  it('sweeps expired shared counters and keeps live ones', async () => {
    const rule: RateRule = { name: 'sweep', limit: 5, windowSeconds: 60, scope: 'shared' };
    const t0 = new Date('2027-02-01T00:00:00Z');
    for (let i = 0; i < 30; i++) await consumeRate(nodeA, rule, `old-${i}`, t0);
    const now = new Date(t0.getTime() + 120_000);
    await consumeRate(nodeA, rule, 'live', now);
    const swept = await sweepExpiredRates(database.db, now);
    expect(swept).toBeGreaterThanOrEqual(30);
    const left = await queryRows<{ key: string }>(database.db, sql`select key from rate_limits where key like 'sweep:%'`);
    expect(left.map((r) => r.key)).toEqual(['sweep:live']);
    // The live counter still counts where it was.
    expect((await consumeRate(nodeA, rule, 'live', now)).remaining).toBe(3);
  });
});

describe('node counters stay bounded', () => {
  it('drop expired counters first, then the oldest, past the bound', () => {
    const counters = new NodeRateCounters(100);
    for (let i = 0; i < 100; i++) counters.consume(`old-${i}`, 1_000, 0);
    // All expired by now: the next new key sweeps them.
    for (let i = 0; i < 150; i++) counters.consume(`new-${i}`, 60_000, 5_000);
    expect(counters.size).toBeLessThanOrEqual(100);
    // The newest survive with their counts.
    expect(counters.consume('new-149', 60_000, 5_000).points).toBe(2);
  });
});
