import { Zap } from 'lucide-react';
import type { BookingView } from '../../../shared/booking.ts';
import { onDemandMessages } from '../../../shared/on-demand.ts';
import { formatInZone } from '../../../shared/time.ts';
import { Button } from '../../components/ui/button.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { trpc } from '../../lib/trpc.ts';

/** How often the offer re-reads who is on duty while the visitor looks at it. */
const availabilityRefreshMs = 15_000;

/**
 * "Notarize now" beside the scheduled times (issue 28, decision 110): live
 * availability from the on-duty notaries; when nobody is on duty it says so
 * and names the next scheduled time, and the button is not offered — nobody
 * pays to wait for no one (the server checks again at payment).
 */
export function NotarizeNow({ booking, timeZone, onChosen }: { booking: BookingView; timeZone: string; onChosen: () => Promise<void> }) {
  const availability = trpc.onDemand.availability.useQuery(undefined, { refetchInterval: availabilityRefreshMs });
  const choose = trpc.onDemand.choose.useMutation();
  const utils = trpc.useUtils();

  async function start() {
    try {
      const view = await choose.mutateAsync({ bookingId: booking.id });
      utils.booking.get.setData({ bookingId: booking.id }, view);
      await onChosen();
    } catch (error) {
      toast({ title: errorMessage(error), variant: 'destructive' });
      await availability.refetch();
    }
  }

  if (!availability.data) return null;
  const { availableNow, onDuty, nextScheduled } = availability.data;
  return (
    <section aria-labelledby="notarize-now-heading" className="rounded-xl border border-blue-200 bg-blue-50 p-5 text-blue-950" data-testid="notarize-now">
      <h3 id="notarize-now-heading" className="flex items-center gap-2 text-lg font-semibold">
        <Zap className="h-5 w-5 text-blue-700" aria-hidden="true" />
        {onDemandMessages.notarizeNow}
      </h3>
      {onDuty > 0 ? (
        <>
          <p className="mt-1" role="status" data-testid="on-demand-status">
            {availableNow > 0 ? `${onDemandMessages.availableNow}: ${availableNow}` : 'All notaries on duty are in a session: you will wait in line for the next one.'}
          </p>
          <p className="mt-1 text-sm">Pay, then wait in our online lobby, verifying your identity meanwhile: the next notary on duty joins you by video. No appointment needed.</p>
          <Button className="mt-3" size="lg" onClick={() => void start()} disabled={choose.isPending}>
            {choose.isPending ? 'Please wait...' : onDemandMessages.notarizeNow}
          </Button>
        </>
      ) : (
        <div role="status" data-testid="on-demand-status">
          <p className="mt-1 font-medium">{onDemandMessages.nobodyOnDuty}</p>
          <p className="mt-1 text-sm">
            {nextScheduled ? `${onDemandMessages.nextAvailable(formatInZone(nextScheduled, timeZone).full)}. ` : ''}
            {onDemandMessages.nobodyOnDutyOffer}
          </p>
        </div>
      )}
    </section>
  );
}
