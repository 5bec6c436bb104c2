import { businessTimeZone } from './zones.ts';

/**
 * The hours of service as the public pages state them (issue 28, decision 096):
 * no dependencies, so the home page's bundle carries only this.
 */

export const weekdays = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;


export interface OpeningSpan {
  /** 'HH:MM' in the business zone; closes '24:00' is written '23:59' for schema.org. */
  opens: string;
  closes: string;
}

export interface ServiceHours {
  /** Every slot of the coming week has a notary working. */
  allHours: boolean;
  /** Per weekday (Sunday first) the spans served, in the business zone. */
  days: OpeningSpan[][];
  timeZone: string;
}

function clock(value: string): string {
  if (value === '23:59') return 'midnight';
  const [h, m] = value.split(':').map(Number) as [number, number];
  const suffix = h < 12 ? 'AM' : 'PM';
  const hour = h % 12 === 0 ? 12 : h % 12;
  return `${hour}:${String(m).padStart(2, '0')} ${suffix}`;
}

/**
 * The hours as a sentence: 'Monday–Friday 9:00 AM–5:00 PM; Saturday 10:00 AM–2:00 PM (Central Time)'.
 * Consecutive days with the same spans are joined; days without any are left out.
 */
export function describeServiceHours(hours: ServiceHours): string {
  if (hours.allHours) return '24/7';
  // Monday first, as people read a week.
  const order = [1, 2, 3, 4, 5, 6, 0];
  const spansText = (spans: OpeningSpan[]) => spans.map((s) => `${clock(s.opens)}–${clock(s.closes)}`).join(', ');
  const groups: { first: number; last: number; text: string }[] = [];
  for (const day of order) {
    const spans = hours.days[day]!;
    if (spans.length === 0) continue;
    const text = spansText(spans);
    const previous = groups.at(-1);
    if (previous && previous.text === text && order.indexOf(previous.last) === order.indexOf(day) - 1) previous.last = day;
    else groups.push({ first: day, last: day, text });
  }
  if (groups.length === 0) return 'by appointment';
  const zone = hours.timeZone === businessTimeZone ? 'Central Time' : hours.timeZone.replaceAll('_', ' ');
  const everyDay = groups.length === 1 && groups[0]!.first === 1 && groups[0]!.last === 0;
  const parts = groups.map((g) =>
    everyDay ? `every day ${g.text}` : `${weekdays[g.first]}${g.first === g.last ? '' : `–${weekdays[g.last]}`} ${g.text}`,
  );
  return `${parts.join('; ')} (${zone})`;
}

/** schema.org's OpeningHoursSpecification entries for the LegalService markup. */
export function openingHoursSpecification(hours: ServiceHours) {
  return weekdays.flatMap((day, i) =>
    hours.days[i]!.map((span) => ({ '@type': 'OpeningHoursSpecification', dayOfWeek: day, opens: span.opens, closes: span.closes })),
  );
}

