import type { Tx } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import { DomainError } from '../../errors.ts';
import { actMessages } from '../../../shared/notarial-act.ts';
import { cancelBookingRecord, lockBooking } from '../booking/service.ts';
import { bookingHasSealedDocument } from '../notarial-act/sealed-service.ts';
import { onBookingCancelled } from '../notifications/events.ts';
import { refundBookingPayment } from '../payments/service.ts';

/**
 * Cancelling a booked appointment, by the customer (manage page) or by staff
 * (console): cancel (frees the slot at once), refund what was paid when
 * `refund` is set (docs/product.md §5.4), tell the customer and staff. All in
 * the caller's transaction: a refund the provider refuses rolls the
 * cancellation back, and the refund's idempotency key makes a retry safe.
 * An already cancelled booking changes nothing and notifies no one.
 *
 * Once a document of the booking is sealed, the notarial act exists (a
 * journal entry, a notarized PDF with the customer): cancelling is refused
 * for everyone, decided under the booking's lock, the same lock sealing takes.
 * An admin can still refund with a reason (console `refundBooking`).
 */
export async function cancelWithRefund(
  tx: Tx,
  deps: Deps,
  input: { bookingId: string; reason: string; by: 'customer' | 'staff'; actorId?: string | null; refund: boolean; refundReason?: string },
): Promise<{ alreadyCancelled: boolean; refundedCents: number }> {
  const { bookingId, by } = input;
  const locked = await lockBooking(tx, bookingId);
  if (locked && locked.status !== 'cancelled' && (await bookingHasSealedDocument(tx, bookingId))) {
    throw new DomainError('CONFLICT', by === 'customer' ? actMessages.cancelAfterSealCustomer : actMessages.cancelAfterSealStaff);
  }
  const record = await cancelBookingRecord(tx, deps, { bookingId, reason: input.reason, by, actorId: input.actorId ?? null });
  if (record.alreadyCancelled) return { alreadyCancelled: true, refundedCents: 0 };
  const { refundedCents } = input.refund
    ? await refundBookingPayment(tx, deps, { bookingId, reason: input.refundReason ?? input.reason })
    : { refundedCents: 0 };
  await onBookingCancelled(tx, deps, { bookingId, refundedCents, by });
  return { alreadyCancelled: false, refundedCents };
}
