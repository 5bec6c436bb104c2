import { EventEmitter } from 'node:events';
import {
  businessServiceHours,
  serviceHoursFrom,
  workingAt,
  worksAt,
  type NotaryHours,
  type ServiceHours,
  type WorkingSpan,
} from '../../../shared/availability.ts';
import { dayBounds } from '../../../shared/time.ts';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import { DomainError } from '../../errors.ts';
import { writeAudit } from '../audit.ts';
import { onNotaryAssigned } from '../notifications/events.ts';
import type { StaffIdentity } from '../staff/session.ts';
import * as repo from './repository.ts';

/**
 * Notaries' availability (issue 28; docs/decisions/095): working hours,
 * dates off and the on-duty switch; the capacity of a slot and the automatic
 * assignment of a confirmed booking follow from them.
 */

export const hoursSavedMessage = 'Working hours saved.';
export const notANotaryMessage = 'Choose an active notary.';

// ---- Capacity -----------------------------------------------------------------

/**
 * The notaries' hours, or null before any notary has hours (a new
 * installation: business hours and BOOKING_SLOT_CAPACITY apply).
 */
export async function workingHours(db: DbOrTx): Promise<NotaryHours[] | null> {
  const hours = await repo.loadWorkingHours(db);
  return hours.length > 0 ? hours : null;
}

/**
 * The same, as this node last read it: the hold (one round trip, decision 053)
 * and the slot list read no extra query. Forgotten on every change made here,
 * when `watchAvailability` sees one from another node, and after 30 seconds
 * at most; the decisions that must be current (confirming, moving, assigning)
 * read `workingHours` in their transaction.
 */
const cacheMs = 30_000;
/** Raised by `availabilityChanged`: a cached read from before it is not used. */
let cacheEpoch = 0;
const hoursCache = new WeakMap<object, { at: number; epoch: number; hours: Promise<NotaryHours[] | null> }>();
export function cachedWorkingHours(db: Db): Promise<NotaryHours[] | null> {
  const hit = hoursCache.get(db);
  if (hit && hit.epoch === cacheEpoch && Date.now() - hit.at < cacheMs) return hit.hours;
  const hours = workingHours(db);
  hoursCache.set(db, { at: Date.now(), epoch: cacheEpoch, hours });
  hours.catch(() => hoursCache.delete(db));
  return hours;
}

/** Units of `startsAt`: the notaries working it, or the configured capacity before anyone has hours. */
export function capacityFrom(hours: NotaryHours[] | null, deps: Pick<Deps, 'config'>, startsAt: Date): number {
  if (!hours) return deps.config.BOOKING_SLOT_CAPACITY;
  // Zoned conversions per notary per slot: kept per hours read (the cached one lives 30 s; at most the window's slots).
  let memo = capacityMemo.get(hours);
  if (!memo) capacityMemo.set(hours, (memo = new Map()));
  const key = startsAt.getTime();
  let capacity = memo.get(key);
  if (capacity === undefined) memo.set(key, (capacity = workingAt(hours, startsAt).length));
  return capacity;
}
const capacityMemo = new WeakMap<NotaryHours[], Map<number, number>>();

export async function capacityAt(db: DbOrTx, deps: Pick<Deps, 'config'>, startsAt: Date): Promise<number> {
  return capacityFrom(await workingHours(db), deps, startsAt);
}

// ---- Automatic assignment -----------------------------------------------------

const fairnessWindowMs = 7 * 24 * 3600_000;

/**
 * The notary for a booking at `startsAt`: working then, not already booked at
 * that time, fewest bookings over the 7 days around it (ties: the one whose
 * id sorts first, so the choice is reproducible). Null when nobody qualifies.
 */
export async function chooseNotary(tx: DbOrTx, startsAt: Date, options: { exclude?: string[]; bookingId?: string } = {}): Promise<string | null> {
  const hours = await repo.loadWorkingHours(tx);
  const candidates = workingAt(hours, startsAt).filter((id) => !options.exclude?.includes(id));
  if (candidates.length === 0) return null;
  const busy = await repo.busyAt(tx, startsAt, options.bookingId);
  const free = candidates.filter((id) => !busy.has(id));
  if (free.length === 0) return null;
  const counts = await repo.assignedCounts(tx, new Date(startsAt.getTime() - fairnessWindowMs / 2), new Date(startsAt.getTime() + fairnessWindowMs / 2));
  return free.sort((a, b) => (counts.get(a) ?? 0) - (counts.get(b) ?? 0) || (a < b ? -1 : 1))[0]!;
}

/**
 * Gives a booking to `notaryId` (or to nobody): the console's "new" badge and
 * the notary's email, as a staff assignment does (console/service.assignNotary).
 */
export async function assignBooking(
  tx: Tx,
  deps: Deps,
  bookingId: string,
  notaryId: string | null,
  actor: { actorType: 'staff' | 'system'; actorId?: string },
): Promise<void> {
  const now = deps.now();
  await repo.setBookingNotary(tx, bookingId, notaryId, now);
  if (notaryId) {
    const notary = await repo.notaryContact(tx, notaryId);
    if (notary) await onNotaryAssigned(tx, deps, { bookingId, notaryEmail: notary.email, notaryName: notary.name });
  }
  await writeAudit(tx, { ...actor, action: notaryId ? 'booking.notary_assigned' : 'booking.notary_unassigned', entityType: 'booking', entityId: bookingId, data: { to: notaryId, automatic: true } });
}

/** A booking just confirmed: assigned to a notary working then (least booked first), when anyone has hours. */
export async function assignOnConfirm(tx: Tx, deps: Deps, bookingId: string, startsAt: Date): Promise<string | null> {
  const notaryId = await chooseNotary(tx, startsAt, { bookingId });
  if (notaryId) await assignBooking(tx, deps, bookingId, notaryId, { actorType: 'system' });
  return notaryId;
}

/**
 * A booking moved to `startsAt`: it keeps its notary if they work then and are
 * free, otherwise goes to one who is (or to nobody, for the office to arrange).
 * Before anyone has hours (`hours` null) assignment stays the office's.
 */
export async function assignAfterMove(tx: Tx, deps: Deps, booking: { id: string; notaryId: string | null }, startsAt: Date, hours: NotaryHours[] | null): Promise<void> {
  if (!hours) return;
  const current = booking.notaryId ? hours.find((h) => h.staffId === booking.notaryId) : undefined;
  if (current && worksAt(current, startsAt) && !(await repo.busyAt(tx, startsAt, booking.id)).has(current.staffId)) return;
  const next = await chooseNotary(tx, startsAt, { bookingId: booking.id });
  if (next !== booking.notaryId) await assignBooking(tx, deps, booking.id, next, { actorType: 'system' });
}

// ---- The console --------------------------------------------------------------

/** Whose hours the caller may see and change: a notary their own, an admin anyone's. */
async function targetNotary(db: DbOrTx, staff: StaffIdentity, staffId: string | undefined): Promise<{ id: string; timeZone: string }> {
  const id = staffId ?? staff.user.id;
  if (staff.user.role !== 'admin' && id !== staff.user.id) throw new DomainError('FORBIDDEN', 'You do not have access to this.');
  const notary = await repo.findNotary(db, id);
  if (!notary) throw new DomainError('BAD_REQUEST', notANotaryMessage);
  return notary;
}

export interface AvailabilityView {
  /** The notaries the caller may edit: themselves, or (admins) every active notary. */
  notaries: { staffId: string; name: string; email: string; timeZone: string; weekly: WorkingSpan[]; datesOff: string[]; onDuty: boolean; hasHours: boolean }[];
  /** No notary has hours yet: business hours and the configured capacity apply. */
  usingBusinessHours: boolean;
  serviceHours: ServiceHours;
}

export async function getAvailability(deps: Deps, staff: StaffIdentity): Promise<AvailabilityView> {
  const all = await repo.listNotaries(deps.db);
  const notaries = staff.user.role === 'admin' ? all : all.filter((n) => n.staffId === staff.user.id);
  const usingBusinessHours = !all.some((n) => n.hasHours);
  return { notaries, usingBusinessHours, serviceHours: await currentServiceHours(deps) };
}

function normaliseSpans(weekly: WorkingSpan[]): WorkingSpan[] {
  const sorted = [...weekly].sort((a, b) => a.day - b.day || a.start - b.start);
  for (let i = 1; i < sorted.length; i++) {
    const [a, b] = [sorted[i - 1]!, sorted[i]!];
    if (a.day === b.day && b.start < a.end) throw new DomainError('BAD_REQUEST', 'Working hours on the same day must not overlap.');
  }
  return sorted;
}

export async function saveHours(deps: Deps, staff: StaffIdentity, input: { staffId?: string; weekly: WorkingSpan[]; datesOff: string[] }): Promise<void> {
  const weekly = normaliseSpans(input.weekly);
  const datesOff = [...new Set(input.datesOff)].sort();
  await deps.db.transaction(async (tx) => {
    const notary = await targetNotary(tx, staff, input.staffId);
    await repo.saveHours(tx, notary.id, { weekly, datesOff }, deps.now());
    await writeAudit(tx, { actorType: 'staff', actorId: staff.user.id, action: 'notary.hours_saved', entityType: 'staff_user', entityId: notary.id, data: { spans: weekly.length, datesOff: datesOff.length } });
  });
  availabilityChanged();
}

export async function setDuty(deps: Deps, staff: StaffIdentity, input: { staffId?: string; onDuty: boolean }): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const notary = await targetNotary(tx, staff, input.staffId);
    await repo.setOnDuty(tx, notary.id, input.onDuty, deps.now());
    await writeAudit(tx, { actorType: 'staff', actorId: staff.user.id, action: input.onDuty ? 'notary.on_duty' : 'notary.off_duty', entityType: 'staff_user', entityId: notary.id });
  });
  availabilityChanged();
}

/**
 * "Off sick": `date` (the notary's own calendar) becomes a date off, and each of
 * their bookings that day goes to another notary working then (least booked
 * first); those nobody can take are left unassigned for the office, who are
 * told by the answer. One transaction.
 */
export async function offSick(
  deps: Deps,
  staff: StaffIdentity,
  input: { staffId?: string; date: string },
): Promise<{ reassigned: number; unassigned: number; bookingIds: string[] }> {
  const result = await deps.db.transaction(async (tx) => {
    const notary = await targetNotary(tx, staff, input.staffId);
    const current = await repo.lockHours(tx, notary.id, deps.now());
    const datesOff = [...new Set([...current.datesOff, input.date])].sort();
    await repo.saveHours(tx, notary.id, { weekly: current.weekly, datesOff }, deps.now());
    const { start, end } = dayBounds(input.date, notary.timeZone);
    let reassigned = 0;
    let unassigned = 0;
    const bookingIds: string[] = [];
    for (const booking of await repo.notaryBookingsBetween(tx, notary.id, start, end)) {
      const next = await chooseNotary(tx, booking.startsAt, { exclude: [notary.id], bookingId: booking.id });
      await assignBooking(tx, deps, booking.id, next, { actorType: 'staff', actorId: staff.user.id });
      bookingIds.push(booking.id);
      if (next) reassigned++;
      else unassigned++;
    }
    await writeAudit(tx, { actorType: 'staff', actorId: staff.user.id, action: 'notary.off_sick', entityType: 'staff_user', entityId: notary.id, data: { date: input.date, reassigned, unassigned } });
    return { reassigned, unassigned, bookingIds };
  });
  availabilityChanged();
  return result;
}

// ---- Hours of service for the public pages ---------------------------------------

/** The hours the public pages state: the notaries', or business hours before anyone has hours. */
export async function currentServiceHours(deps: Pick<Deps, 'db' | 'now'>): Promise<ServiceHours> {
  const hours = await workingHours(deps.db);
  return hours ? serviceHoursFrom(hours, deps.now()) : businessServiceHours();
}

/** Tells this node's listeners (the rendered-page cache) that availability changed. */
const changes = new EventEmitter();
export function availabilityChanged(): void {
  cacheEpoch++;
  changes.emit('change');
}
export function onAvailabilityChanged(listener: () => void): () => void {
  changes.on('change', listener);
  return () => changes.off('change', listener);
}

/**
 * Watches for changes made on other nodes (and a new day, which moves the
 * coming week): compares the hours' signature every `intervalMs`. `ready`
 * resolves once the first reading is taken.
 */
export function watchAvailability(db: Db, intervalMs: number, onError: (error: unknown) => void): { stop: () => void; ready: Promise<void> } {
  let last: string | undefined;
  const check = async () => {
    try {
      const signature = `${await repo.hoursSignature(db)}|${new Date().toISOString().slice(0, 10)}`;
      if (last !== undefined && signature !== last) availabilityChanged();
      last = signature;
    } catch (error) {
      onError(error);
    }
  };
  const ready = check();
  const timer = setInterval(() => void check(), intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer), ready };
}
