import type { BookingStatus } from '../../../shared/booking.ts';
import { cn } from '../../lib/cn.ts';
import { statusLabels, statusStyles } from './format.ts';

export function StatusBadge({ status }: { status: BookingStatus }) {
  return <span className={cn('inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold', statusStyles[status])}>{statusLabels[status]}</span>;
}
