import {
  slotBeyondWindowMessage,
  slotInPastMessage,
  slotOutOfHoursMessage,
  type SlotsListView,
} from '../../../shared/booking.ts';
import { isSlotBoundary, slotBoundariesBetween, type NotaryHours } from '../../../shared/availability.ts';
import { businessSlotsOnDate, dayBounds, isBusinessSlotStart } from '../../../shared/time.ts';
import { deepFreeze } from '../../../shared/trpc-transformer.ts';
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
 * The answer of `listSlots` per database and (date, zone), shared for up to
 * `slotsCacheMs` (decision 116): the busiest public call then costs no query.
 * A hold, move or cancellation made through this node drops every entry at
 * once (`slotsChanged`); one made on another node shows within `slotsCacheMs`
 * — a list is a view, the hold's own statement under the slot's lock is what
 * decides. An entry also ends when the clock (`deps.now`) has moved by as much,
 * or the notaries' hours read (`cachedWorkingHours`) is a newer one.
 */
export const slotsCacheMs = 1_000;
const slotsCacheMaxEntries = 1_000;
let slotsEpoch = 0;
interface SlotsEntry {
  at: number;
  nowAt: number;
  epoch: number;
  hours: NotaryHours[] | null;
  view: Promise<SlotsListView>;
}
const slotsCache = new WeakMap<Db, Map<string, SlotsEntry>>();

/** Bookings changed on this node: the next list reads them again. */
export function slotsChanged(): void {
  slotsEpoch++;
}

export async function listSlots(
  deps: Pick<Deps, 'config' | 'now'>,
  /** The database, not a transaction: the capacity query is prepared on it. */
  db: Db,
  { date, timeZone }: { date: string; timeZone: string },
): Promise<SlotsListView> {
  const hours = await cachedWorkingHours(db);
  let entries = slotsCache.get(db);
  if (!entries) slotsCache.set(db, (entries = new Map()));
  const key = `${date}|${timeZone}`;
  const at = Date.now();
  const nowAt = deps.now().getTime();
  const hit = entries.get(key);
  if (hit && hit.epoch === slotsEpoch && hit.hours === hours && at - hit.at < slotsCacheMs && nowAt >= hit.nowAt && nowAt - hit.nowAt < slotsCacheMs) return hit.view;
  // Frozen: every caller shares it, and its wire form is written once (`serialize`).
  const view = readSlots(deps, db, hours, { date, timeZone }).then(deepFreeze);
  if (!hit && entries.size >= slotsCacheMaxEntries) entries.delete(entries.keys().next().value!);
  const entry: SlotsEntry = { at, nowAt, epoch: slotsEpoch, hours, view };
  entries.set(key, entry);
  view.catch(() => entries.get(key) === entry && entries.delete(key));
  return view;
}

/**
 * The slots falling on `date` in the visitor's zone, each with its remaining
 * capacity: the notaries working it minus its bookings, or — before any notary
 * has hours — business hours at BOOKING_SLOT_CAPACITY. Slots that are past,
 * inside the notice, beyond the window or that nobody works are left out
 * rather than shown as unavailable.
 */
async function readSlots(
  deps: Pick<Deps, 'config' | 'now'>,
  db: Db,
  hours: NotaryHours[] | null,
  { date, timeZone }: { date: string; timeZone: string },
): Promise<SlotsListView> {
  const { earliest, latest } = bookableRange(deps);
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
