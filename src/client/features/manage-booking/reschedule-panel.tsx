import { useId, useMemo, useState } from 'react';
import { formatInZone } from '../../../shared/time.ts';
import { isBeforeCutoff, manageMessages, type ManageBookingView } from '../../../shared/manage-booking.ts';
import { localDateOf } from '../../../shared/time.ts';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { usePublicConfig } from '../../lib/public-config.tsx';
import { trpc } from '../../lib/trpc.ts';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { errorMessage } from '../../lib/errors.ts';

/** Pick a day, then a free time more than 24 hours ahead; confirm; nothing more to pay. */
export function ReschedulePanel({ token, booking, onChanged }: { token: string; booking: ManageBookingView; onChanged: (view: ManageBookingView) => void }) {
  const id = useId();
  const { bookingWindowDays } = usePublicConfig();
  const zone = booking.timeZone;
  const [now] = useState(() => new Date());
  const minDate = localDateOf(new Date(now.getTime() + 24 * 3600_000), zone);
  const maxDate = localDateOf(new Date(now.getTime() + bookingWindowDays * 24 * 3600_000), zone);
  const [date, setDate] = useState('');
  const [chosen, setChosen] = useState<Date | null>(null);
  const [confirming, setConfirming] = useState(false);

  const slots = trpc.slots.list.useQuery({ date, timeZone: zone }, { enabled: date !== '' });
  const choices = useMemo(
    () =>
      (slots.data?.slots ?? []).filter(
        (s) => s.available && isBeforeCutoff(s.startsAt, new Date()) && s.startsAt.getTime() !== booking.startsAt?.getTime(),
      ),
    [slots.data, booking.startsAt],
  );
  const reschedule = trpc.manageBooking.reschedule.useMutation({
    onSuccess(view) {
      setConfirming(false);
      setChosen(null);
      setDate('');
      onChanged(view);
      toast({ title: manageMessages.rescheduled, description: `New time: ${formatInZone(view.startsAt!, zone).full}. A confirmation email is on its way.`, variant: 'success' });
    },
    onError(error) {
      setConfirming(false);
      toast({ title: 'Could not move your appointment', description: errorMessage(error), variant: 'destructive' });
      void slots.refetch();
    },
  });

  return (
    <section aria-labelledby={`${id}-title`} className="grid gap-4">
      <h3 id={`${id}-title`} className="text-base font-semibold text-slate-900">
        Reschedule
      </h3>
      <p className="text-slate-700">Choose any free time more than 24 hours from now. There is nothing more to pay.</p>
      <div className="grid max-w-xs gap-1.5">
        <Label htmlFor={`${id}-date`}>New date</Label>
        <Input
          id={`${id}-date`}
          type="date"
          min={minDate}
          max={maxDate}
          value={date}
          onChange={(e) => {
            setDate(e.target.value);
            setChosen(null);
          }}
        />
      </div>
      {date !== '' && (
        <fieldset className="grid gap-2">
          <legend className="mb-2 text-sm font-medium text-slate-800">Available times ({formatInZone(new Date(`${date}T12:00:00Z`), zone).zone})</legend>
          {slots.isLoading ? (
            <p className="text-slate-600">Loading available times…</p>
          ) : choices.length === 0 ? (
            <p className="text-slate-700">No free times on this date. Please choose another day.</p>
          ) : (
            <div className="grid max-h-72 grid-cols-3 gap-2 overflow-y-auto sm:grid-cols-4">
              {choices.map((slot) => {
                const selected = chosen?.getTime() === slot.startsAt.getTime();
                return (
                  <Button
                    key={slot.startsAt.toISOString()}
                    type="button"
                    variant={selected ? 'default' : 'outline'}
                    size="sm"
                    aria-pressed={selected}
                    onClick={() => setChosen(slot.startsAt)}
                  >
                    {formatInZone(slot.startsAt, zone).time}
                  </Button>
                );
              })}
            </div>
          )}
        </fieldset>
      )}
      <div>
        <Button type="button" disabled={!chosen} onClick={() => setConfirming(true)}>
          Move my appointment
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Move your appointment?"
        description={
          <>
            <p>
              From <strong>{booking.startsAt ? formatInZone(booking.startsAt, zone).full : '—'}</strong>
            </p>
            <p>
              To <strong>{chosen ? formatInZone(chosen, zone).full : '—'}</strong>
            </p>
            <p>There is nothing more to pay. We will email you the new time and an updated calendar entry.</p>
          </>
        }
        confirmLabel="Move appointment"
        busyLabel="Moving..."
        busy={reschedule.isPending}
        onConfirm={() => chosen && reschedule.mutate({ token, startsAt: chosen })}
      />
    </section>
  );
}
