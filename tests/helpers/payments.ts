import { documents } from '../../src/server/db/schema.ts';
import type { Deps } from '../../src/server/deps.ts';
import { holdSlot, saveContact, startBooking } from '../../src/server/features/booking/service.ts';
import { addDays, localDateOf, parseIsoDate, zonedInstant } from '../../src/shared/time.ts';

/** A fixed clock for payment tests. */
export const paymentClock = new Date('2026-03-02T18:00:00Z');

/** 10:00 AM Chicago two days after `now`: inside business hours, notice and window. */
export function bookableSlot(now: Date): Date {
  return zonedInstant(addDays(parseIsoDate(localDateOf(now, 'America/Chicago')), 2), 10 * 60, 'America/Chicago');
}

/**
 * A booking the way the wizard leaves it before the payment step, built
 * through the booking service itself: documents stored, slot held, contact saved.
 */
export async function bookingAwaitingPayment(deps: Deps, options: { startsAt?: Date } = {}) {
  const { bookingId, reference } = await startBooking(deps, { timeZone: 'America/New_York' });
  await deps.db.insert(documents).values({
    bookingId,
    originalName: 'affidavit.pdf',
    contentType: 'application/pdf',
    sizeBytes: 1234,
    storageKey: `${bookingId}/affidavit.pdf`,
    status: 'stored',
    scanStatus: 'skipped',
  });
  await holdSlot(deps, { bookingId, startsAt: options.startsAt ?? bookableSlot(deps.now()), timeZone: 'America/New_York' });
  await saveContact(deps, { bookingId, firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com', phone: '(555) 010-2030' });
  return { bookingId, reference };
}
