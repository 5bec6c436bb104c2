import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { slotOutOfHoursMessage, slotTakenMessage } from '../../src/shared/booking.ts';
import { describeServiceHours, type WorkingSpan } from '../../src/shared/availability.ts';
import { bookings, notaryAvailability, staffUsers } from '../../src/server/db/schema.ts';
import { holdSlot, moveBooking, startBooking } from '../../src/server/features/booking/service.ts';
import { listSlots } from '../../src/server/features/booking/slots.ts';
import * as availability from '../../src/server/features/availability/service.ts';
import type { StaffIdentity } from '../../src/server/features/staff/session.ts';
import { createTestDeps, type TestContext } from '../helpers/app.ts';
import { bookingIn, chicago } from '../helpers/bookings.ts';
import { dbKinds } from '../helpers/db.ts';
import { createStaffUser } from '../helpers/staff.ts';
import { rejectionOf } from '../helpers/async.ts';

/** Wednesday March 10, 2027, 9:00 AM in Chicago; US daylight saving starts Sunday March 14, the UK's March 28. */
const now = new Date('2027-03-10T15:00:00Z');
const weekdaysOnly = (start: number, end: number): WorkingSpan[] => [1, 2, 3, 4, 5].map((day) => ({ day, start, end }));
const everyDay = (start: number, end: number): WorkingSpan[] => [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, start, end }));
const h = (hours: number) => hours * 60;

describe.each(dbKinds)('notaries’ availability (%s)', (kind) => {
  let ctx: TestContext;
  let admin: StaffIdentity;
  beforeAll(async () => {
    ctx = await createTestDeps(kind, { BOOKING_SLOT_CAPACITY: '3', BOOKING_MIN_NOTICE_MINUTES: '60', BOOKING_WINDOW_DAYS: '60' });
    ctx.deps.now = () => now;
    const user = await createStaffUser(ctx.deps, { role: 'admin', name: 'Ada Admin' });
    admin = { user: { id: user.id, email: user.email, name: 'Ada Admin', role: 'admin', timeZone: 'America/Chicago' }, sessionId: 'test' };
  });
  afterAll(() => ctx.close());
  beforeEach(async () => {
    // Each test starts with no notary (earlier ones retired; bookings stay, on other dates).
    await ctx.deps.db.update(staffUsers).set({ active: false }).where(eq(staffUsers.role, 'notary'));
    availability.availabilityChanged(); // a change written straight to the table, as another node's would be
  });

  async function notary(name: string, timeZone: string, weekly: WorkingSpan[], datesOff: string[] = []) {
    const user = await createStaffUser(ctx.deps, { role: 'notary', name, timeZone });
    await availability.saveHours(ctx.deps, admin, { staffId: user.id, weekly, datesOff });
    return user;
  }
  const slots = async (date: string, timeZone = 'America/Chicago') =>
    (await listSlots(ctx.deps, ctx.deps.db, { date, timeZone })).slots.map((s) => ({ at: s.startsAt.toISOString(), remaining: s.remaining }));
  const remainingAt = async (date: string, instant: Date) => (await slots(date)).find((s) => s.at === instant.toISOString())?.remaining;
  const notaryOf = async (bookingId: string) => (await ctx.deps.db.select({ notaryId: bookings.notaryId }).from(bookings).where(eq(bookings.id, bookingId)))[0]!.notaryId;

  it('a new installation: business hours at BOOKING_SLOT_CAPACITY, and the console says so', async () => {
    const list = await slots('2027-03-15');
    expect(list).toHaveLength(30); // 8:00 AM to 10:30 PM
    expect(list[0]).toEqual({ at: chicago('2027-03-15', '8:00').toISOString(), remaining: 3 });
    expect(list.at(-1)!.at).toBe(chicago('2027-03-15', '22:30').toISOString());
    const view = await availability.getAvailability(ctx.deps, admin);
    expect(view.usingBusinessHours).toBe(true);
    expect(describeServiceHours(view.serviceHours)).toBe('every day 8:00 AM–11:00 PM (Central Time)');
    // A confirmed booking finds nobody to assign to.
    const booking = await bookingIn(ctx.deps, 'confirmed', { startsAt: chicago('2027-03-15', '8:00') });
    expect(await notaryOf(booking.bookingId)).toBeNull();
  });

  it('capacity is the notaries working a slot, in their own zones, minus its bookings', async () => {
    await notary('Nora NY', 'America/New_York', weekdaysOnly(h(9), h(17)));
    await notary('Lou LA', 'America/Los_Angeles', weekdaysOnly(h(9), h(12)));
    const date = '2027-03-16'; // Tuesday (CDT)
    const list = await slots(date);
    // 9:00 AM–5:00 PM New York = 8:00 AM–4:00 PM Chicago; 9:00 AM–noon Los Angeles = 11:00 AM–2:00 PM Chicago.
    expect(list[0]).toEqual({ at: chicago(date, '8:00').toISOString(), remaining: 1 });
    expect(list.at(-1)).toEqual({ at: chicago(date, '15:30').toISOString(), remaining: 1 });
    expect(list).toHaveLength(16);
    expect(await remainingAt(date, chicago(date, '11:00'))).toBe(2);
    expect(await remainingAt(date, chicago(date, '13:30'))).toBe(2);
    expect(await remainingAt(date, chicago(date, '14:00'))).toBe(1);
    // Nobody works 8:00 PM (inside the old business hours): refused as out of hours.
    const { bookingId } = await startBooking(ctx.deps, { timeZone: 'America/Chicago' });
    expect((await rejectionOf(holdSlot(ctx.deps, { bookingId, startsAt: chicago(date, '20:00'), timeZone: 'America/Chicago' }))).message).toBe(slotOutOfHoursMessage);
    // Two bookings fill the slot two notaries work.
    await bookingIn(ctx.deps, 'confirmed', { startsAt: chicago(date, '11:00') });
    expect(await remainingAt(date, chicago(date, '11:00'))).toBe(1);
    await bookingIn(ctx.deps, 'confirmed', { startsAt: chicago(date, '11:00') });
    expect(await remainingAt(date, chicago(date, '11:00'))).toBe(0);
    expect((await rejectionOf(holdSlot(ctx.deps, { bookingId, startsAt: chicago(date, '11:00'), timeZone: 'America/Chicago' }))).message).toBe(slotTakenMessage);
    // Weekends: nobody works.
    expect(await slots('2027-03-20')).toEqual([]);
  });

  it('dates off remove a notary from that day only', async () => {
    await notary('Dee', 'America/Chicago', weekdaysOnly(h(10), h(12)), ['2027-03-17']);
    expect(await slots('2027-03-17')).toEqual([]);
    expect(await slots('2027-03-18')).toHaveLength(4);
  });

  it('follows each notary’s wall clock across daylight-saving changes', async () => {
    await notary('Nick', 'America/New_York', everyDay(h(9), h(10)));
    // Before US daylight saving 9:00 AM New York is 14:00 UTC, after it 13:00 UTC.
    expect((await slots('2027-03-13', 'UTC')).map((s) => s.at)).toEqual(['2027-03-13T14:00:00.000Z', '2027-03-13T14:30:00.000Z']);
    expect((await slots('2027-03-15', 'UTC')).map((s) => s.at)).toEqual(['2027-03-15T13:00:00.000Z', '2027-03-15T13:30:00.000Z']);
    // The night of the change itself (a 23-hour day) still has exactly its two slots.
    expect((await slots('2027-03-14', 'America/New_York')).map((s) => s.at)).toEqual(['2027-03-14T13:00:00.000Z', '2027-03-14T13:30:00.000Z']);
  });

  it('a notary in London seen from Chicago moves by an hour when the UK changes its clocks', async () => {
    await notary('Liz', 'Europe/London', everyDay(h(9), h(10)));
    expect((await slots('2027-03-26'))[0]!.at).toBe(chicago('2027-03-26', '4:00').toISOString());
    expect((await slots('2027-03-29'))[0]!.at).toBe(chicago('2027-03-29', '3:00').toISOString());
  });

  it('assigns a confirmed booking to a notary working then, least booked first, never twice at one time', async () => {
    const a = await notary('Amy', 'America/Chicago', weekdaysOnly(h(9), h(17)));
    const b = await notary('Bea', 'America/Chicago', weekdaysOnly(h(9), h(12)));
    const date = '2027-03-22';
    const first = await bookingIn(ctx.deps, 'confirmed', { startsAt: chicago(date, '9:00') });
    const second = await bookingIn(ctx.deps, 'confirmed', { startsAt: chicago(date, '9:00') });
    expect(new Set([await notaryOf(first.bookingId), await notaryOf(second.bookingId)])).toEqual(new Set([a.id, b.id]));
    // Only Amy works 3:00 PM, whoever has fewer bookings.
    const afternoon = await bookingIn(ctx.deps, 'confirmed', { startsAt: chicago(date, '15:00') });
    expect(await notaryOf(afternoon.bookingId)).toBe(a.id);
    // Now Amy has two this week and Bea one: the next morning booking goes to Bea.
    const next = await bookingIn(ctx.deps, 'confirmed', { startsAt: chicago('2027-03-23', '10:00') });
    expect(await notaryOf(next.bookingId)).toBe(b.id);
    const audit = await ctx.deps.db.query.auditLog.findFirst({ where: (log, { and: all, eq: is }) => all(is(log.entityId, next.bookingId), is(log.action, 'booking.notary_assigned')) });
    expect(audit?.actorType).toBe('system');
  });

  it('a rescheduled booking keeps its notary when they work the new time, and changes notary when not', async () => {
    const early = await notary('Eve', 'America/Chicago', weekdaysOnly(h(9), h(17)));
    const late = await notary('Len', 'America/Chicago', weekdaysOnly(h(13), h(21)));
    const date = '2027-03-25';
    const booking = await bookingIn(ctx.deps, 'confirmed', { startsAt: chicago(date, '9:00') });
    expect(await notaryOf(booking.bookingId)).toBe(early.id);
    await ctx.deps.db.transaction((tx) => moveBooking(tx, ctx.deps, { bookingId: booking.bookingId, startsAt: chicago(date, '10:00') }));
    expect(await notaryOf(booking.bookingId)).toBe(early.id);
    await ctx.deps.db.transaction((tx) => moveBooking(tx, ctx.deps, { bookingId: booking.bookingId, startsAt: chicago(date, '18:00') }));
    expect(await notaryOf(booking.bookingId)).toBe(late.id);
  });

  it('off sick: the day becomes a date off and its bookings go to others (or to the office when nobody can)', async () => {
    const sick = await notary('Sam', 'America/Chicago', weekdaysOnly(h(9), h(17)));
    const date = '2027-03-24';
    const morning = await bookingIn(ctx.deps, 'confirmed', { startsAt: chicago(date, '9:00') });
    const afternoon = await bookingIn(ctx.deps, 'confirmed', { startsAt: chicago(date, '15:00') });
    expect(await notaryOf(morning.bookingId)).toBe(sick.id);
    const cover = await notary('Cat', 'America/Chicago', weekdaysOnly(h(9), h(12)));
    const me: StaffIdentity = { user: { id: sick.id, email: sick.email, name: 'Sam', role: 'notary', timeZone: 'America/Chicago' }, sessionId: 'test' };
    const result = await availability.offSick(ctx.deps, me, { date });
    expect(result).toMatchObject({ reassigned: 1, unassigned: 1 });
    expect(await notaryOf(morning.bookingId)).toBe(cover.id);
    expect(await notaryOf(afternoon.bookingId)).toBeNull();
    const [row] = await ctx.deps.db.select().from(notaryAvailability).where(eq(notaryAvailability.staffId, sick.id));
    expect(row!.datesOff).toEqual([date]);
    // Cat is now the only one working, and already has the 9:00.
    expect(await remainingAt(date, chicago(date, '9:00'))).toBe(0);
  });

  it('a notary edits only their own hours; bad hours change nothing', async () => {
    const mine = await notary('Mo', 'America/Chicago', weekdaysOnly(h(9), h(10)));
    const other = await notary('Ola', 'America/Chicago', weekdaysOnly(h(9), h(10)));
    const me: StaffIdentity = { user: { id: mine.id, email: mine.email, name: 'Mo', role: 'notary', timeZone: 'America/Chicago' }, sessionId: 'test' };
    expect((await rejectionOf(availability.saveHours(ctx.deps, me, { staffId: other.id, weekly: [], datesOff: [] }))).code).toBe('FORBIDDEN');
    const overlap = [{ day: 1, start: h(9), end: h(12) }, { day: 1, start: h(11), end: h(13) }];
    expect((await rejectionOf(availability.saveHours(ctx.deps, me, { weekly: overlap, datesOff: [] }))).message).toBe('Working hours on the same day must not overlap.');
    const [row] = await ctx.deps.db.select().from(notaryAvailability).where(and(eq(notaryAvailability.staffId, mine.id)));
    expect(row!.weekly).toHaveLength(5);
    await availability.setDuty(ctx.deps, me, { onDuty: true });
    const view = await availability.getAvailability(ctx.deps, me);
    expect(view.notaries.map((n) => [n.name, n.onDuty])).toEqual([['Mo', true]]);
  });

  it('another node’s change reaches this node’s listeners (the page cache) through the watcher', async () => {
    const someone = await notary('Wes', 'America/Chicago', weekdaysOnly(h(9), h(10)));
    let heard = 0;
    const stopListening = availability.onAvailabilityChanged(() => heard++);
    const errors: unknown[] = [];
    const watcher = availability.watchAvailability(ctx.deps.db, 50, (error) => errors.push(error));
    try {
      await watcher.ready;
      const before = heard;
      // Written straight to the table, as another node would: no event on this one.
      await ctx.deps.db.update(notaryAvailability).set({ onDuty: true }).where(eq(notaryAvailability.staffId, someone.id));
      await expect.poll(() => heard, { timeout: 5_000 }).toBeGreaterThan(before);
      expect(errors).toEqual([]);
    } finally {
      watcher.stop();
      stopListening();
    }
  });
});
