import { site } from './site.ts';

/**
 * Time-zone names: the business's, the visitor's, and whether a name is one.
 * Kept apart from time.ts (which re-exports these) so code that only needs a
 * zone's name does not load date-fns: the booking wizard's first step
 * (docs/decisions/050-first-paint-and-route-preloads.md).
 */

/** Des Moines, Iowa (the site configuration's zone). */
export const businessTimeZone = site.businessTimeZone;

const validZones = new Map<string, boolean>();

export function isValidTimeZone(zone: string): boolean {
  let valid = validZones.get(zone);
  if (valid === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      valid = true;
    } catch {
      valid = false;
    }
    if (validZones.size < 1000) validZones.set(zone, valid);
  }
  return valid;
}

/** The visitor's zone as the browser reports it, or the business zone. */
export function detectTimeZone(): string {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return zone && isValidTimeZone(zone) ? zone : businessTimeZone;
  } catch {
    return businessTimeZone;
  }
}
