import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dbKinds } from '../../tests/helpers/db.ts';
import type { Database } from './db/client.ts';
import { consumeRate } from './rate-limit.ts';

describe.each(dbKinds)('rate limits on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.close());

  it('allows `limit` calls per window, refuses the next with a retry time, and resets after the window', async () => {
    const rule = { name: 'test', limit: 3, windowSeconds: 60 };
    const t0 = new Date('2027-01-01T00:00:00Z');
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await consumeRate(database.db, rule, 'a', t0));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect(decisions[3]!.retryAfterSeconds).toBe(60);
    expect((await consumeRate(database.db, rule, 'b', t0)).allowed).toBe(true);
    const later = new Date(t0.getTime() + 61_000);
    expect((await consumeRate(database.db, rule, 'a', later)).allowed).toBe(true);
  });

  it('never lets concurrent callers past the limit', async () => {
    const rule = { name: 'burst', limit: 5, windowSeconds: 60 };
    const results = await Promise.all(Array.from({ length: 20 }, () => consumeRate(database.db, rule, 'x')));
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
  });
});
