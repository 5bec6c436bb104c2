import { useMemo } from 'react';
import { useParams } from 'react-router-dom';
import { SessionRoom } from '../features/session-room/session-room.tsx';
import type { RouteHandle } from '../lib/meta.ts';
import { TrpcProvider } from '../lib/trpc-provider.tsx';
import { useHydrated } from '../features/session-room/use-hydrated.ts';

export const handle: RouteHandle = {
  // The token never goes into the canonical URL, and the page is never indexed.
  meta: () => ({ title: 'Video Session', description: 'Your online notary video session.', path: '/booking', noindex: true }),
};

/** /booking/:token/session — the customer's side of the session room (the manage token is the key). */
export function Component() {
  const { token = '' } = useParams();
  const access = useMemo(() => ({ token }), [token]);
  const hydrated = useHydrated();
  return (
    <main id="main" className="mx-auto w-full max-w-6xl px-4 py-8 md:py-12">
      <h1 className="mb-6 text-3xl font-bold text-slate-900">Video Session</h1>
      {/* Camera, microphone and WebRTC exist only in the browser. */}
      {hydrated ? (
        <TrpcProvider>
          <SessionRoom access={access} role="customer" backHref={`/booking/${encodeURIComponent(token)}`} backLabel="Back to your booking" />
        </TrpcProvider>
      ) : (
        <p className="text-slate-700">Loading your session…</p>
      )}
    </main>
  );
}
