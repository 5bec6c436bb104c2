import { Link, useLocation } from 'react-router-dom';
import { trpc } from '../../lib/trpc.ts';

/** Admins, on every console page, until some notary has hours: a new installation runs on business hours. */
export function SetHoursNotice() {
  const view = trpc.console.availability.get.useQuery(undefined, { staleTime: 60_000 });
  const { pathname } = useLocation();
  // The hours page says it in full.
  if (!view.data?.usingBusinessHours || pathname.startsWith('/admin/hours')) return null;
  return (
    <p role="status" className="mb-6 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
      Bookings follow the business hours until notaries have working hours.{' '}
      <Link to="/admin/hours" className="font-semibold underline">
        Set working hours
      </Link>
    </p>
  );
}
