import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { appointmentEvent, buildIcs, foldLine, googleCalendarUrl, outlookCalendarUrl } from './calendar.ts';
import { formatInZone } from './time.ts';
import { site } from './site.ts';

const details = {
  bookingId: '6b0f4a52-5d0a-4c1e-9a55-0e4b7c2c1a11',
  reference: 'NOTARY-7K3M9Q2X',
  startsAt: new Date('2026-03-05T20:30:00Z'),
  host: 'notaryonline.us',
  manageUrl: 'https://notaryonline.us/booking/abc_DEF-123',
  now: new Date('2026-03-01T12:00:00Z'),
};

describe('buildIcs', () => {
  const text = buildIcs(appointmentEvent(details));

  it('is parsed by a real calendar parser with UTC times, the UID, summary and description', () => {
    const calendar = new ICAL.Component(ICAL.parse(text));
    const vevent = calendar.getFirstSubcomponent('vevent')!;
    const event = new ICAL.Event(vevent);
    expect(event.uid).toBe(`${details.bookingId}@notaryonline.us`);
    expect(event.startDate.zone?.tzid).toBe('UTC');
    expect(event.startDate.toJSDate().toISOString()).toBe('2026-03-05T20:30:00.000Z');
    expect(event.endDate.toJSDate().toISOString()).toBe('2026-03-05T21:00:00.000Z');
    expect(event.summary).toBe('Online notary session (NotaryOnline)');
    expect(event.description).toContain('NOTARY-7K3M9Q2X');
    expect(event.description).toContain(site.phone);
    expect(event.location).toContain('Online video session');
    expect(vevent.getFirstPropertyValue('dtstamp')!.toString()).toBe('2026-03-01T12:00:00Z');
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
  });

  it('uses CRLF line ends and folds every line to at most 75 octets', () => {
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    for (const line of text.split('\r\n')) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
    expect(text).toContain('DTSTART:20260305T203000Z');
  });

  it('escapes commas, semicolons, backslashes and newlines in text values', () => {
    const event = { ...appointmentEvent(details), summary: 'a, b; c\\d\ne' };
    const parsed = new ICAL.Event(new ICAL.Component(ICAL.parse(buildIcs(event))).getFirstSubcomponent('vevent')!);
    expect(parsed.summary).toBe('a, b; c\\d\ne');
  });
});

describe('foldLine', () => {
  it('never splits a multi-byte character', () => {
    const line = `SUMMARY:${'é'.repeat(60)}`;
    const folded = foldLine(line);
    const pieces = folded.split('\r\n ');
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe(line);
    for (const piece of pieces) expect(new TextEncoder().encode(piece).length).toBeLessThanOrEqual(75);
  });
});

describe('calendar links', () => {
  const event = appointmentEvent(details);
  it('builds a Google Calendar template link with UTC dates', () => {
    const url = new URL(googleCalendarUrl(event));
    expect(url.hostname).toBe('calendar.google.com');
    expect(url.searchParams.get('action')).toBe('TEMPLATE');
    expect(url.searchParams.get('dates')).toBe('20260305T203000Z/20260305T210000Z');
    expect(url.searchParams.get('details')).toContain('NOTARY-7K3M9Q2X');
  });
  it('builds an Outlook compose link', () => {
    const url = new URL(outlookCalendarUrl(event));
    expect(url.searchParams.get('startdt')).toBe('2026-03-05T20:30:00.000Z');
    expect(url.searchParams.get('subject')).toBe(event.summary);
  });
});

describe('formatInZone', () => {
  it("formats as 'MMMM d, yyyy at h:mm a' in the given zone and names the zone", () => {
    const chicago = formatInZone(new Date('2026-03-05T20:30:00Z'), 'America/Chicago');
    expect(chicago.dateTime).toBe('March 5, 2026 at 2:30 PM');
    expect(chicago.zone).toBe('Central Standard Time');
    const tokyo = formatInZone(new Date('2026-03-05T20:30:00Z'), 'Asia/Tokyo');
    expect(tokyo.full).toBe('March 6, 2026 at 5:30 AM (Japan Standard Time)');
    expect(formatInZone(new Date('2026-07-01T05:05:00Z'), 'America/New_York').dateTime).toBe('July 1, 2026 at 1:05 AM');
  });
});
