import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getBookingView, startBooking } from '../../src/server/features/booking/service.ts';
import { cachedWorkingHours } from '../../src/server/features/availability/service.ts';
import { listSlots, slotStartsOnDate } from '../../src/server/features/booking/slots.ts';
import { businessSlotsOnDate } from '../../src/shared/time.ts';
import { createTestDeps, type TestContext } from '../helpers/app.ts';
import { dbKinds } from '../helpers/db.ts';

/** Wednesday March 10, 2027, 9:00 AM in Chicago. */
const now = new Date('2027-03-10T15:00:00Z');

describe('slot grid', () => {
  it('is built once per date and zone and matches the zone arithmetic', () => {
    const first = slotStartsOnDate('2027-03-14', 'Asia/Tokyo');
    expect(first).toEqual(businessSlotsOnDate('2027-03-14', 'Asia/Tokyo'));
    expect(slotStartsOnDate('2027-03-14', 'Asia/Tokyo')).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    // The day daylight saving starts in Chicago still has all 30 slots.
    expect(slotStartsOnDate('2027-03-14', 'America/Chicago')).toHaveLength(30);
  });
});

describe.each(dbKinds)('booking reads (%s)', (kind) => {
  let context: TestContext;
  beforeAll(async () => {
    context = await createTestDeps(kind, { BOOKING_MIN_NOTICE_MINUTES: '60', BOOKING_WINDOW_DAYS: '60' });
    context.deps.now = () => now;
  });
  afterAll(() => context.close());

  it('lists a day with one capacity query', async () => {
    await cachedWorkingHours(context.deps.db); // the notaries' hours this node keeps (decision 095)
    const select = vi.spyOn(context.deps.db, 'select');
    const view = await listSlots(context.deps, context.deps.db, { date: '2027-03-11', timeZone: 'America/Chicago' });
    expect(view.slots).toHaveLength(30);
    expect(select).toHaveBeenCalledTimes(1);
    select.mockRestore();
  });

  it.runIf(kind === 'postgres')('reads a booking inside a transaction one query at a time', async () => {
    const { bookingId } = await startBooking(context.deps, { timeZone: 'America/Chicago' });
    // node-postgres queues (and warns about) queries sent while one is running on the same client.
    let inFlight = 0;
    let maxInFlight = 0;
    const original = pg.Client.prototype.query;
    const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const result = (original as (...a: unknown[]) => unknown).apply(this, args);
      if (result && typeof (result as Promise<unknown>).finally === 'function') return (result as Promise<unknown>).finally(() => inFlight--);
      inFlight--;
      return result;
    } as never);
    try {
      const view = await context.deps.db.transaction((tx) => getBookingView(tx, bookingId));
      expect(view?.id).toBe(bookingId);
    } finally {
      spy.mockRestore();
    }
    expect(maxInFlight).toBe(1);
  });
});
