import { sessionSteps } from './session-copy.ts';
import { site } from './site.ts';

/**
 * Calendar entries for an appointment: an RFC 5545 `.ics` file (email
 * attachment and the 'Add to Calendar' download) and Google / Outlook
 * "add event" links. Pure: the same input always gives the same text.
 */
export const appointmentMinutes = 30;

export interface CalendarEvent {
  /** Stable per booking (`<bookingId>@<host>`), so a rescheduled copy replaces the first. */
  uid: string;
  start: Date;
  end: Date;
  summary: string;
  description: string;
  location: string;
  url?: string;
  /** When this copy was made (DTSTAMP). */
  stamp: Date;
  /** Higher wins when a calendar sees the same UID twice (reschedule, cancel). */
  sequence?: number;
  status?: 'CONFIRMED' | 'CANCELLED';
  /** RFC 5546 §3.2.1: a PUBLISH names its organizer — the business (name and address). */
  organizer?: { name: string; email: string };
}

export interface AppointmentDetails {
  bookingId: string;
  reference: string;
  startsAt: Date;
  /** Host part of the UID, e.g. notaryonline.us. */
  host: string;
  manageUrl?: string;
  now: Date;
  sequence?: number;
  cancelled?: boolean;
}

/** The one description of a notary session, used by the .ics, the emails' links and the wizard. */
export function appointmentEvent(details: AppointmentDetails): CalendarEvent {
  const lines = [
    `Booking reference: ${details.reference}`,
    ...sessionSteps,
    'Have ready: a valid government-issued photo ID, your documents (unsigned), a quiet private room, a device with a camera, and an internet connection of at least 1 Mbps.',
    `Questions or urgent help: ${site.phone}`,
  ];
  if (details.manageUrl) lines.push(`View, reschedule or cancel: ${details.manageUrl}`);
  return {
    uid: `${details.bookingId}@${details.host}`,
    start: details.startsAt,
    end: new Date(details.startsAt.getTime() + appointmentMinutes * 60_000),
    summary: `Online notary session (${site.brand})`,
    description: lines.join('\n'),
    location: `Online video session (${site.brand})`,
    url: details.manageUrl,
    stamp: details.now,
    sequence: details.sequence ?? 0,
    status: details.cancelled ? 'CANCELLED' : 'CONFIRMED',
    organizer: { name: site.legalName, email: site.email },
  };
}

/** 20260305T143000Z */
export function icsDate(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

/** TEXT value escaping (RFC 5545 §3.3.11). */
export function escapeIcsText(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r\n|\r|\n/g, '\\n');
}

const encoder = new TextEncoder();

/**
 * Folds a content line at 75 octets (RFC 5545 §3.1): continuation lines start
 * with one space. Never splits a UTF-8 character.
 */
export function foldLine(line: string): string {
  if (encoder.encode(line).length <= 75) return line;
  const parts: string[] = [];
  let current = '';
  let currentBytes = 0;
  for (const char of line) {
    const size = encoder.encode(char).length;
    // The first line holds 75 octets; continuations 74 plus the leading space.
    const limit = parts.length === 0 ? 75 : 74;
    if (currentBytes + size > limit) {
      parts.push(current);
      current = '';
      currentBytes = 0;
    }
    current += char;
    currentBytes += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

export function buildIcs(event: CalendarEvent, options: { method?: 'PUBLISH' | 'CANCEL' } = {}): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//${site.legalName}//Bookings//EN`,
    'CALSCALE:GREGORIAN',
    `METHOD:${options.method ?? 'PUBLISH'}`,
    'BEGIN:VEVENT',
    `UID:${event.uid}`,
    `DTSTAMP:${icsDate(event.stamp)}`,
    `DTSTART:${icsDate(event.start)}`,
    `DTEND:${icsDate(event.end)}`,
    `SEQUENCE:${event.sequence ?? 0}`,
    // CN is a quoted parameter value (RFC 5545 §3.2): quotes cannot appear inside it.
    ...(event.organizer ? [`ORGANIZER;CN="${event.organizer.name.replace(/"/g, "'")}":mailto:${event.organizer.email}`] : []),
    `STATUS:${event.status ?? 'CONFIRMED'}`,
    `SUMMARY:${escapeIcsText(event.summary)}`,
    `DESCRIPTION:${escapeIcsText(event.description)}`,
    `LOCATION:${escapeIcsText(event.location)}`,
    ...(event.url ? [`URL:${event.url}`] : []),
    'BEGIN:VALARM',
    'ACTION:DISPLAY',
    `DESCRIPTION:${escapeIcsText(event.summary)}`,
    'TRIGGER:-PT30M',
    'END:VALARM',
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return lines.map(foldLine).join('\r\n') + '\r\n';
}

export function googleCalendarUrl(event: CalendarEvent): string {
  const params = new URLSearchParams({
    action: 'TEMPLATE',
    text: event.summary,
    dates: `${icsDate(event.start)}/${icsDate(event.end)}`,
    details: event.description,
    location: event.location,
  });
  return `https://calendar.google.com/calendar/render?${params.toString()}`;
}

export function outlookCalendarUrl(event: CalendarEvent): string {
  const params = new URLSearchParams({
    path: '/calendar/action/compose',
    rru: 'addevent',
    subject: event.summary,
    startdt: event.start.toISOString(),
    enddt: event.end.toISOString(),
    body: event.description,
    location: event.location,
  });
  return `https://outlook.live.com/calendar/0/deeplink/compose?${params.toString()}`;
}

/** Where the server serves a booking's .ics (see src/server/http/calendar.ts). */
export function calendarDownloadPath(bookingId: string, manageToken?: string): string {
  const base = `/api/bookings/${encodeURIComponent(bookingId)}/calendar.ics`;
  return manageToken ? `${base}?token=${encodeURIComponent(manageToken)}` : base;
}

