import type { DbOrTx } from '../../db/client.ts';
import * as actRepo from './repository.ts';

/**
 * What other features ask of the act without loading it (cancellation, the
 * console): kept apart from service.ts, which reaches into booking and
 * manage-booking, so asking it creates no import cycle.
 */

/** A document of this booking has been sealed: the act exists and must not be undone (issue 24, finding 5). */
export function bookingHasSealedDocument(db: DbOrTx, bookingId: string): Promise<boolean> {
  return actRepo.anySealed(db, bookingId);
}
