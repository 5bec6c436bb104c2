import { useId, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { trpc } from '../../lib/trpc.ts';
import { formatInZone } from '../../../shared/time.ts';
import { errorMessage } from '../../lib/errors.ts';

/** Staff move a booking for a customer: a day, then a free time, shown in the customer's zone. */
export function StaffReschedule({ bookingId, customerTimeZone, startsAt, onMoved }: { bookingId: string; customerTimeZone: string; startsAt: Date | null; onMoved: () => Promise<unknown> }) {
  const id = useId();
  const [date, setDate] = useState('');
  const [chosen, setChosen] = useState<Date | null>(null);
  const slots = trpc.slots.list.useQuery({ date, timeZone: customerTimeZone }, { enabled: date !== '' });
  const reschedule = trpc.console.bookings.reschedule.useMutation();
  const choices = (slots.data?.slots ?? []).filter((s) => s.available && s.startsAt.getTime() !== startsAt?.getTime());

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
          <legend className="mb-1 text-sm font-medium text-slate-800">Free times</legend>
          {slots.isLoading ? (
            <p className="text-sm text-slate-700">Loading available times…</p>
          ) : choices.length === 0 ? (
            <p className="text-sm text-slate-700">No free times on this date.</p>
          ) : (
            <div className="grid max-h-60 grid-cols-3 gap-2 overflow-y-auto sm:grid-cols-4">
              {choices.map((slot) => {
                const selected = chosen?.getTime() === slot.startsAt.getTime();
                return (
                  <Button key={slot.startsAt.toISOString()} type="button" size="sm" variant={selected ? 'default' : 'outline'} aria-pressed={selected} onClick={() => setChosen(slot.startsAt)}>
                    {formatInZone(slot.startsAt, customerTimeZone).time}
                  </Button>
                );
              })}
            </div>
          )}
        </fieldset>
      )}
      <Button type="button" disabled={!chosen || reschedule.isPending} onClick={() => void submit()} className="justify-self-start">
        Move booking and email the customer
      </Button>
    </div>
  );
}
