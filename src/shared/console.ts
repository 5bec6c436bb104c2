import { z } from 'zod';
import { bookingStatuses } from './booking.ts';
import { isoDateSchema } from './booking.ts';

/**
 * A page cursor of the console's bookings list: the run (upcoming, past,
 * undated), the last row's time in microseconds since 1970, and its id.
 */
export const bookingCursorPattern = /^(upcoming|past|undated)_-?\d{1,17}_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const invalidPageLinkMessage = 'This page link is not valid. Go back to the first page.';

/** Staff console inputs (bookings, appointments, messages). */
export const bookingListInput = z.object({
  /** A calendar date in the staff member's own zone. */
  day: isoDateSchema.optional(),
  /** 'active' (default) hides abandoned drafts; 'all' shows everything. */
  status: z.enum([...bookingStatuses, 'active', 'all']).default('active'),
  q: z.string().trim().max(100).optional(),
  /** Where the previous page ended (its `next`), kept in the console's address as `after`. */
  after: z.string().regex(bookingCursorPattern, invalidPageLinkMessage).optional(),
});
export type BookingListInput = z.input<typeof bookingListInput>;
/** Bookings the console shows on one page. */
export const bookingPageSize = 50;

/** A notary's past appointments (before today, their zone), most recent first; `after` is the previous page's `next`. */
export const pastAppointmentsInput = z.object({
  after: z.string().regex(bookingCursorPattern, invalidPageLinkMessage).nullish(),
});
/** Past appointments on one page. */
export const pastAppointmentsPageSize = 20;

export const consoleBookingIdInput = z.object({ bookingId: z.uuid() });
export const assignNotaryInput = z.object({ bookingId: z.uuid(), notaryId: z.uuid().nullable() });
export const markOutcomeInput = z.object({ bookingId: z.uuid(), outcome: z.enum(['completed', 'no_show', 'not_completed']), reason: z.string().trim().max(1000).optional() });
export const staffRescheduleInput = z.object({ bookingId: z.uuid(), startsAt: z.coerce.date() });
export const staffCancelInput = z.object({
  bookingId: z.uuid(),
  reason: z.string().trim().min(1, 'Please give a reason').max(500),
});
/** An admin's refund without cancelling (e.g. after the act: the booking stands, the money goes back). */
export const adminRefundInput = z.object({
  bookingId: z.uuid(),
  reason: z.string().trim().min(3, 'Please give a reason for the refund.').max(500),
});
export const messageListInput = z.object({ show: z.enum(['open', 'handled', 'all']).default('open') });
export const messageIdInput = z.object({ messageId: z.uuid() });

export const outcomeTooEarlyMessage = 'You can mark the outcome only after the appointment has started.';
export const messageKindLabels = { contact: 'Contact', business: 'Business inquiry', chat_offline: 'Chat (offline)', waitlist: 'Document storage waiting list' } as const;

/** The mail outbox in the console (the dev mailbox's list, and delivery status with SMTP). */
export const mailStatuses = ['pending', 'sent', 'failed'] as const;
export type MailStatus = (typeof mailStatuses)[number];
export const mailListInput = z.object({ status: z.enum([...mailStatuses, 'all']).default('all') });
export const mailIdInput = z.object({ messageId: z.uuid() });
export const mailStatusLabels: Record<MailStatus, string> = { pending: 'Pending', sent: 'Sent', failed: 'Failed' };
export const mailKindLabels: Record<string, string> = {
  booking_confirmation: 'Booking confirmation',
  booking_staff_notification: 'New booking (staff)',
  booking_reminder: 'Reminder',
  booking_cancelled: 'Cancellation',
  booking_cancelled_staff: 'Cancellation (staff)',
  booking_rescheduled: 'Reschedule',
  booking_rescheduled_staff: 'Reschedule (staff)',
  contact_message: 'Contact message',
  business_inquiry: 'Business inquiry',
  chat_offline: 'Chat (offline)',
  notary_assigned: 'Appointment assigned (notary)',
  session_completed: 'Session completed',
  session_no_show: 'Missed session',
  session_not_completed: 'Session not completed',
  staff_invite: 'Staff invitation',
  kba_locked_out: 'Identity questions locked out (staff)',
};
/** Shown in place of a manage or invitation link in the console: links that still work are never displayed. */
export const hiddenLinkText = '[private link hidden]';
