import { TZDate } from '@date-fns/tz';
import { z } from 'zod';
import { addDays, firstSlotMinuteOfDay, lastSlotMinuteOfDay, localDateOf, parseIsoDate, slotMinutes, zonedInstant } from './time.ts';
import { businessTimeZone } from './zones.ts';
import { weekdays, type OpeningSpan, type ServiceHours } from './service-hours.ts';

export { describeServiceHours, openingHoursSpecification, weekdays, type OpeningSpan, type ServiceHours } from './service-hours.ts';

/**
 * Notaries' availability (issue 28): each notary's weekly working hours in
 * their own zone, their dates off and their on-duty switch. Pure functions,
 * shared by the server (capacity, assignment, the public hours) and the console.
 */


/** One working span on a weekday (0 = Sunday), minutes after local midnight, [start, end); end may be 1440. */
export interface WorkingSpan {
  day: number;
  start: number;
  end: number;
}

export interface NotaryHours {
  staffId: string;
  timeZone: string;
  weekly: WorkingSpan[];
  /** Local dates ('YYYY-MM-DD', the notary's zone) they do not work. */
  datesOff: string[];
}

export const maxDatesOff = 366;

/**
 * Whether the notary works the whole slot starting at `instant`. The slot is
 * read on the notary's wall clock, so a daylight-saving change moves it with
 * their day, never their hours.
 */
export function worksAt(hours: NotaryHours, instant: Date): boolean {
  const local = new TZDate(instant.getTime(), hours.timeZone);
  const date = localDateOf(instant, hours.timeZone);
  if (hours.datesOff.includes(date)) return false;
  const day = local.getDay();
  const start = local.getHours() * 60 + local.getMinutes();
  const end = start + slotMinutes;
  return hours.weekly.some((span) => span.day === day && span.start <= start && end <= span.end);
}

/** The notaries (ids) working the slot at `instant`. */
export function workingAt(all: readonly NotaryHours[], instant: Date): string[] {
  return all.filter((h) => worksAt(h, instant)).map((h) => h.staffId);
}

/** True for a 30-minute boundary of UTC (every zone the product serves keeps whole or half-hour offsets). */
export function isSlotBoundary(instant: Date): boolean {
  const ms = instant.getTime();
  return !Number.isNaN(ms) && ms % (slotMinutes * 60_000) === 0;
}

/** Every 30-minute slot start in [from, to). */
export function slotBoundariesBetween(from: Date, to: Date): Date[] {
  const step = slotMinutes * 60_000;
  const out: Date[] = [];
  for (let t = Math.ceil(from.getTime() / step) * step; t < to.getTime(); t += step) out.push(new Date(t));
  return out;
}

// ---- Hours of service, as the public pages state them ---------------------------

const hhmm = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

/** Before any notary has hours: the configured business hours every day (docs/product.md §4.4). */
export function businessServiceHours(): ServiceHours {
  const span = { opens: hhmm(firstSlotMinuteOfDay), closes: hhmm(lastSlotMinuteOfDay + slotMinutes) };
  return { allHours: false, days: weekdays.map(() => [span]), timeZone: businessTimeZone };
}

/**
 * The hours served over the seven business-zone days from `now`'s date: for each
 * day the runs of slots someone works. 24/7 when no slot of the week is empty.
 */
export function serviceHoursFrom(all: readonly NotaryHours[], now: Date): ServiceHours {
  const today = parseIsoDate(localDateOf(now, businessTimeZone));
  const days: OpeningSpan[][] = weekdays.map(() => []);
  let allHours = all.length > 0;
  for (let i = 0; i < 7; i++) {
    const date = addDays(today, i);
    const weekday = new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay();
    let runStart: number | null = null;
    for (let minute = 0; minute <= 24 * 60; minute += slotMinutes) {
      const served = minute < 24 * 60 && workingAt(all, zonedInstant(date, minute, businessTimeZone)).length > 0;
      if (served && runStart === null) runStart = minute;
      if (!served && minute < 24 * 60) allHours = false;
      if (!served && runStart !== null) {
        days[weekday]!.push({ opens: hhmm(runStart), closes: minute === 24 * 60 ? '23:59' : hhmm(minute) });
        runStart = null;
      }
    }
  }
  return { allHours, days, timeZone: businessTimeZone };
}

// ---- Console inputs ---------------------------------------------------------------

export const workingSpanInput = z
  .object({ day: z.number().int().min(0).max(6), start: z.number().int().min(0).max(1410), end: z.number().int().min(30).max(1440) })
  .refine((s) => s.end > s.start && s.start % 30 === 0 && s.end % 30 === 0, { message: 'Working hours start before they end, on the hour or half hour.' });

export const isoDateInput = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter a date as YYYY-MM-DD.');

export const availabilityForInput = z.object({ staffId: z.uuid().optional() });
export const saveHoursInput = z.object({
  staffId: z.uuid().optional(),
  weekly: z.array(workingSpanInput).max(7 * 4),
  datesOff: z.array(isoDateInput).max(maxDatesOff),
});
export const setDutyInput = z.object({ staffId: z.uuid().optional(), onDuty: z.boolean() });
export const offSickInput = z.object({ staffId: z.uuid().optional(), date: isoDateInput });
