import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings } from '../../src/server/db/schema.ts';
import { holdInOneRoundTrip } from '../../src/server/features/booking/repository.ts';
import { holdSlot, startBooking } from '../../src/server/features/booking/service.ts';
import { cachedWorkingHours } from '../../src/server/features/availability/service.ts';
import { createTestDeps, type TestContext } from '../helpers/app.ts';
import { dbKinds } from '../helpers/db.ts';
import { chicago } from '../helpers/bookings.ts';

/**
 * A hold is one round trip, on PostgreSQL and on the embedded database: BEGIN,
 * the slot's lock, the hold statement and COMMIT in one simple-protocol message
 * (docs/decisions/053-trpc-fast-lane.md). The capacity guarantee under
 * concurrency is booking-concurrency.test.ts.
 */
describe.each(dbKinds)('a hold (%s)', (kind) => {
  let ctx: TestContext;
  let pool: pg.Pool;
  const now = new Date('2027-03-10T15:00:00Z');
  const slot = chicago('2027-03-12', '10:00');
  beforeAll(async () => {
    ctx = await createTestDeps(kind, { BOOKING_SLOT_CAPACITY: '3' });
    ctx.deps.now = () => now;
    pool = ctx.deps.database.queryPool;
  });
  afterAll(() => ctx.close());

  it('sends one message to the database', async () => {
    const { bookingId } = await startBooking(ctx.deps, { timeZone: 'America/Chicago' });
    // The visitor listed the times first, which read the notaries' hours this node keeps (decision 095).
    await cachedWorkingHours(ctx.deps.db);
    const sent: string[] = [];
    const original = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const first = args[0] as string | { text: string };
      sent.push(typeof first === 'string' ? first : first.text);
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as never;
    try {
      await holdSlot(ctx.deps, { bookingId, startsAt: slot, timeZone: 'America/Chicago' });
    } finally {
      pg.Client.prototype.query = original;
    }
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^begin; select pg_advisory_xact_lock\(.*; commit$/s);
    const [row] = await ctx.deps.db.select().from(bookings).where(eq(bookings.id, bookingId));
    expect(row).toMatchObject({ status: 'held', startsAt: slot, timeZone: 'America/Chicago' });
  });

  it('writes values as literals that cannot escape their quotes', async () => {
    const { bookingId } = await startBooking(ctx.deps, { timeZone: 'America/Chicago' });
    const timeZone = `x'); delete from bookings; -- \\' "`;
    const outcome = await holdInOneRoundTrip(pool, { bookingId, startsAt: slot, timeZone, holdExpiresAt: new Date(now.getTime() + 600_000), now, capacity: 3 });
    expect(outcome).toBe('held');
    const [row] = await ctx.deps.db.select().from(bookings).where(eq(bookings.id, bookingId));
    expect(row!.timeZone).toBe(timeZone);
    expect((await ctx.deps.db.select().from(bookings)).length).toBeGreaterThanOrEqual(2);
  });

  it('rolls back a failed message before the connection is used again', async () => {
    const single = new pg.Pool({ connectionString: (pool.options as { connectionString: string }).connectionString, max: 1 });
    try {
      // Not a UUID: BEGIN and the lock succeed, the hold statement fails, COMMIT is skipped.
      await expect(holdInOneRoundTrip(single, { bookingId: 'not-a-uuid', startsAt: slot, timeZone: 'UTC', holdExpiresAt: now, now, capacity: 3 })).rejects.toThrow(/uuid/);
      // The same (only) connection: outside any transaction, and the slot's lock released.
      const { rows } = await single.query<{ tx: string | null; locks: number }>(
        `select txid_current_if_assigned()::text as tx, (select count(*)::int from pg_locks where locktype = 'advisory' and pid = pg_backend_pid()) as locks`,
      );
      expect(rows[0]).toEqual({ tx: null, locks: 0 });
    } finally {
      await single.end();
    }
  });
});
