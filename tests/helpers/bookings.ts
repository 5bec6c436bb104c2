import { openConfirmationLink as openManageToken } from '../../src/server/features/customer-links/service.ts';
import { Readable } from 'node:stream';
import { documents } from '../../src/server/db/schema.ts';
import type { Deps } from '../../src/server/deps.ts';
import {
  cancelBookingRecord,
  holdSlot,
  markBookingOutcome,
  markPaymentProcessing,
  saveContact,
  startBooking,
} from '../../src/server/features/booking/service.ts';
import { confirmTestCard } from '../../src/server/features/payments/service.ts';
import type { BookingStatus } from '../../src/shared/booking.ts';
import { addDays, businessTimeZone, localDateOf, parseIsoDate, zonedInstant } from '../../src/shared/time.ts';

/**
 * The one way tests get a booking in a given state: built through the booking
 * and payment services (the same transitions, audit and emails as in
 * production), never by writing rows. Only the uploaded bytes are placed
 * directly (the upload protocol has its own tests).
 */

// ---- Slots --------------------------------------------------------------------

/** A wall-clock time in the business zone as an instant: chicago('2027-03-14', '8:30'). */
export function chicago(date: string, time: string): Date {
  const [h, m] = time.split(':').map(Number) as [number, number];
  return zonedInstant(parseIsoDate(date), h * 60 + m, businessTimeZone);
}

/** `hour`:00 in the business zone, `days` calendar days after `now`'s date there. */
export function slotAfter(now: Date, days: number, hour: number): Date {
  return zonedInstant(addDays(parseIsoDate(localDateOf(now, businessTimeZone)), days), hour * 60, businessTimeZone);
}

/** 10:00 AM two days after `now`: inside business hours, notice and window. */
export function bookableSlot(now: Date): Date {
  return slotAfter(now, 2, 10);
}

// ---- Bookings -----------------------------------------------------------------

export interface BookingOptions {
  startsAt?: Date;
  email?: string;
  /** Also put the document's bytes in storage (for downloads). */
  storeBytes?: boolean;
  /** Who records a completed / no-show outcome (a staff user id). */
  staffId?: string;
}

export interface TestBooking {
  bookingId: string;
  reference: string;
  /** The manage-link token from the confirmation email (confirmed and later states). */
  manageToken: string | null;
}

export const testCard = { number: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', name: 'Grace Hopper', email: 'grace@example.com' };

/**
 * A booking in `state`, the way a visitor (and then the payment provider,
 * staff or the customer) would have left it:
 * - draft: started; held: + a stored document and a held slot; awaiting_payment: + contact;
 * - payment_processing: a delayed payment under way;
 * - confirmed: paid with the test card (confirmation emails queued);
 * - completed / no_show: confirmed, then the outcome recorded by staff;
 * - cancelled: confirmed, then cancelled by staff (no refund, no emails).
 */
export async function bookingIn(deps: Deps, state: BookingStatus, options: BookingOptions = {}): Promise<TestBooking> {
  const { bookingId, reference } = await startBooking(deps, { timeZone: 'America/New_York' });
  const booking: TestBooking = { bookingId, reference, manageToken: null };
  if (state === 'draft') return booking;

  const storageKey = `${bookingId}/affidavit.pdf`;
  await deps.db.insert(documents).values({
    bookingId,
    originalName: 'affidavit.pdf',
    contentType: 'application/pdf',
    sizeBytes: 1234,
    storageKey,
    status: 'stored',
    scanStatus: 'skipped',
  });
  if (options.storeBytes) {
    await deps.storage.put(storageKey, Readable.from(Buffer.from('%PDF-1.4 test document')), { contentType: 'application/pdf' });
  }
  await holdSlot(deps, { bookingId, startsAt: options.startsAt ?? bookableSlot(deps.now()), timeZone: 'America/New_York' });
  if (state === 'held') return booking;

  const email = options.email ?? 'grace@example.com';
  await saveContact(deps, { bookingId, firstName: 'Grace', lastName: 'Hopper', email, phone: '(555) 010-2030' });
  if (state === 'awaiting_payment') return booking;

  if (state === 'payment_processing') {
    await deps.db.transaction((tx) => markPaymentProcessing(tx, deps, { bookingId }));
    return booking;
  }

  await confirmTestCard(deps, { bookingId, ...testCard, email });
  // The confirmation email carries it (filled in at send time); the outbox holds only its sealed form.
  booking.manageToken = await openManageToken(deps.db, deps, bookingId);
  if (state === 'confirmed') return booking;

  await deps.db.transaction(async (tx) => {
    if (state === 'cancelled') await cancelBookingRecord(tx, deps, { bookingId, reason: 'test', by: 'system' });
    else await markBookingOutcome(tx, deps, { bookingId, outcome: state, staffId: options.staffId ?? 'test-staff' });
  });
  return booking;
}
