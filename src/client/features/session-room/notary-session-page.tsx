import { useEffect, useMemo } from 'react';
import { trpc } from '../../lib/trpc.ts';
import { useParams } from 'react-router-dom';
import { PageHeading } from '../admin/page-heading.tsx';
import { SessionRoom } from './session-room.tsx';

/** /admin/appointments/:bookingId/session — the assigned notary's side of the room. */
export function NotarySessionPage() {
  const { bookingId = '' } = useParams();
  const access = useMemo(() => ({ bookingId }), [bookingId]);
  useOnDemandHeartbeat(bookingId);
  return (
    <>
      <PageHeading title="Video session" />
      <SessionRoom access={access} role="notary" backHref={`/admin/appointments/${bookingId}`} backLabel="Back to the appointment" />
    </>
  );
}

/**
 * An accepted Notarize now call stays this notary's while this page is open:
 * a notary silent for a minute before the session starts has dropped, and the
 * customer goes back to the front of the line (decision 110). Harmless for a
 * scheduled booking (the server changes nothing).
 */
function useOnDemandHeartbeat(bookingId: string) {
  const heartbeat = trpc.console.onDemand.heartbeat.useMutation();
  const { mutate } = heartbeat;
  useEffect(() => {
    const beat = () => mutate({ bookingId });
    beat();
    const timer = setInterval(beat, 15_000);
    return () => clearInterval(timer);
  }, [bookingId, mutate]);
}
