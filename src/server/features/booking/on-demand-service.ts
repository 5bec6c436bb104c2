import { awayGraceMs, defaultPickupMinutes, notaryDropMs, onDemandMessages, type OnDemandAvailability } from '../../../shared/on-demand.ts';
import { addDays, localDateOf, parseIsoDate, toIsoDate } from '../../../shared/time.ts';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import { DomainError } from '../../errors.ts';
import { writeAudit } from '../audit.ts';
import * as queue from './queue-repository.ts';
import { listSlots } from './slots.ts';

/**
 * The on-demand line (issue 28, docs/decisions/110-on-demand-line.md): a paid
 * "Notarize now" booking waits in `on_demand_queue` until an on-duty notary
 * accepts it. Part of the booking feature (confirming a payment puts the
 * booking in line in the same transaction); the lobby, the console and the
 * sweep that times customers out are the on-demand feature's.
 */

export type { QueueRow } from './queue-repository.ts';

// ---- Who is there -------------------------------------------------------------

/** On-duty notaries, those of them free now, and — when nobody is on duty — the next scheduled slot. */
export async function onDemandAvailability(deps: Pick<Deps, 'config' | 'now' | 'db'>): Promise<OnDemandAvailability> {
  const roster = await queue.dutyRoster(deps.db);
  const availableNow = roster.onDuty.filter((id) => !roster.busy.has(id)).length;
  return { availableNow, onDuty: roster.onDuty.length, nextScheduled: roster.onDuty.length > 0 ? null : await nextScheduledSlot(deps, deps.db) };
}

/** Whether anyone is on duty: asked before a visitor chooses Notarize now and again before they pay. */
export async function someoneOnDuty(db: DbOrTx): Promise<boolean> {
  return (await queue.dutyRoster(db)).onDuty.length > 0;
}

export async function assertSomeoneOnDuty(db: DbOrTx): Promise<void> {
  if (!(await someoneOnDuty(db))) throw new DomainError('PRECONDITION_FAILED', onDemandMessages.nobodyOnDuty);
}

/** The first slot with room in the next two weeks (the slot list's rules), or null. */
export async function nextScheduledSlot(deps: Pick<Deps, 'config' | 'now'>, db: Db): Promise<Date | null> {
  const zone = 'UTC';
  let date = parseIsoDate(localDateOf(deps.now(), zone));
  const days = Math.min(14, deps.config.BOOKING_WINDOW_DAYS + 1);
  for (let i = 0; i < days; i++, date = addDays(date, 1)) {
    const { slots } = await listSlots(deps, db, { date: toIsoDate(date), timeZone: zone });
    const free = slots.find((s) => s.available);
    if (free) return free.startsAt;
  }
  return null;
}

// ---- The customer's side ------------------------------------------------------

/** A paid on-demand booking joins the line (the caller's transaction: the payment's). Idempotent. */
export async function joinLine(tx: Tx, deps: Pick<Deps, 'now'>, bookingId: string): Promise<void> {
  if (await queue.insertWaiting(tx, bookingId, deps.now())) {
    await writeAudit(tx, { actorType: 'system', action: 'on_demand.joined', entityType: 'booking', entityId: bookingId });
  }
}

export async function lineEntry(db: DbOrTx, bookingId: string) {
  return queue.findEntry(db, bookingId);
}

/**
 * The lobby's heartbeat and view: position among those in line and the wait
 * estimated from recent pick-ups (mean time from joining to being accepted),
 * shared by the notaries free now (at least one).
 */
export async function lobbyPosition(deps: Pick<Deps, 'db' | 'now'>, bookingId: string): Promise<{ position: number; estimatedMinutes: number } | null> {
  const now = deps.now();
  await queue.customerSeen(deps.db, bookingId, now);
  const entry = await queue.findEntry(deps.db, bookingId);
  if (!entry || entry.status !== 'waiting') return null;
  const position = await queue.positionOf(deps.db, entry, now, awayGraceMs);
  const pickupMs = (await queue.recentPickupMs(deps.db, now)) ?? defaultPickupMinutes * 60_000;
  const roster = await queue.dutyRoster(deps.db);
  const serving = Math.max(1, roster.onDuty.length);
  const estimatedMinutes = Math.max(1, Math.ceil((pickupMs * Math.ceil(position / serving)) / 60_000));
  return { position, estimatedMinutes };
}

// ---- The notary's side --------------------------------------------------------

export async function waitingCustomers(deps: Pick<Deps, 'db' | 'now'>, limit = 50) {
  return queue.listInLine(deps.db, deps.now(), awayGraceMs, limit);
}

export async function notaryOnDuty(db: DbOrTx, staffId: string): Promise<boolean> {
  return queue.isOnDuty(db, staffId);
}

/**
 * Accept: the next customer in line (front first, then oldest) becomes this
 * notary's, and the booking starts now so both rooms open. One transaction;
 * SKIP LOCKED makes concurrent accepts on any nodes take different customers.
 * A notary with a call still open gets that one back (a double click, a second tab).
 */
export async function acceptNext(deps: Pick<Deps, 'db' | 'now'>, notaryId: string): Promise<string | null> {
  return deps.db.transaction(async (tx) => {
    if (!(await queue.isOnDuty(tx, notaryId))) throw new DomainError('CONFLICT', onDemandMessages.offDutyCannotAccept);
    const open = await queue.openCallOf(tx, notaryId);
    if (open) return open;
    const now = deps.now();
    const bookingId = await queue.claimNext(tx, notaryId, now, awayGraceMs);
    if (!bookingId) return null;
    await queue.setBookingServer(tx, bookingId, notaryId, now, now);
    await writeAudit(tx, { actorType: 'staff', actorId: notaryId, action: 'on_demand.accepted', entityType: 'booking', entityId: bookingId });
    return bookingId;
  });
}

export async function notaryHeartbeat(deps: Pick<Deps, 'db' | 'now'>, bookingId: string, notaryId: string): Promise<void> {
  await queue.notarySeen(deps.db, bookingId, notaryId, deps.now());
}

// ---- The sweep ----------------------------------------------------------------

/**
 * One pass: customers silent past the grace step out of line; accepted calls
 * whose notary vanished before the session started go back to the front;
 * customers waiting longer than ON_DEMAND_MAX_WAIT_MINUTES time out
 * (`onTimedOut` runs in the same transaction: the offer's email). Safe on
 * every node at once (SKIP LOCKED).
 */
export async function sweepLine(
  deps: Pick<Deps, 'db' | 'now' | 'config'>,
  onTimedOut: (tx: Tx, bookingId: string) => Promise<void>,
): Promise<{ away: number; requeued: string[]; timedOut: string[] }> {
  const now = deps.now();
  const away = await queue.markAway(deps.db, now, awayGraceMs);
  const requeued = await deps.db.transaction(async (tx) => {
    const dropped = await queue.claimDropped(tx, now, notaryDropMs, 100);
    for (const { bookingId, notaryId } of dropped) {
      await queue.putBackInFront(tx, bookingId, now);
      await queue.setBookingServer(tx, bookingId, null, null, now);
      await writeAudit(tx, { actorType: 'system', action: 'on_demand.requeued', entityType: 'booking', entityId: bookingId, data: { from: notaryId } });
    }
    return dropped.map((d) => d.bookingId);
  });
  const timedOut = await deps.db.transaction(async (tx) => {
    const overdue = await queue.claimOverdue(tx, now, deps.config.ON_DEMAND_MAX_WAIT_MINUTES * 60_000, 100);
    for (const bookingId of overdue) {
      await queue.markTimedOut(tx, bookingId, now);
      await writeAudit(tx, { actorType: 'system', action: 'on_demand.timed_out', entityType: 'booking', entityId: bookingId });
      await onTimedOut(tx, bookingId);
    }
    return overdue;
  });
  return { away, requeued, timedOut };
}

/** The customer chose (refund or a scheduled time): the entry leaves the line for good. */
export async function closeLineEntry(tx: Tx, bookingId: string, resolution: 'refund' | 'schedule'): Promise<void> {
  await queue.closeEntry(tx, bookingId, resolution);
}

export async function lockLineEntry(tx: Tx, bookingId: string) {
  return queue.lockEntry(tx, bookingId);
}

export { awayGraceMs, notaryDropMs };
