import { BellRing } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { onDemandMessages, waitingIdentityLabel } from '../../../shared/on-demand.ts';
import { Button } from '../../components/ui/button.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { trpc } from '../../lib/trpc.ts';
import { beep } from './console-chat.tsx';

/** How often an on-duty notary's console asks for the line. */
const waitingPollMs = 5_000;

const waitedFor = (ms: number) => {
  const minutes = Math.floor(ms / 60_000);
  return minutes < 1 ? 'less than a minute' : `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
};

/**
 * Notarize now for notaries (issue 28, decision 110), on every console page:
 * the customers in line with a badge, a chime and (with permission) a browser
 * notification when one joins, where each stands with proving who they are
 * (ID, identity questions: the lobby offers both while they wait), and
 * Accept, which takes the next customer (oldest first; the server decides,
 * across nodes) and opens the room.
 * Shown to a notary on duty, or whenever someone is waiting.
 */
export function WaitingCustomers() {
  const waiting = trpc.console.onDemand.waiting.useQuery(undefined, { refetchInterval: waitingPollMs });
  const accept = trpc.console.onDemand.accept.useMutation();
  const [error, setError] = useState<string | null>(null);
  const [permission, setPermission] = useState<NotificationPermission | 'unsupported'>('unsupported');
  const count = waiting.data?.waiting.length ?? 0;
  const previous = useRef(0);

  useEffect(() => setPermission('Notification' in window ? Notification.permission : 'unsupported'), []);
  useEffect(() => {
    const grew = count > previous.current;
    previous.current = count;
    if (!grew || !waiting.data?.onDuty) return;
    beep();
    if ('Notification' in window && Notification.permission === 'granted' && document.visibilityState === 'hidden') {
      new Notification(onDemandMessages.waitingCustomers, { body: `${count} waiting for a notary`, tag: 'notary-on-demand' });
    }
  }, [count, waiting.data?.onDuty]);

  if (!waiting.data || (!waiting.data.onDuty && count === 0)) return null;

  async function takeNext() {
    setError(null);
    try {
      const { bookingId } = await accept.mutateAsync();
      if (bookingId) window.location.assign(`/admin/appointments/${bookingId}/session`);
      else {
        setError('Another notary took that customer. Nobody else is waiting.');
        await waiting.refetch();
      }
    } catch (e) {
      setError(errorMessage(e));
    }
  }

  return (
    <section aria-labelledby="waiting-customers-heading" className="mb-6 rounded-xl border border-blue-200 bg-white p-4" data-testid="waiting-customers">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="waiting-customers-heading" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
          {onDemandMessages.waitingCustomers}
          <span className="rounded-full bg-blue-700 px-2 py-0.5 text-xs font-semibold text-white" data-testid="waiting-count">
            {count}
            <span className="sr-only"> waiting</span>
          </span>
        </h2>
        {waiting.data.onDuty ? (
          <Button onClick={() => void takeNext()} disabled={count === 0 || accept.isPending}>
            {onDemandMessages.accept}
          </Button>
        ) : (
          <p className="text-sm text-slate-700">{onDemandMessages.offDutyCannotAccept}</p>
        )}
        {permission === 'default' && (
          <Button variant="outline" size="sm" onClick={() => void Notification.requestPermission().then(setPermission, () => undefined)}>
            <BellRing className="h-4 w-4" aria-hidden="true" />
            Notify me
          </Button>
        )}
      </div>
      {count === 0 ? (
        <p className="mt-2 text-sm text-slate-700">{onDemandMessages.nobodyWaiting}</p>
      ) : (
        <ol className="mt-2 grid gap-1 text-sm text-slate-800">
          {waiting.data.waiting.map((w) => (
            <li key={w.reference}>
              <span className="font-mono">{w.reference}</span> · waiting {waitedFor(w.waitingSinceMs)} · <span data-testid="waiting-identity">{waitingIdentityLabel(w.identity)}</span>
            </li>
          ))}
        </ol>
      )}
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-800">
          {error}
        </p>
      )}
    </section>
  );
}
