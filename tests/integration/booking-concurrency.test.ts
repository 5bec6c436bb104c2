import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slotTakenMessage } from '../../src/shared/booking.ts';
import { bookings } from '../../src/server/db/schema.ts';
import { holdSlot, startBooking } from '../../src/server/features/booking/service.ts';
import { createTestDeps, type TestContext } from '../helpers/app.ts';
import { dbKinds } from '../helpers/db.ts';
import { chicago } from '../helpers/bookings.ts';

/**
 * The capacity guarantee: 50 different draft bookings ask for the same slot
 * (capacity 3) at the same moment. On PostgreSQL the holds run on up to 20
 * pooled connections at once; exactly three may win.
 */
describe.each(dbKinds)('concurrent holds (%s)', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestDeps(kind, { BOOKING_SLOT_CAPACITY: '3' });
    ctx.deps.now = () => new Date('2027-03-10T15:00:00Z');
  });
  afterAll(() => ctx.close());

  it('50 simultaneous holds on a slot of capacity 3 give exactly 3', async () => {
    const slot = chicago('2027-03-12', '10:00');
    const drafts = await Promise.all(Array.from({ length: 50 }, () => startBooking(ctx.deps, { timeZone: 'America/Chicago' })));
    const results = await Promise.allSettled(
      drafts.map(({ bookingId }) => holdSlot(ctx.deps, { bookingId, startsAt: slot, timeZone: 'America/Chicago' })),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(won).toHaveLength(3);
    expect(lost).toHaveLength(47);
    expect(new Set(lost.map((r) => `${r.reason.code}: ${r.reason.message}`))).toEqual(new Set([`CONFLICT: ${slotTakenMessage}`]));

    const rows = await ctx.deps.db.select({ id: bookings.id }).from(bookings).where(and(eq(bookings.startsAt, slot), eq(bookings.status, 'held')));
    expect(rows).toHaveLength(3);
  });

  it('a visitor moving between two slots while others fill them never overfills either', async () => {
    const a = chicago('2027-03-12', '11:00');
    const b = chicago('2027-03-12', '11:30');
    const drafts = await Promise.all(Array.from({ length: 20 }, () => startBooking(ctx.deps, { timeZone: 'UTC' })));
    await Promise.allSettled(
      drafts.flatMap(({ bookingId }, i) => [
        holdSlot(ctx.deps, { bookingId, startsAt: i % 2 ? a : b, timeZone: 'UTC' }),
        holdSlot(ctx.deps, { bookingId, startsAt: i % 2 ? b : a, timeZone: 'UTC' }),
      ]),
    );
    for (const slot of [a, b]) {
      const rows = await ctx.deps.db.select({ id: bookings.id }).from(bookings).where(and(eq(bookings.startsAt, slot), eq(bookings.status, 'held')));
      expect(rows.length).toBeLessThanOrEqual(3);
    }
  });
});
