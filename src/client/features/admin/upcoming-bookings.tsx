import { Link } from 'react-router-dom';
import { trpc } from '../../lib/trpc.ts';
import { timeIn } from './format.ts';
import { StatusBadge } from './status-badge.tsx';
import { staffZone, useStaff } from './use-staff.tsx';

/** The next confirmed bookings, in the staff member's zone (beside the chat). */
export function UpcomingBookings({ limit = 8 }: { limit?: number }) {
  const { staff } = useStaff();
  const list = trpc.console.bookings.list.useQuery({ status: 'confirmed' }, { refetchInterval: 60_000 });
  const zone = staffZone(staff);
  const now = Date.now();
  const upcoming = (list.data?.items ?? []).filter((b) => b.startsAt && b.startsAt.getTime() >= now).slice(0, limit);
  return (
    <section aria-labelledby="upcoming-heading" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id="upcoming-heading" className="text-lg font-semibold text-slate-900">
        Upcoming bookings
      </h2>
      {list.isLoading ? (
        <p className="mt-3 text-sm text-slate-700">Loading…</p>
      ) : list.error ? (
        <p className="mt-3 text-sm text-red-700" role="alert">
          Could not load bookings.
        </p>
      ) : upcoming.length === 0 ? (
        <p className="mt-3 text-sm text-slate-700">No upcoming bookings.</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-200">
          {upcoming.map((b) => (
            <li key={b.id} className="py-2">
              <Link to={`/admin/bookings/${b.id}`} className="font-medium text-blue-700 underline-offset-2 hover:underline">
                {b.customer?.name ?? b.reference}
              </Link>
              <p className="text-sm text-slate-700">{timeIn(b.startsAt, zone)}</p>
              <p className="text-xs text-slate-600">
                {b.reference} · <StatusBadge status={b.status} />
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
