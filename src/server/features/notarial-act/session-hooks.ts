import type { Deps } from '../../deps.ts';
import { finishChecks, finishEffects, notifySessionChanged, startChecks } from '../session/service.ts';
import { sessionStartBlocker } from '../identity/service.ts';
import { onSessionUpdated } from '../session-events.ts';
import { finishBlocker, onActFinished } from './service.ts';

/**
 * Plugs the notarial act into the session room's seams, once per process:
 * - start (the recorded act): identity verified by the provider AND confirmed
 *   by the notary against the person on camera;
 * - finish as completed: every document sealed (each seal wrote its journal
 *   entry), then "Your notarized document is ready" in the same transaction;
 * - identity / signature / seal changes reach both participants as the
 *   room's `session:updated`.
 */
let registered = false;

export function attachNotarialActToSessions(deps: Deps): void {
  onSessionUpdated(deps, (bookingId) => notifySessionChanged(deps, bookingId));
  if (registered) return;
  registered = true;
  startChecks.push(({ tx, deps: checkDeps, booking }) => sessionStartBlocker(checkDeps, tx, booking.id));
  finishChecks.push(async ({ tx, booking, outcome }) => (outcome === 'completed' ? finishBlocker(tx, booking.id) : null));
  finishEffects.push(async ({ tx, deps: effectDeps, booking, outcome }) => {
    if (outcome === 'completed') await onActFinished(tx, effectDeps, booking.id);
  });
}
