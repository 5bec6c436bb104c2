import type { Deps } from '../../deps.ts';
import { actChanged, onActChanged } from '../act/service.ts';
import { onRecordingStored } from './assembly.ts';

/**
 * Telling the room: the socket namespace registers its notifier here; the
 * act's changes (its one bus, features/act/service.ts, decision 073) reach the
 * room as `session:updated`, and a finished session closes it.
 */

export interface SessionNotifier {
  updated(bookingId: string): void;
  closed(bookingId: string, reason: string): void;
  /** Who may be in the room may have changed (cancelled, reassigned): sockets re-check access. */
  accessChanged(bookingId: string): void;
}
const closers = new WeakMap<Deps, SessionNotifier['closed']>();

/** The socket namespace registers itself here (one per server): the act's changes reach the room as `session:updated`. */
export function registerSessionNotifier(deps: Deps, notifier: SessionNotifier): void {
  closers.set(deps, notifier.closed);
  onActChanged(deps, (bookingId, kind) => {
    if (kind === 'access') notifier.accessChanged(bookingId);
    notifier.updated(bookingId);
  });
  onRecordingStored(deps, (d, bookingId) => actChanged(d, bookingId));
}

/** Both participants refetch the session view (the act's one bus; every node). Call after commit. */
export function notifySessionChanged(deps: Deps, bookingId: string): void {
  actChanged(deps, bookingId);
}

export function notifySessionClosed(deps: Deps, bookingId: string, reason: string): void {
  closers.get(deps)?.(bookingId, reason);
}
