import { useState } from 'react';
import { Link } from 'react-router-dom';
import { actStageLabels } from '../../../shared/act-stages.ts';
import { Button } from '../../components/ui/button.tsx';
import { trpc } from '../../lib/trpc.ts';
import { timeIn } from './format.ts';
import { StatusBadge } from './status-badge.tsx';

/**
 * A notary's own appointments before today, most recent first, a page at a
 * time: after the day ends an act stays reachable (its recordings, documents
 * and outcome) from the console.
 */
export function PastAppointments() {
  // The pages walked so far: each one's `after` (null: the first page).
  const [trail, setTrail] = useState<(string | null)[]>([null]);
  const after = trail.at(-1) ?? null;
  const page = trpc.console.pastAppointments.useQuery({ after });
  return (
    <section aria-labelledby="group-past" className="mb-8">
      <h2 id="group-past" className="mb-3 text-lg font-semibold text-slate-900">
        Past
      </h2>
      {page.error ? (
        <p role="alert" className="text-red-700">
          {page.error.message}
        </p>
      ) : !page.data ? (
        <p className="text-sm text-slate-700">Loading…</p>
      ) : page.data.appointments.length === 0 ? (
        <p className="text-sm text-slate-700">No past appointments.</p>
      ) : (
        <ul className="grid gap-3" data-testid="past-appointments">
          {page.data.appointments.map((a) => (
            <li key={a.id} className="rounded-xl border border-slate-200 bg-white p-4">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <Link to={`/admin/appointments/${a.id}`} className="font-semibold text-blue-700 underline-offset-2 hover:underline">
                  {timeIn(a.startsAt, page.data.timeZone)}
                </Link>
                <span className="flex flex-wrap items-center gap-2">
                  <span className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold text-slate-900">{actStageLabels[a.actStage]}</span>
                  <StatusBadge status={a.status} />
                </span>
              </div>
              <p className="mt-1 text-sm text-slate-800">{a.customer?.name ?? 'Customer'}</p>
              <p className="text-sm text-slate-600">
                {a.reference} · {a.documentCount} {a.documentCount === 1 ? 'document' : 'documents'}
              </p>
            </li>
          ))}
        </ul>
      )}
      {(trail.length > 1 || page.data?.next) && (
      <nav aria-label="Past appointments pages" className="mt-3 flex gap-3">
        {trail.length > 1 && (
          <Button type="button" variant="outline" onClick={() => setTrail((t) => t.slice(0, -1))}>
            Newer
          </Button>
        )}
        {page.data?.next && (
          <Button type="button" variant="outline" onClick={() => setTrail((t) => [...t, page.data!.next])}>
            Older
          </Button>
        )}
      </nav>
      )}
    </section>
  );
}
