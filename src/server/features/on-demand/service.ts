import { onDemandMessages, type LobbyView, type OnDemandAvailability, type WaitingCustomersView } from '../../../shared/on-demand.ts';
import type { Deps } from '../../deps.ts';
import { repeat } from '../../repeat.ts';
import { DomainError } from '../../errors.ts';
import { authorise } from '../access/service.ts';
import { writeAudit } from '../audit.ts';
import * as line from '../booking/on-demand-service.ts';
import { findBooking } from '../booking/service.ts';
import { openConfirmationLink } from '../customer-links/service.ts';
import { cancelWithRefund } from '../cancellation/service.ts';
import { onOnDemandTimedOut } from '../notifications/events.ts';
import { notifySessionChanged } from '../session/notifier-service.ts';
import { customersIdentityInLine } from '../identity/kba-service.ts';
import type { StaffIdentity } from '../staff/session.ts';

/**
 * "Notarize now" around the line (issue 28, docs/decisions/110-on-demand-line.md):
 * what the public pages show, the customer's lobby (heartbeat, position,
 * estimate, the offer after a time-out), the notaries' Waiting customers and
 * Accept, and the sweep every node runs. The line itself is the booking
 * feature's (booking/on-demand-service.ts).
 */

export async function availability(deps: Deps): Promise<OnDemandAvailability> {
  return line.onDemandAvailability(deps);
}

/** Whether the public pages may say "in minutes" / "no appointments": someone is on duty now. */
export async function onDemandOffered(deps: Pick<Deps, 'db'>): Promise<boolean> {
  return line.someoneOnDuty(deps.db);
}

// ---- The customer's lobby ------------------------------------------------------

/**
 * The wizard's way into the lobby right after paying: the booking's own
 * confirmation link (the one its email carries), handed to the holder of the
 * booking id only while the booking is in line (waiting, away or accepted) —
 * never before payment and never once the call is over.
 */
export async function lobbyLink(deps: Deps, bookingId: string): Promise<{ path: string }> {
  const booking = await findBooking(deps.db, bookingId);
  const entry = booking?.kind === 'on_demand' && booking.status === 'confirmed' ? await line.lineEntry(deps.db, bookingId) : null;
  if (!entry || !['waiting', 'away', 'accepted'].includes(entry.status)) throw new DomainError('NOT_FOUND', onDemandMessages.notInLine);
  const token = await openConfirmationLink(deps.db, deps, bookingId);
  if (!token) throw new DomainError('NOT_FOUND', onDemandMessages.notInLine);
  return { path: `/booking/${encodeURIComponent(token)}/session` };
}

/** The lobby is the room's entrance: the same right as joining it (the manage link). */
async function lobbyBooking(deps: Deps, token: string): Promise<string> {
  const grant = await authorise(deps, { token }, 'join_room', {}, { notFound: onDemandMessages.notInLine });
  return grant.bookingId;
}

/** Heartbeat and view: every few seconds from the open lobby (a closed tab stops it; the place is kept for the grace). */
export async function lobby(deps: Deps, token: string): Promise<LobbyView> {
  const bookingId = await lobbyBooking(deps, token);
  const entry = await line.lineEntry(deps.db, bookingId);
  if (!entry) throw new DomainError('NOT_FOUND', onDemandMessages.notInLine);
  if (entry.status === 'accepted') return { state: 'accepted' };
  if (entry.status === 'timed_out') return { state: 'timed_out', refunded: false };
  if (entry.status === 'closed') {
    const booking = await findBooking(deps.db, bookingId);
    return entry.resolution === 'refund' || booking?.status === 'cancelled' ? { state: 'timed_out', refunded: true } : { state: 'closed' };
  }
  const place = await line.lobbyPosition(deps, bookingId);
  if (!place) return (await line.lineEntry(deps.db, bookingId))?.status === 'accepted' ? { state: 'accepted' } : { state: 'closed' };
  return { state: 'waiting', ...place };
}

/** A timed-out customer takes the full refund: cancelled and refunded in one transaction (cancellation's rules). */
export async function refundTimedOut(deps: Deps, token: string): Promise<LobbyView> {
  const bookingId = await lobbyBooking(deps, token);
  await deps.db.transaction(async (tx) => {
    const entry = await line.lockLineEntry(tx, bookingId);
    if (!entry || (entry.status !== 'timed_out' && !(entry.status === 'closed' && entry.resolution === 'refund'))) {
      throw new DomainError('CONFLICT', onDemandMessages.notInLine);
    }
    if (entry.status === 'closed') return; // a second click: already refunded
    await cancelWithRefund(tx, deps, { bookingId, reason: 'on_demand_timed_out', by: 'customer', refund: true });
    await line.closeLineEntry(tx, bookingId, 'refund');
  });
  return { state: 'timed_out', refunded: true };
}

// ---- The notaries ---------------------------------------------------------------

export async function waitingCustomers(deps: Deps, staff: StaffIdentity): Promise<WaitingCustomersView> {
  const now = deps.now().getTime();
  const rows = await line.waitingCustomers(deps);
  // Whom to take first is the server's (Accept takes the oldest); who is ready is the notary's to see.
  const identity = await customersIdentityInLine(deps, deps.db, rows);
  return {
    waiting: rows.map((r) => ({ reference: r.reference, waitingSinceMs: Math.max(0, now - r.joinedAt.getTime()), identity: identity.get(r.bookingId)! })),
    onDuty: staff.user.role === 'notary' && (await line.notaryOnDuty(deps.db, staff.user.id)),
  };
}

/** Accept: the next customer becomes this notary's; both rooms open (the customer's lobby hears it at once). */
export async function accept(deps: Deps, staff: StaffIdentity): Promise<{ bookingId: string | null }> {
  const bookingId = await line.acceptNext(deps, staff.user.id);
  if (bookingId) notifySessionChanged(deps, bookingId);
  return { bookingId };
}

export async function notaryHeartbeat(deps: Deps, staff: StaffIdentity, bookingId: string): Promise<{ ok: true }> {
  await line.notaryHeartbeat(deps, bookingId, staff.user.id);
  return { ok: true };
}

// ---- The sweep ------------------------------------------------------------------

export async function sweep(deps: Deps): Promise<{ away: number; requeued: string[]; timedOut: string[] }> {
  const result = await line.sweepLine(deps, async (tx, bookingId) => {
    await onOnDemandTimedOut(tx, deps, { bookingId });
    await writeAudit(tx, { actorType: 'system', action: 'on_demand.staff_told', entityType: 'booking', entityId: bookingId });
  });
  // A customer put back loses the room their notary had opened; the room refetches and shows the lobby again.
  for (const bookingId of [...result.requeued, ...result.timedOut]) notifySessionChanged(deps, bookingId);
  return result;
}

/** Runs the sweep every `intervalMs` on every node (SKIP LOCKED makes that safe). */
export function startOnDemandJob(deps: Deps, options: { intervalMs?: number } = {}): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const tick = () => {
    if (stopped || running) return;
    running = sweep(deps)
      .catch((error: unknown) => deps.log.error({ err: error }, 'on-demand: sweep failed'))
      .finally(() => {
        running = null;
      });
  };
  const cancel = repeat(tick, 1_000, options.intervalMs ?? 10_000);
  return {
    async stop() {
      stopped = true;
      cancel();
      await running;
    },
  };
}
