import { appointmentEvent, buildIcs, type CalendarEvent } from '../../../shared/calendar.ts';
import type { Deps } from '../../deps.ts';

/**
 * A booking's calendar entry as the server issues it (email attachments and
 * the .ics download): UID `<bookingId>@<host of PUBLIC_URL>`, and a SEQUENCE
 * that grows with time so a later copy (new time, cancellation) replaces an
 * earlier one in the customer's calendar.
 */
export function bookingCalendar(
  deps: Deps,
  booking: { id: string; reference: string; startsAt: Date },
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
    sequence: Math.max(0, Math.floor(now.getTime() / 1000) - 1_700_000_000),
    cancelled: options.cancelled,
  });
  return { event, ics: buildIcs(event), filename: `${booking.reference}.ics` };
}
