import type { Tx } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';

/**
 * What the rest of the product tells the notifications feature. Each call runs
 * inside the caller's transaction and only writes outbox rows, so a message
 * exists exactly when the change that caused it was committed.
 *
 * Placeholder bodies until the notifications work fills them in.
 */
export async function onBookingConfirmed(_tx: Tx, _deps: Deps, _event: { bookingId: string; manageToken: string }): Promise<void> {}

export async function onBookingCancelled(
  _tx: Tx,
  _deps: Deps,
  _event: { bookingId: string; refundedCents: number; by: 'customer' | 'staff' },
): Promise<void> {}

export async function onBookingRescheduled(
  _tx: Tx,
  _deps: Deps,
  _event: { bookingId: string; previousStartsAt: Date; by: 'customer' | 'staff' },
): Promise<void> {}

export async function onContactMessage(_tx: Tx, _deps: Deps, _event: { messageId: string }): Promise<void> {}

export async function onChatMessageLeftOffline(_tx: Tx, _deps: Deps, _event: { conversationId: string; messageId: string }): Promise<void> {}
