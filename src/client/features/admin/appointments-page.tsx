import { Link } from 'react-router-dom';
import { trpc } from '../../lib/trpc.ts';
import { localDateOf } from '../../../shared/time.ts';
import { sessionStateLabels } from '../../../shared/session.ts';
import { timeIn } from './format.ts';
import { PageHeading } from './page-heading.tsx';
import { StatusBadge } from './status-badge.tsx';
import { PastAppointments } from './past-appointments.tsx';

/** A notary's day: their own appointments, today and upcoming, in their zone; the past ones below, a page at a time. */
export function AppointmentsPage() {
  const list = trpc.console.appointments.useQuery(undefined, { refetchInterval: 60_000 });
  if (list.isLoading) return <p>Loading appointments…</p>;
  if (list.error || !list.data) {
    return (
      <p role="alert" className="text-red-700">
        Could not load appointments.
      </p>
    );
  }
  const { appointments, timeZone, today, tomorrow } = list.data;
  const groups = [
    { title: 'Awaiting an outcome', items: appointments.filter((a) => a.awaitingOutcome && a.startsAt && localDateOf(a.startsAt, timeZone) < today) },
    { title: 'Today', items: appointments.filter((a) => a.startsAt && localDateOf(a.startsAt, timeZone) === today) },
    { title: 'Tomorrow', items: appointments.filter((a) => a.startsAt && localDateOf(a.startsAt, timeZone) === tomorrow) },
    { title: 'Later', items: appointments.filter((a) => a.startsAt && localDateOf(a.startsAt, timeZone) > tomorrow) },
  ];
  return (
    <>
      <PageHeading title="My appointments" />
      <p className="mb-6 text-slate-700">Times in your zone: {timeZone.replaceAll('_', ' ')}.</p>
      {groups.map((group) => (
        <section key={group.title} aria-labelledby={`group-${group.title}`} className="mb-8">
          <h2 id={`group-${group.title}`} className="mb-3 text-lg font-semibold text-slate-900">
            {group.title}
          </h2>
          {group.items.length === 0 ? (
            <p className="text-sm text-slate-700">No appointments.</p>
          ) : (
            <ul className="grid gap-3">
              {group.items.map((a) => (
                <li key={a.id} className="rounded-xl border border-slate-200 bg-white p-4">
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <Link to={`/admin/appointments/${a.id}`} className="font-semibold text-blue-700 underline-offset-2 hover:underline">
                      {timeIn(a.startsAt, timeZone)}
                    </Link>
                    <span className="flex flex-wrap items-center gap-2">
                      {a.isNew && <span className="rounded-full bg-blue-700 px-2 py-0.5 text-xs font-semibold text-white">New</span>}
                      <span className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold text-slate-900">{sessionStateLabels[a.sessionState]}</span>
                      <StatusBadge status={a.status} />
                    </span>
                  </div>
                  <p className="mt-1 text-sm text-slate-800">
                    {a.customer?.name ?? 'Customer'} · {a.customer?.phone ? <a href={`tel:${a.customer.phone}`} className="text-blue-700 underline">{a.customer.phone}</a> : 'No phone'}
                  </p>
                  <p className="text-sm text-slate-600">
                    {a.reference} · {a.documentCount} {a.documentCount === 1 ? 'document' : 'documents'}
                  </p>
                </li>
              ))}
            </ul>
          )}
        </section>
      ))}
      <PastAppointments />
    </>
  );
}
