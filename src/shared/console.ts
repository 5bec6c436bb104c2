import { z } from 'zod';
import { bookingStatuses } from './booking.ts';
import { isoDateSchema } from './booking.ts';

/** Staff console inputs (bookings, appointments, messages). */
export const bookingListInput = z.object({
  /** A calendar date in the staff member's own zone. */
  day: isoDateSchema.optional(),
  /** 'active' (default) hides abandoned drafts; 'all' shows everything. */
  status: z.enum([...bookingStatuses, 'active', 'all']).default('active'),
  q: z.string().trim().max(100).optional(),
});
export type BookingListInput = z.input<typeof bookingListInput>;

export const consoleBookingIdInput = z.object({ bookingId: z.uuid() });
export const assignNotaryInput = z.object({ bookingId: z.uuid(), notaryId: z.uuid().nullable() });
export const markOutcomeInput = z.object({ bookingId: z.uuid(), outcome: z.enum(['completed', 'no_show']) });
export const staffCancelInput = z.object({
  bookingId: z.uuid(),
  reason: z.string().trim().min(1, 'Please give a reason').max(500),
});
export const messageListInput = z.object({ show: z.enum(['open', 'handled', 'all']).default('open') });
export const messageIdInput = z.object({ messageId: z.uuid() });

export const outcomeTooEarlyMessage = 'You can mark the outcome only after the appointment has started.';
export const messageKindLabels = { contact: 'Contact', business: 'Business inquiry', chat_offline: 'Chat (offline)' } as const;
