import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useSearchParams } from '../../lib/router-hooks.tsx';
import { DataTable } from '../../components/ui/data-table.tsx';
import { Loaded } from '../../components/ui/loaded.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input, Select } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { trpc } from '../../lib/trpc.ts';
import type { Outputs } from '../../lib/rpc.ts';
import { bookingStatuses, type BookingStatus } from '../../../shared/booking.ts';
import { statusLabels, timeIn } from './format.ts';
import { errorMessage } from '../../lib/errors.ts';
import { PageHeading } from './page-heading.tsx';
import { StatusBadge } from './status-badge.tsx';
import { staffZone, useStaff } from './use-staff.tsx';

type StatusFilter = BookingStatus | 'active' | 'all';

/** All bookings: upcoming first, filters kept in the URL so a view can be shared and reloaded. */
export function BookingsPage() {
  const { staff } = useStaff();
  const [params, setParams] = useSearchParams();
  const day = params.get('day') ?? '';
  const status = (params.get('status') ?? 'active') as StatusFilter;
  const q = params.get('q') ?? '';
  /** Where this page starts (the previous page's cursor) and its number, both in the address. */
  const after = params.get('after') ?? '';
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const [draft, setDraft] = useState(q);
  const ids = { day: useId(), status: useId(), q: useId() };
  const list = trpc.console.bookings.list.useQuery({ day: day || undefined, status, q: q || undefined, after: after || undefined });
  const zone = staffZone(staff);

  /** A changed filter starts again from the first page. */
  const update = (changes: Record<string, string>) => {
    const next = new URLSearchParams(params);
    next.delete('after');
    next.delete('page');
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    setParams(next, { replace: true });
  };
  /** The address of another page with the same filters (paging adds to the history: Back returns). */
  const pageLink = (cursor: string | null, number: number) => {
    const next = new URLSearchParams(params);
    next.delete('after');
    next.delete('page');
    if (cursor) {
      next.set('after', cursor);
      next.set('page', String(number));
    }
    const query = next.toString();
    return query ? `?${query}` : '?';
  };
  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    update({ q: draft.trim() });
  };

  return (
    <>
      <PageHeading title="Bookings" />
      <form onSubmit={onSearch} className="mb-6 grid gap-4 rounded-xl border border-slate-200 bg-white p-4 sm:grid-cols-[1fr_1fr_2fr_auto] sm:items-end" role="search" aria-label="Filter bookings">
        <div className="grid gap-1.5">
          <Label htmlFor={ids.day}>Day ({zone.replaceAll('_', ' ')})</Label>
          <Input id={ids.day} type="date" value={day} onChange={(e) => update({ day: e.target.value })} />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={ids.status}>Status</Label>
          <Select id={ids.status} value={status} onChange={(e) => update({ status: e.target.value === 'active' ? '' : e.target.value })}>
            <option value="active">All but drafts</option>
            {bookingStatuses.map((s) => (
              <option key={s} value={s}>
                {statusLabels[s]}
              </option>
            ))}
            <option value="all">Everything</option>
          </Select>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={ids.q}>Reference, name or email</Label>
          <Input id={ids.q} type="search" maxLength={100} value={draft} onChange={(e) => setDraft(e.target.value)} />
        </div>
        <div className="flex gap-2">
          <Button type="submit">Search</Button>
          {(day || q || params.get('status')) && (
            <Button
              type="button"
              variant="outline"
              onClick={() => {
                setDraft('');
                setParams(new URLSearchParams(), { replace: true });
              }}
            >
              Clear
            </Button>
          )}
        </div>
      </form>

      <Loaded query={list} what="bookings" failure={list.error && `Could not load bookings: ${errorMessage(list.error)}`}>
        {({ items, next }) =>
          items.length === 0 && !after ? (
            <p className="text-slate-700">No bookings match these filters.</p>
          ) : (
            <>
              <BookingRows rows={items} zone={zone} caption={`Bookings, upcoming first, times in ${zone}${after || next ? ` — page ${page}` : ''}`} />
              {(after || next) && (
                <nav aria-label="Bookings pages" className="mt-4 flex items-center gap-4">
                  {after && (
                    <Link to={pageLink(null, 1)} className="font-medium text-blue-700 underline underline-offset-2">
                      First page
                    </Link>
                  )}
                  <span className="text-slate-700">Page {page}</span>
                  {next && (
                    <Link to={pageLink(next, page + 1)} className="font-medium text-blue-700 underline underline-offset-2">
                      Next page
                    </Link>
                  )}
                </nav>
              )}
            </>
          )
        }
      </Loaded>
    </>
  );
}

type BookingRow = Outputs['console']['bookings']['list']['items'][number];

/** One page of bookings; past appointments in a quieter colour. */
function BookingRows({ rows, zone, caption }: { rows: BookingRow[]; zone: string; caption: string }) {
  const now = Date.now();
  return (
    <DataTable caption={caption} columns={[`Time (${zone.replaceAll('_', ' ')})`, 'Customer', 'Reference', 'Status', 'Notary', 'Documents']}>
      {rows.map((b) => (
        <tr key={b.id} className={b.startsAt && b.startsAt.getTime() < now ? 'text-slate-700' : undefined}>
          <td className="px-4 py-3">{timeIn(b.startsAt, zone)}</td>
          <td className="px-4 py-3">
            <Link to={`/admin/bookings/${b.id}`} className="font-medium text-blue-700 underline-offset-2 hover:underline">
              {b.customer?.name || 'No contact yet'}
            </Link>
            {b.customer && <div className="text-slate-600">{b.customer.email}</div>}
          </td>
          <td className="px-4 py-3 font-mono">{b.reference}</td>
          <td className="px-4 py-3">
            <StatusBadge status={b.status} />
          </td>
          <td className="px-4 py-3">{b.notary?.name ?? 'Unassigned'}</td>
          <td className="px-4 py-3">{b.documentCount}</td>
        </tr>
      ))}
    </DataTable>
  );
}
