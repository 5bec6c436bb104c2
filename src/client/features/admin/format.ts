import { formatDateTimeInZone, zoneAbbreviation } from '../../../shared/time.ts';
import type { BookingStatus } from '../../../shared/booking.ts';
import { bookingStatusLabels } from '../../../shared/labels.ts';

/** 'March 14, 2027 at 8:30 AM CDT (America/Chicago)': the zone always named. */
export function timeIn(instant: Date | null, zone: string): string {
  if (!instant) return 'No time chosen';
  return `${formatDateTimeInZone(instant, zone)} ${zoneAbbreviation(instant, zone)} (${zone.replaceAll('_', ' ')})`;
}

/** One label map for every reader (src/shared/labels.ts). */
export const statusLabels = bookingStatusLabels;

export const statusStyles: Record<BookingStatus, string> = {
  draft: 'bg-slate-100 text-slate-800',
  held: 'bg-amber-100 text-amber-900',
  awaiting_payment: 'bg-amber-100 text-amber-900',
  payment_processing: 'bg-amber-100 text-amber-900',
  confirmed: 'bg-blue-100 text-blue-900',
  completed: 'bg-green-100 text-green-900',
  no_show: 'bg-red-100 text-red-900',
  not_completed: 'bg-orange-100 text-orange-900',
  cancelled: 'bg-slate-200 text-slate-800',
};
