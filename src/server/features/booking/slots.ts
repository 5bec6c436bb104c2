import {
  slotBeyondWindowMessage,
  slotInPastMessage,
  slotOutOfHoursMessage,
  type SlotsListView,
} from '../../../shared/booking.ts';
import { isSlotBoundary, slotBoundariesBetween, type NotaryHours } from '../../../shared/availability.ts';
import { businessSlotsOnDate, dayBounds, isBusinessSlotStart } from '../../../shared/time.ts';
import type { Db } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import { takenBetween } from './repository.ts';
import { DomainError } from '../../errors.ts';
import { cachedWorkingHours, capacityFrom } from '../availability/service.ts';

/**
 * The bookable range right now: from the minimum notice to the end of the
 * booking window. Both ends move with `deps.now()`.
 */
export function bookableRange(deps: Pick<Deps, 'config' | 'now'>): { earliest: Date; latest: Date } {
  const now = deps.now().getTime();
  return {
    earliest: new Date(now + deps.config.BOOKING_MIN_NOTICE_MINUTES * 60_000),
    latest: new Date(now + deps.config.BOOKING_WINDOW_DAYS * 24 * 3600_000),
  };
}

/**
 * Refuses anything that is not a listed slot: off-grid, out of hours, too soon
 * or too far ahead. Hours are the notaries' (`hours`: some notary works the
 * slot) or, before anyone has hours (null), business hours.
 */
export function assertBookableSlot(deps: Pick<Deps, 'config' | 'now'>, startsAt: Date, hours: NotaryHours[] | null): void {
  const inHours = hours ? isSlotBoundary(startsAt) && capacityFrom(hours, deps, startsAt) > 0 : isBusinessSlotStart(startsAt);
  if (!inHours) throw new DomainError('BAD_REQUEST', slotOutOfHoursMessage);
  const { earliest, latest } = bookableRange(deps);
  if (startsAt < earliest) throw new DomainError('BAD_REQUEST', slotInPastMessage);
  if (startsAt > latest) throw new DomainError('BAD_REQUEST', slotBeyondWindowMessage);
}

/**
 * Business slot starts per (date, zone). Pure for a given time-zone database,
 * and building them (about 90 zoned conversions) cost more than the capacity
 * query itself; bounded so arbitrary dates cannot grow it. The arrays are
 * shared: callers filter into new arrays and never mutate them.
 */
const slotGrid = new Map<string, readonly Date[]>();
const slotGridMaxEntries = 5_000;

export function slotStartsOnDate(date: string, timeZone: string): readonly Date[] {
  const key = `${date}|${timeZone}`;
  let starts = slotGrid.get(key);
  if (!starts) {
    starts = Object.freeze(businessSlotsOnDate(date, timeZone));
    if (slotGrid.size >= slotGridMaxEntries) slotGrid.delete(slotGrid.keys().next().value!);
    slotGrid.set(key, starts);
  }
  return starts;
}

/** Every 30-minute start of `date` in `timeZone` (23, 24 or 25 hours of them). */
function notaryGrid(date: string, timeZone: string): Date[] {
  const { start, end } = dayBounds(date, timeZone);
  return slotBoundariesBetween(start, end);
}

/**
 * The slots falling on `date` in the visitor's zone, each with its remaining
 * capacity: the notaries working it minus its bookings, or — before any notary
 * has hours — business hours at BOOKING_SLOT_CAPACITY. Slots that are past,
 * inside the notice, beyond the window or that nobody works are left out
 * rather than shown as unavailable.
 */
export async function listSlots(
  deps: Pick<Deps, 'config' | 'now'>,
  /** The database, not a transaction: the capacity query is prepared on it. */
  db: Db,
  { date, timeZone }: { date: string; timeZone: string },
): Promise<SlotsListView> {
  const { earliest, latest } = bookableRange(deps);
  const hours = await cachedWorkingHours(db);
  const grid = hours ? notaryGrid(date, timeZone) : slotStartsOnDate(date, timeZone);
  const starts = grid.filter((s) => s >= earliest && s <= latest && (!hours || capacityFrom(hours, deps, s) > 0));
  if (starts.length === 0) return { date, timeZone, slots: [] };
  const taken = await takenBetween(db, starts[0]!, new Date(starts.at(-1)!.getTime() + 1), deps.now());
  return {
    date,
    timeZone,
    slots: starts.map((startsAt) => {
      const remaining = Math.max(0, capacityFrom(hours, deps, startsAt) - (taken.get(startsAt.getTime()) ?? 0));
      return { startsAt, remaining, available: remaining > 0 };
    }),
  };
}
