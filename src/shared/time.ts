import { TZDate } from '@date-fns/tz';
import { businessTimeZone } from './zones.ts';

// The zone helpers without date-fns live in zones.ts (the booking wizard's first step needs only those).
export { businessTimeZone, detectTimeZone, isValidTimeZone } from './zones.ts';

/**
 * Time-zone helpers shared by the server and the wizard. Instants are plain
 * `Date`s (UTC inside); a zone is only applied to build or show wall-clock times.
 * Business hours are defined in the business zone, so a daylight-saving change
 * in either zone never adds, drops or shifts a slot.
 */

export const slotMinutes = 30;
/** First start 8:00 AM, last start 10:30 PM, business zone. */
export const firstSlotMinuteOfDay = 8 * 60;
export const lastSlotMinuteOfDay = 22 * 60 + 30;

export interface LocalDate {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
}

export function parseIsoDate(date: string): LocalDate {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return { year, month, day };
}

export function toIsoDate({ year, month, day }: LocalDate): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export function addDays(date: LocalDate, days: number): LocalDate {
  const utc = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: utc.getUTCFullYear(), month: utc.getUTCMonth() + 1, day: utc.getUTCDate() };
}

/** The calendar date an instant falls on in `zone`, as 'YYYY-MM-DD'. */
export function localDateOf(instant: Date, zone: string): string {
  // TZDate's own getters read the zone's wall clock; date-fns' `format` (37 modules
  // read at start on the server) is not needed for three numbers.
  const local = new TZDate(instant.getTime(), zone);
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  return `${pad(local.getFullYear(), 4)}-${pad(local.getMonth() + 1, 2)}-${pad(local.getDate(), 2)}`;
}

/** The instant of a wall-clock time in `zone` (minutes after midnight may exceed a day). */
export function zonedInstant(date: LocalDate, minuteOfDay: number, zone: string): Date {
  return new Date(new TZDate(date.year, date.month - 1, date.day, 0, minuteOfDay, zone).getTime());
}

/** [start, end) of a calendar date in `zone`: 23, 24 or 25 hours long. */
export function dayBounds(date: string, zone: string): { start: Date; end: Date } {
  const local = parseIsoDate(date);
  const start = zonedInstant(local, 0, zone);
  const end = zonedInstant(addDays(local, 1), 0, zone);
  return { start, end };
}

/** Every business slot start (ignoring notice, window and capacity) in [from, to). */
export function businessSlotsBetween(from: Date, to: Date): Date[] {
  const slots: Date[] = [];
  // A visitor's day overlaps at most three business-zone dates.
  let cursor = parseIsoDate(localDateOf(new Date(from.getTime() - 36 * 3600_000), businessTimeZone));
  const last = localDateOf(new Date(to.getTime() + 36 * 3600_000), businessTimeZone);
  for (let guard = 0; guard < 400; guard++) {
    for (let minute = firstSlotMinuteOfDay; minute <= lastSlotMinuteOfDay; minute += slotMinutes) {
      const instant = zonedInstant(cursor, minute, businessTimeZone);
      if (instant >= from && instant < to) slots.push(instant);
    }
    if (toIsoDate(cursor) === last) break;
    cursor = addDays(cursor, 1);
  }
  return slots.sort((a, b) => a.getTime() - b.getTime());
}

/** Business slot starts falling on `date` as the visitor in `zone` sees it. */
export function businessSlotsOnDate(date: string, zone: string): Date[] {
  const { start, end } = dayBounds(date, zone);
  return businessSlotsBetween(start, end);
}

/** True when `instant` is exactly one of the 30-minute starts of business hours. */
export function isBusinessSlotStart(instant: Date): boolean {
  if (Number.isNaN(instant.getTime()) || instant.getUTCSeconds() !== 0 || instant.getUTCMilliseconds() !== 0) return false;
  const local = new TZDate(instant.getTime(), businessTimeZone);
  const minuteOfDay = local.getHours() * 60 + local.getMinutes();
  return minuteOfDay % slotMinutes === 0 && minuteOfDay >= firstSlotMinuteOfDay && minuteOfDay <= lastSlotMinuteOfDay;
}

// ---- Display -----------------------------------------------------------------

export interface ZonedTime {
  /** 'March 5, 2026' */
  date: string;
  /** '2:30 PM' */
  time: string;
  /** 'Central Standard Time' — the zone is always named beside a time. */
  zone: string;
  /** 'March 5, 2026 at 2:30 PM' (docs/product.md §6) */
  dateTime: string;
  /** 'March 5, 2026 at 2:30 PM (Central Standard Time)' */
  full: string;
}

/**
 * One formatter per zone and style, kept: making an Intl.DateTimeFormat costs
 * ~0.5 ms (ICU loads the zone), using one a few µs — a sealed certificate page
 * formats four times (decision 136). A zone Intl refuses throws as before and is
 * not kept.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(style: 'long' | 'short', timeZone: string): Intl.DateTimeFormat {
  const key = `${style} ${timeZone}`;
  let format = formatters.get(key);
  if (!format) {
    format =
      style === 'long'
        ? new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'long', day: 'numeric', hour: 'numeric', minute: '2-digit', hour12: true, timeZoneName: 'long' })
        : new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'short' });
    // Zones are a few hundred; spellings Intl also accepts ('america/chicago') are not kept without bound.
    if (formatters.size >= 1000) formatters.clear();
    formatters.set(key, format);
  }
  return format;
}

/** An instant as a person in `timeZone` reads it, zone named. */
export function formatInZone(instant: Date, timeZone: string): ZonedTime {
  const parts = formatter('long', timeZone).formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  const date = `${part('month')} ${part('day')}, ${part('year')}`;
  const time = `${part('hour')}:${part('minute')} ${part('dayPeriod').toUpperCase()}`;
  const zone = part('timeZoneName');
  const dateTime = `${date} at ${time}`;
  return { date, time, zone, dateTime, full: `${dateTime} (${zone})` };
}

/** 'March 14, 2027' (docs/product.md §4.3) in `zone`. */
export function formatDateInZone(instant: Date, zone: string): string {
  return formatInZone(instant, zone).date;
}

/** '8:30 AM' (docs/product.md §4.3) in `zone`. */
export function formatTimeInZone(instant: Date, zone: string): string {
  return formatInZone(instant, zone).time;
}

/** 'March 14, 2027 at 8:30 AM' — the notification payload's dateTime. */
export function formatDateTimeInZone(instant: Date, zone: string): string {
  return formatInZone(instant, zone).dateTime;
}

/** The zone's short name at that instant ('CDT', 'PST', 'GMT+9'), to sit beside every time. */
export function zoneAbbreviation(instant: Date, zone: string): string {
  const part = formatter('short', zone)
    .formatToParts(instant)
    .find((p) => p.type === 'timeZoneName');
  return part?.value ?? zone;
}
