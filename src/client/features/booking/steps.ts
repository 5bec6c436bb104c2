import type { BookingView } from '../../../shared/booking.ts';
import { hasDocumentToNotarize, isPaid as isPaidStatus } from '../../../shared/booking-rules.ts';

/** The wizard's five steps, in order (docs/product.md §4.1). */
export const steps = [
  { id: 'documents', label: 'Documents', title: 'Upload Documents' },
  { id: 'booking', label: 'Booking', title: 'Select Date & Time' },
  { id: 'contact', label: 'Contact', title: 'Contact Information' },
  { id: 'payment', label: 'Payment', title: 'Payment Information' },
  { id: 'confirm', label: 'Confirm', title: 'Appointment Confirmation' },
] as const;
export type StepId = (typeof steps)[number]['id'];

export function isPaid(booking: Pick<BookingView, 'status'> | null | undefined): boolean {
  return !!booking && isPaidStatus(booking.status);
}

export function holdExpired(booking: Pick<BookingView, 'holdExpiresAt'>, now: Date): boolean {
  return !booking.holdExpiresAt || booking.holdExpiresAt.getTime() <= now.getTime();
}

/**
 * Where a visitor coming back (reload, Stripe's return_url, a new tab) picks
 * up: the first step whose work the booking does not have yet. The booking
 * record on the server decides, not anything the browser remembered.
 */
export function resumeStep(booking: BookingView, now: Date): { step: StepId; holdLost: boolean } {
  if (isPaid(booking)) return { step: 'confirm', holdLost: false };
  if (booking.status === 'payment_processing') return { step: 'payment', holdLost: false };
  if (!hasDocumentToNotarize(booking.documents)) return { step: 'documents', holdLost: false };
  if (!booking.startsAt && booking.kind !== 'on_demand') return { step: 'booking', holdLost: false };
  if (holdExpired(booking, now)) return { step: 'booking', holdLost: true };
  if (!booking.contact) return { step: 'contact', holdLost: false };
  return { step: 'payment', holdLost: false };
}

/**
 * The tab rules of docs/product.md §4.1: Upload and Confirm only while current; Booking
 * once documents exist; Contact once a time was chosen; Payment once contact
 * details were saved. Once paid, only the confirmation stays open: the server
 * refuses changes to a paid booking, so offering them would only mislead.
 */
export function tabEnabled(tab: StepId, current: StepId, booking: BookingView | null | undefined): boolean {
  if (tab === current) return true;
  if (!booking || isPaid(booking) || booking.status === 'payment_processing') return false;
  switch (tab) {
    case 'booking':
      return hasDocumentToNotarize(booking.documents);
    case 'contact':
      return booking.startsAt !== null || booking.kind === 'on_demand';
    case 'payment':
      return booking.contact !== null;
    default:
      return false;
  }
}

export function parseStep(value: string | null): StepId | null {
  return steps.find((s) => s.id === value)?.id ?? null;
}

/**
 * Whether the browser's Back / Forward (or a reload) may show `step`: each
 * step the visitor passed is a history entry. The tab rules still hold: a
 * paid booking shows only its confirmation, one whose payment is processing
 * only the payment, and a later step needs what it builds on. Going back to
 * the Documents step (to add a file) is always allowed before paying.
 */
export function reachableByHistory(step: StepId, booking: BookingView | null | undefined): boolean {
  if (isPaid(booking)) return step === 'confirm';
  if (booking?.status === 'payment_processing') return step === 'payment';
  if (step === 'documents') return true;
  if (step === 'confirm') return false;
  return tabEnabled(step, 'documents', booking);
}
