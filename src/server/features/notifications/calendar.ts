import { appointmentEvent, buildIcs, type CalendarEvent } from '../../../shared/calendar.ts';
import type { Deps } from '../../deps.ts';

/**
 * A booking's calendar entry as the server issues it (email attachments and
 * the .ics download): UID `<bookingId>@<host of PUBLIC_URL>`, and the
 * booking's own SEQUENCE counter, raised by every reschedule and the
 * cancellation, so a later copy replaces an earlier one in the customer's
 * calendar (RFC 5546 §2.1.4) — strictly increasing, unlike a clock.
 */
export function bookingCalendar(
  deps: Deps,
  booking: { id: string; reference: string; startsAt: Date; calendarSequence: number },
  options: { manageUrl?: string; cancelled?: boolean } = {},
): { event: CalendarEvent; ics: string; filename: string } {
  const now = deps.now();
  const event = appointmentEvent({
    bookingId: booking.id,
    reference: booking.reference,
    startsAt: booking.startsAt,
    host: new URL(deps.config.publicUrl).hostname,
    manageUrl: options.manageUrl,
    now,
    sequence: booking.calendarSequence,
    cancelled: options.cancelled,
  });
  return { event, ics: buildIcs(event), filename: `${booking.reference}.ics` };
}
