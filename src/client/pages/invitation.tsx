import { useMemo } from 'react';
import { useParams } from 'react-router-dom';
import { InvitationPage } from '../features/participants/invitation-page.tsx';
import { SessionRoom } from '../features/session-room/session-room.tsx';
import { useHydrated } from '../features/session-room/use-hydrated.ts';
import type { RouteHandle } from '../lib/meta.ts';
import { TrpcProvider } from '../lib/trpc-provider.tsx';

export const handle: RouteHandle = {
  // The token never goes into the canonical URL, and the page is never indexed.
  meta: () => ({ title: 'Your Invitation', description: 'Your invitation to an online notary session.', path: '/invitation', noindex: true }),
};

/**
 * /invitation/:token — a co-signer's or witness's own page (identity proofing,
 * then the session), and /invitation/:token/session — their side of the room.
 * One route (one entry in routes.tsx) for both: the first-load budget.
 */
export function Component() {
  const { token = '', '*': rest = '' } = useParams();
  const access = useMemo(() => ({ token }), [token]);
  const hydrated = useHydrated();
  const inRoom = rest.replace(/\/$/, '') === 'session';
  return (
    <main id="main" className={`mx-auto w-full px-4 py-8 md:py-12 ${inRoom ? 'max-w-6xl' : 'max-w-3xl'}`}>
      <h1 className="mb-6 text-3xl font-bold text-slate-900">{inRoom ? 'Video Session' : 'Your Invitation'}</h1>
      {inRoom && !hydrated ? (
        <p className="text-slate-700">Loading your session…</p>
      ) : (
        <TrpcProvider>
          {inRoom ? (
            <SessionRoom access={access} role="participant" backHref={`/invitation/${encodeURIComponent(token)}`} backLabel="Back to your invitation" />
          ) : (
            <InvitationPage token={token} />
          )}
        </TrpcProvider>
      )}
    </main>
  );
}
