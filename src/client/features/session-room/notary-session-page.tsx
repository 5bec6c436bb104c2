import { useMemo } from 'react';
import { useParams } from 'react-router-dom';
import { PageHeading } from '../admin/page-heading.tsx';
import { SessionRoom } from './session-room.tsx';

/** /admin/appointments/:bookingId/session — the assigned notary's side of the room. */
export function NotarySessionPage() {
  const { bookingId = '' } = useParams();
  const access = useMemo(() => ({ bookingId }), [bookingId]);
  return (
    <>
      <PageHeading title="Video session" />
      <SessionRoom access={access} role="notary" backHref={`/admin/appointments/${bookingId}`} backLabel="Back to the appointment" />
    </>
  );
}
