import { describe, expect, it } from 'vitest';
import { businessServiceHours, describeServiceHours, openingHoursSpecification, serviceHoursFrom, worksAt, type NotaryHours } from './availability.ts';

const now = new Date('2027-03-10T15:00:00Z');
const all = (days: number[], start: number, end: number) => days.map((day) => ({ day, start, end }));

describe('hours of service', () => {
  it('is 24/7 only when every slot of the coming week has someone', () => {
    const day: NotaryHours = { staffId: 'a', timeZone: 'America/Chicago', weekly: all([0, 1, 2, 3, 4, 5, 6], 0, 1440), datesOff: [] };
    expect(serviceHoursFrom([day], now).allHours).toBe(true);
    expect(describeServiceHours(serviceHoursFrom([day], now))).toBe('24/7');
    // Two notaries in different zones covering half a day each still make 24/7.
    const early: NotaryHours = { staffId: 'b', timeZone: 'America/Chicago', weekly: all([0, 1, 2, 3, 4, 5, 6], 0, 720), datesOff: [] };
    const late: NotaryHours = { staffId: 'c', timeZone: 'America/New_York', weekly: [...all([0, 1, 2, 3, 4, 5, 6], 780, 1440), ...all([0, 1, 2, 3, 4, 5, 6], 0, 60)], datesOff: [] };
    expect(serviceHoursFrom([early, late], now).allHours).toBe(true);
    // A date off inside the week breaks it.
    expect(serviceHoursFrom([{ ...day, datesOff: ['2027-03-12'] }], now).allHours).toBe(false);
  });

  it('states the real hours otherwise, weekdays joined, in the business zone', () => {
    const nine: NotaryHours = { staffId: 'a', timeZone: 'America/New_York', weekly: all([1, 2, 3, 4, 5], 540, 1020), datesOff: [] };
    const hours = serviceHoursFrom([nine], now);
    expect(hours.allHours).toBe(false);
    expect(describeServiceHours(hours)).toBe('Monday–Friday 8:00 AM–4:00 PM (Central Time)');
    expect(openingHoursSpecification(hours)[0]).toEqual({ '@type': 'OpeningHoursSpecification', dayOfWeek: 'Monday', opens: '08:00', closes: '16:00' });
    expect(describeServiceHours(businessServiceHours())).toBe('every day 8:00 AM–11:00 PM (Central Time)');
  });

  it('reads a slot on the notary’s own wall clock', () => {
    const ny: NotaryHours = { staffId: 'a', timeZone: 'America/New_York', weekly: all([1], 540, 570), datesOff: [] };
    expect(worksAt(ny, new Date('2027-03-08T14:00:00Z'))).toBe(true); // EST
    expect(worksAt(ny, new Date('2027-03-15T13:00:00Z'))).toBe(true); // EDT
    expect(worksAt(ny, new Date('2027-03-15T14:00:00Z'))).toBe(false);
  });
});
