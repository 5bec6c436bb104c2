import { useId, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { trpc } from '../../lib/trpc.ts';
import { formatInZone, zoneAbbreviation } from '../../../shared/time.ts';
import { errorMessage } from '../../lib/errors.ts';
import { staffZone, useStaff } from './use-staff.tsx';

/** '2:00 PM PST': a time always with its zone (docs/product.md §4.3). */
const timeWithZone = (instant: Date, zone: string) => `${formatInZone(instant, zone).time} ${zoneAbbreviation(instant, zone)}`;

/**
 * Staff move a booking for a customer: a day in the customer's zone, then a
 * free time (shown in the customer's zone and the staff member's), then a
 * confirmation naming the old and new time — as the customer's own reschedule
 * does — before anything changes or the customer is emailed.
 */
export function StaffReschedule({ bookingId, customerTimeZone, startsAt, onMoved }: { bookingId: string; customerTimeZone: string; startsAt: Date | null; onMoved: () => Promise<unknown> }) {
  const id = useId();
  const { staff } = useStaff();
  const ownZone = staffZone(staff);
  const sameZone = ownZone === customerTimeZone;
  const [date, setDate] = useState('');
  const [chosen, setChosen] = useState<Date | null>(null);
  const [confirming, setConfirming] = useState(false);
  const slots = trpc.slots.list.useQuery({ date, timeZone: customerTimeZone }, { enabled: date !== '' });
  const reschedule = trpc.console.bookings.reschedule.useMutation();
  const choices = (slots.data?.slots ?? []).filter((s) => s.available && s.startsAt.getTime() !== startsAt?.getTime());

  /** Both zones when they differ: 'January 5, 2027 at 2:00 PM (Pacific Standard Time) — 4:00 PM CST for you'. */
  const describe = (instant: Date) => `${formatInZone(instant, customerTimeZone).full}${sameZone ? '' : ` — ${timeWithZone(instant, ownZone)} for you`}`;

  const submit = async () => {
    if (!chosen) return;
    try {
      await reschedule.mutateAsync({ bookingId, startsAt: chosen });
      toast({ title: 'Booking moved', description: `New time: ${formatInZone(chosen, customerTimeZone).full}. The customer has been emailed.`, variant: 'success' });
      setChosen(null);
      setDate('');
      await onMoved();
    } catch (e) {
      toast({ title: 'Could not move the booking', description: errorMessage(e), variant: 'destructive' });
      void slots.refetch();
    } finally {
      setConfirming(false);
    }
  };

  return (
    <div className="grid gap-3">
      <div className="grid max-w-xs gap-1.5">
        <Label htmlFor={`${id}-date`}>New date (customer’s time zone: {customerTimeZone.replaceAll('_', ' ')})</Label>
        <Input id={`${id}-date`} type="date" value={date} onChange={(e) => { setDate(e.target.value); setChosen(null); }} />
      </div>
      {date !== '' && (
        <fieldset className="grid gap-2">
          <legend className="mb-1 text-sm font-medium text-slate-800">
            Free times, customer’s time{sameZone ? '' : ' (yours below each)'}
          </legend>
          {slots.isLoading ? (
            <p className="text-sm text-slate-700">Loading available times…</p>
          ) : choices.length === 0 ? (
            <p className="text-sm text-slate-700">No free times on this date.</p>
          ) : (
            <div className="grid max-h-60 grid-cols-2 gap-2 overflow-y-auto sm:grid-cols-4">
              {choices.map((slot) => {
                const selected = chosen?.getTime() === slot.startsAt.getTime();
                return (
                  <Button
                    key={slot.startsAt.toISOString()}
                    type="button"
                    size="sm"
                    variant={selected ? 'default' : 'outline'}
                    aria-pressed={selected}
                    onClick={() => setChosen(slot.startsAt)}
                    className="h-auto flex-col gap-0 py-1.5"
                  >
                    <span>{timeWithZone(slot.startsAt, customerTimeZone)}</span>
                    {!sameZone && <span className="text-xs font-normal">{timeWithZone(slot.startsAt, ownZone)} for you</span>}
                  </Button>
                );
              })}
            </div>
          )}
        </fieldset>
      )}
      <Button type="button" disabled={!chosen || reschedule.isPending} onClick={() => setConfirming(true)} className="justify-self-start">
        Move booking…
      </Button>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Move this appointment?"
        description={
          <>
            <p>
              From <strong>{startsAt ? describe(startsAt) : 'no time set'}</strong>
            </p>
            <p>
              To <strong>{chosen ? describe(chosen) : '—'}</strong>
            </p>
            <p>The customer is emailed the new time with an updated calendar entry.</p>
          </>
        }
        confirmLabel="Move appointment"
        cancelLabel="Keep the current time"
        busyLabel="Moving…"
        busy={reschedule.isPending}
        onConfirm={() => void submit()}
      />
    </div>
  );
}
