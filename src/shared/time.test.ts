import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import {
  businessSlotsOnDate,
  dayBounds,
  formatDateInZone,
  formatDateTimeInZone,
  formatTimeInZone,
  isBusinessSlotStart,
  isValidTimeZone,
  localDateOf,
  zoneAbbreviation,
} from './time.ts';

/** What the slot grid looks like for a few dates and zones, as plain strings. */
function summary() {
  const rows: string[] = [];
  for (const [date, zone] of [
    ['2027-03-14', 'America/Chicago'],
    ['2027-11-07', 'America/Chicago'],
    ['2027-03-14', 'America/Los_Angeles'],
    ['2027-11-07', 'Asia/Tokyo'],
    ['2027-03-28', 'Europe/London'],
  ] as const) {
    const slots = businessSlotsOnDate(date, zone);
    rows.push(`${date} ${zone} ${slots.length} ${slots[0]!.toISOString()} ${slots.at(-1)!.toISOString()} ${formatTimeInZone(slots[0]!, zone)}`);
  }
  return rows;
}

describe('business slots and zone formatting', () => {
  it('keeps 30 starts a Chicago day, 8:00 AM–10:30 PM, and maps them onto other zones\' days, across DST changes', () => {
    expect(summary()).toEqual([
      '2027-03-14 America/Chicago 30 2027-03-14T13:00:00.000Z 2027-03-15T03:30:00.000Z 8:00 AM',
      '2027-11-07 America/Chicago 30 2027-11-07T14:00:00.000Z 2027-11-08T04:30:00.000Z 8:00 AM',
      '2027-03-14 America/Los_Angeles 30 2027-03-14T13:00:00.000Z 2027-03-15T03:30:00.000Z 6:00 AM',
      // Tokyo's Nov 7 holds 10:00 AM–10:30 PM of Chicago's Nov 6 (CDT, 26 starts)
      // and 8:00–8:30 AM of Nov 7 (CST, 2 starts).
      '2027-11-07 Asia/Tokyo 28 2027-11-06T15:00:00.000Z 2027-11-07T14:30:00.000Z 12:00 AM',
      // London's 23-hour Mar 28 (BST begins): 7:00–10:30 PM of Chicago's Mar 27 (8)
      // and 8:00 AM–5:30 PM of Mar 28 (20).
      '2027-03-28 Europe/London 28 2027-03-28T00:00:00.000Z 2027-03-28T22:30:00.000Z 12:00 AM',
    ]);
  });

  it('gives the same answers whatever zone the machine runs in', () => {
    const module = path.resolve('src/shared/time.ts');
    const script = `import * as t from ${JSON.stringify(module)};
      const rows = [];
      for (const [date, zone] of [['2027-03-14','America/Chicago'],['2027-11-07','America/Chicago'],['2027-03-14','America/Los_Angeles'],['2027-11-07','Asia/Tokyo'],['2027-03-28','Europe/London']]) {
        const s = t.businessSlotsOnDate(date, zone);
        rows.push(date + ' ' + zone + ' ' + s.length + ' ' + s[0].toISOString() + ' ' + s.at(-1).toISOString() + ' ' + t.formatTimeInZone(s[0], zone));
      }
      console.log(JSON.stringify(rows));`;
    for (const tz of ['Asia/Kolkata', 'America/Los_Angeles', 'Pacific/Chatham']) {
      const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, TZ: tz }, encoding: 'utf8' });
      expect(JSON.parse(out), tz).toEqual(summary());
    }
  });

  it('knows the length of a visitor day and the date an instant falls on', () => {
    const spring = dayBounds('2027-03-14', 'America/Chicago');
    expect(spring.end.getTime() - spring.start.getTime()).toBe(23 * 3600_000);
    const fall = dayBounds('2027-11-07', 'America/Chicago');
    expect(fall.end.getTime() - fall.start.getTime()).toBe(25 * 3600_000);
    expect(localDateOf(new Date('2027-03-14T04:00:00Z'), 'America/Chicago')).toBe('2027-03-13');
    expect(localDateOf(new Date('2027-03-14T04:00:00Z'), 'Asia/Tokyo')).toBe('2027-03-14');
    // Zero-padded month and day; a new year reached in one zone and not another.
    expect(localDateOf(new Date('2026-12-31T20:00:00Z'), 'Asia/Tokyo')).toBe('2027-01-01');
    expect(localDateOf(new Date('2026-12-31T20:00:00Z'), 'America/Chicago')).toBe('2026-12-31');
    expect(localDateOf(new Date('2027-06-05T10:00:00Z'), 'Pacific/Kiritimati')).toBe('2027-06-06');
  });

  it('recognises only grid starts within business hours', () => {
    expect(isBusinessSlotStart(new Date('2027-03-14T13:00:00Z'))).toBe(true); // 8:00 AM CDT
    expect(isBusinessSlotStart(new Date('2027-03-13T13:00:00Z'))).toBe(false); // 7:00 AM CST
    expect(isBusinessSlotStart(new Date('2027-03-15T03:30:00Z'))).toBe(true); // 10:30 PM CDT
    expect(isBusinessSlotStart(new Date('2027-03-15T04:00:00Z'))).toBe(false); // 11:00 PM CDT
    expect(isBusinessSlotStart(new Date('2027-03-14T13:15:00Z'))).toBe(false);
    expect(isBusinessSlotStart(new Date('invalid'))).toBe(false);
  });

  it("formats with the spec's patterns and names the zone", () => {
    const instant = new Date('2027-11-07T14:00:00Z');
    expect(formatDateInZone(instant, 'America/Chicago')).toBe('November 7, 2027');
    expect(formatTimeInZone(instant, 'America/Chicago')).toBe('8:00 AM');
    expect(formatDateTimeInZone(instant, 'Asia/Tokyo')).toBe('November 7, 2027 at 11:00 PM');
    expect(zoneAbbreviation(instant, 'America/Chicago')).toBe('CST');
    expect(zoneAbbreviation(new Date('2027-11-06T14:00:00Z'), 'America/Chicago')).toBe('CDT');
    expect(isValidTimeZone('America/Chicago')).toBe(true);
    expect(isValidTimeZone('Not/AZone')).toBe(false);
  });

  it('makes one formatter per zone and style, however often it formats there (decision 136)', () => {
    const made = vi.spyOn(Intl, 'DateTimeFormat');
    try {
      const zone = 'Pacific/Chatham';
      for (const day of [1, 2, 3]) {
        const instant = new Date(`2027-01-0${day}T12:00:00Z`);
        expect(formatDateTimeInZone(instant, zone)).toBe(`January ${day + 1}, 2027 at 1:45 AM`);
        expect(zoneAbbreviation(instant, zone)).toBe('GMT+13:45');
      }
      expect(made).toHaveBeenCalledTimes(2);
      expect(() => formatDateInZone(new Date(), 'Not/AZone')).toThrow(RangeError);
      expect(() => formatDateInZone(new Date(), 'Not/AZone')).toThrow(RangeError);
    } finally {
      made.mockRestore();
    }
  });
});
