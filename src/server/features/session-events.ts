import type { Deps } from '../deps.ts';

/**
 * "The session changed": identity verified or confirmed, a signature adopted,
 * a document sealed. The session room registers how to tell both participants
 * (its Socket.IO `session:updated`); without a room attached this is a no-op,
 * and the pages fall back to polling. Keyed by `deps`, so test apps side by
 * side do not hear each other.
 */
/** 'access': the booking was cancelled or (re)assigned — who may be in its room may have changed (session/socket.ts re-checks). */
export type SessionUpdateKind = 'identity' | 'signature' | 'placement' | 'sealed' | 'finished' | 'access';
type Listener = (bookingId: string, kind: SessionUpdateKind) => void | Promise<void>;

const listeners = new WeakMap<Deps, Listener[]>();

export function onSessionUpdated(deps: Deps, listener: Listener): () => void {
  const list = listeners.get(deps) ?? [];
  list.push(listener);
  listeners.set(deps, list);
  return () => listeners.set(deps, (listeners.get(deps) ?? []).filter((l) => l !== listener));
}

export async function notifySessionUpdated(deps: Deps, bookingId: string, kind: SessionUpdateKind): Promise<void> {
  for (const listener of listeners.get(deps) ?? []) {
    try {
      await listener(bookingId, kind);
    } catch (error) {
      deps.log.warn({ err: error, bookingId, kind }, 'session update notification failed');
    }
  }
}
