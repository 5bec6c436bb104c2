import { useEffect, useId, useState } from 'react';
import { describeServiceHours, weekdays, type WorkingSpan } from '../../../shared/availability.ts';
import { localDateOf } from '../../../shared/time.ts';
import { Button } from '../../components/ui/button.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { trpc } from '../../lib/trpc.ts';
import { FormMessage } from './form-message.tsx';
import { PageHeading } from './page-heading.tsx';
import { useStaff } from './use-staff.tsx';

/** Monday first, as a working week is read. */
const dayOrder = [1, 2, 3, 4, 5, 6, 0];
const toClock = (minute: number) => `${String(Math.floor(minute / 60) % 24).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
const toMinute = (clock: string) => {
  const [h, m] = clock.split(':').map(Number) as [number, number];
  return h * 60 + m;
};

interface DayRow {
  works: boolean;
  from: string;
  to: string;
}

function rowsOf(weekly: WorkingSpan[]): DayRow[] {
  return weekdays.map((_, day) => {
    const span = weekly.find((s) => s.day === day);
    return span ? { works: true, from: toClock(span.start), to: toClock(span.end) } : { works: false, from: '09:00', to: '17:00' };
  });
}

/** The day's rows as spans; an end of 00:00 is midnight (the end of the day). */
function spansOf(rows: DayRow[]): { spans: WorkingSpan[] } | { error: string } {
  const spans: WorkingSpan[] = [];
  for (const [day, row] of rows.entries()) {
    if (!row.works) continue;
    const start = toMinute(row.from);
    const end = row.to === '00:00' ? 1440 : toMinute(row.to);
    if (start % 30 !== 0 || end % 30 !== 0) return { error: `${weekdays[day]}: start and end on the hour or half hour.` };
    if (end <= start) return { error: `${weekdays[day]}: the hours must end after they start.` };
    spans.push({ day, start, end });
  }
  return { spans };
}

/**
 * Working hours (issue 28): the weekly pattern in the notary's own zone, dates
 * off, the On duty / Off duty switch and "Off sick today". Notaries see their
 * own; admins choose any notary.
 */
export function HoursPage() {
  const { staff } = useStaff();
  const utils = trpc.useUtils();
  const view = trpc.console.availability.get.useQuery();
  const save = trpc.console.availability.save.useMutation();
  const duty = trpc.console.availability.setDuty.useMutation();
  const sick = trpc.console.availability.offSick.useMutation();
  const [selected, setSelected] = useState<string | null>(null);
  const [rows, setRows] = useState<DayRow[]>(rowsOf([]));
  const [datesOff, setDatesOff] = useState<string[]>([]);
  const [newDate, setNewDate] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [confirmSick, setConfirmSick] = useState(false);
  const ids = { notary: useId(), date: useId() };

  const notaries = view.data?.notaries ?? [];
  const current = notaries.find((n) => n.staffId === selected) ?? notaries[0];
  useEffect(() => {
    if (!current) return;
    setRows(rowsOf(current.weekly));
    setDatesOff(current.datesOff);
    setError(null);
  }, [current?.staffId, view.dataUpdatedAt]); // eslint-disable-line react-hooks/exhaustive-deps

  if (view.isLoading || !staff) return <p>Loading working hours…</p>;
  if (view.error || !view.data) {
    return (
      <p role="alert" className="text-red-700">
        Could not load working hours.
      </p>
    );
  }
  const isAdmin = staff.user.role === 'admin';
  const own = current?.staffId === staff.user.id;
  const target = isAdmin && current ? { staffId: current.staffId } : {};
  const refresh = () => utils.console.availability.get.invalidate();

  const onSave = async () => {
    const result = spansOf(rows);
    if ('error' in result) return setError(result.error);
    setError(null);
    try {
      await save.mutateAsync({ ...target, weekly: result.spans, datesOff });
      toast({ title: 'Working hours saved.', variant: 'success' });
      await refresh();
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  const onDuty = async () => {
    if (!current) return;
    try {
      await duty.mutateAsync({ ...target, onDuty: !current.onDuty });
      await refresh();
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  const onSick = async () => {
    if (!current) return;
    try {
      const today = localDateOf(new Date(), current.timeZone);
      const result = await sick.mutateAsync({ ...target, date: today });
      setConfirmSick(false);
      const left = result.unassigned > 0 ? ` ${result.unassigned} could not be reassigned: the office will arrange them.` : '';
      toast({ title: `Today is off. ${result.reassigned} ${result.reassigned === 1 ? 'appointment' : 'appointments'} reassigned.${left}`, variant: 'success' });
      await refresh();
    } catch (e) {
      setConfirmSick(false);
      setError(errorMessage(e));
    }
  };
  const addDate = () => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(newDate)) return setError('Choose a date to add.');
    setError(null);
    setDatesOff((d) => [...new Set([...d, newDate])].sort());
    setNewDate('');
  };

  return (
    <>
      <PageHeading title="Working hours" />
      {view.data.usingBusinessHours && (
        <p role="status" className="mb-6 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900" data-testid="business-hours-notice">
          No notary has working hours yet, so bookings follow the business hours ({describeServiceHours(view.data.serviceHours)}). Set working hours for each notary so the schedule and the
          website follow who is working.
        </p>
      )}
      <p className="mb-6 text-slate-700">
        Hours of service on the website: <strong>{view.data.usingBusinessHours ? 'business hours' : describeServiceHours(view.data.serviceHours)}</strong>.
      </p>
      {notaries.length === 0 ? (
        <p className="text-slate-700">No active notaries yet. Invite one on the Staff page.</p>
      ) : (
        <>
          {isAdmin && (
            <div className="mb-6 max-w-sm">
              <Label htmlFor={ids.notary}>Notary</Label>
              <select
                id={ids.notary}
                className="mt-1 block h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-sm"
                value={current?.staffId}
                onChange={(e) => setSelected(e.target.value)}
              >
                {notaries.map((n) => (
                  <option key={n.staffId} value={n.staffId}>
                    {n.name || n.email}
                  </option>
                ))}
              </select>
            </div>
          )}
          {current && (
            <div className="grid gap-6 lg:grid-cols-2">
              <section aria-labelledby="duty-heading" className="rounded-xl border border-slate-200 bg-white p-6">
                <h2 id="duty-heading" className="text-lg font-semibold text-slate-900">
                  Duty
                </h2>
                <div className="mt-3 flex flex-wrap items-center gap-3">
                  <button
                    type="button"
                    role="switch"
                    aria-checked={current.onDuty}
                    onClick={() => void onDuty()}
                    disabled={duty.isPending}
                    className={`inline-flex h-10 items-center rounded-full px-4 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 ${current.onDuty ? 'bg-green-700 text-white' : 'bg-slate-200 text-slate-900'}`}
                  >
                    {current.onDuty ? 'On duty' : 'Off duty'}
                  </button>
                  <span className="text-sm text-slate-700">For on-demand work: press to switch.</span>
                </div>
                <div className="mt-6">
                  <Button variant="outline" onClick={() => setConfirmSick(true)}>
                    Off sick today
                  </Button>
                  <p className="mt-2 text-sm text-slate-700">Takes today off and gives today’s appointments to notaries working then.</p>
                </div>
              </section>

              <section aria-labelledby="week-heading" className="rounded-xl border border-slate-200 bg-white p-6">
                <h2 id="week-heading" className="text-lg font-semibold text-slate-900">
                  Weekly hours
                </h2>
                <p className="mt-1 text-sm text-slate-700">
                  In {own ? 'your' : 'their'} time zone: {current.timeZone.replaceAll('_', ' ')}. An end of 12:00 AM is midnight.
                </p>
                <table className="mt-4 w-full text-sm">
                  <thead>
                    <tr className="text-left text-slate-700">
                      <th scope="col" className="py-1 font-medium">Day</th>
                      <th scope="col" className="py-1 font-medium">From</th>
                      <th scope="col" className="py-1 font-medium">To</th>
                    </tr>
                  </thead>
                  <tbody>
                    {dayOrder.map((day) => {
                      const row = rows[day]!;
                      const set = (patch: Partial<DayRow>) => setRows((all) => all.map((r, i) => (i === day ? { ...r, ...patch } : r)));
                      return (
                        <tr key={day}>
                          <td className="py-1 pr-2">
                            <label className="inline-flex items-center gap-2">
                              <input type="checkbox" checked={row.works} onChange={(e) => set({ works: e.target.checked })} className="h-4 w-4" />
                              {weekdays[day]}
                            </label>
                          </td>
                          <td className="py-1 pr-2">
                            <Input type="time" step={1800} aria-label={`${weekdays[day]} from`} value={row.from} disabled={!row.works} onChange={(e) => set({ from: e.target.value })} />
                          </td>
                          <td className="py-1">
                            <Input type="time" step={1800} aria-label={`${weekdays[day]} to`} value={row.to} disabled={!row.works} onChange={(e) => set({ to: e.target.value })} />
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>

                <h3 className="mt-6 font-semibold text-slate-900">Dates off</h3>
                {datesOff.length === 0 ? (
                  <p className="mt-1 text-sm text-slate-700">No dates off.</p>
                ) : (
                  <ul className="mt-2 grid gap-1">
                    {datesOff.map((date) => (
                      <li key={date} className="flex items-center gap-3 text-sm">
                        <span>{date}</span>
                        <Button variant="outline" size="sm" onClick={() => setDatesOff((d) => d.filter((x) => x !== date))} aria-label={`Remove ${date}`}>
                          Remove
                        </Button>
                      </li>
                    ))}
                  </ul>
                )}
                <div className="mt-3 flex flex-wrap items-end gap-2">
                  <div>
                    <Label htmlFor={ids.date}>Add a date off</Label>
                    <Input id={ids.date} type="date" value={newDate} onChange={(e) => setNewDate(e.target.value)} className="mt-1" />
                  </div>
                  <Button variant="outline" onClick={addDate}>
                    Add
                  </Button>
                </div>
                <FormMessage message={error} className="mt-4" />
                <Button className="mt-6" onClick={() => void onSave()} disabled={save.isPending}>
                  Save working hours
                </Button>
              </section>
            </div>
          )}
          <ConfirmDialog
            open={confirmSick}
            onOpenChange={setConfirmSick}
            title="Off sick today?"
            description={`Today becomes a date off for ${own ? 'you' : current?.name || 'this notary'}, and today’s appointments go to notaries working at those times. Any nobody can take are left for the office.`}
            confirmLabel="Take today off"
            busyLabel="Reassigning…"
            busy={sick.isPending}
            destructive
            onConfirm={() => void onSick()}
          />
        </>
      )}
    </>
  );
}

