import { BadgeCheck, ShieldAlert } from 'lucide-react';
import { identityMessages } from '../../../shared/notarial-act.ts';
import { Button } from '../../components/ui/button.tsx';
import { trpc } from '../../lib/trpc.ts';
import { IdentityFacts } from './identity-facts.tsx';
import { useSessionUpdates } from './use-session-updates.ts';
import type { RoomTabProps } from '../session-room/room-context.ts';
import { errorMessage } from '../../lib/errors.ts';
import { participantRoleLabels } from '../../../shared/participants.ts';

/**
 * The room's Identity tab. The notary sees what the providers established
 * (credential analysis: name on the ID against the booking, document type,
 * issuing state, expiry, last 4 of the number, selfie match, the photos; the
 * identity questions) and confirms the ID matches the person on camera — the
 * session cannot start before. The customer sees where they stand.
 */

export function IdentityTab({ session, role, access }: RoomTabProps) {
  if (role === 'customer' && 'token' in access) return <CustomerIdentity token={access.token} />;
  return <NotaryIdentity bookingId={session.bookingId} />;
}

function CustomerIdentity({ token }: { token: string }) {
  const query = trpc.manageAct.identity.useQuery({ token }, { retry: false });
  const utils = trpc.useUtils();
  useSessionUpdates(utils.manageAct.identity, { token });
  const view = query.data;
  if (!view) return <p className="text-sm text-slate-700">Loading…</p>;
  if (view.status === 'verified') {
    return (
      <p className="flex items-center gap-2 text-sm font-semibold text-green-800">
        <BadgeCheck className="h-5 w-5" aria-hidden="true" /> {identityMessages.alreadyVerified}
      </p>
    );
  }
  return (
    <div className="grid gap-2 text-sm">
      <p role="status" className="font-semibold text-amber-900">{view.message ?? 'Your identity is not verified yet.'}</p>
      <a className="font-semibold text-blue-700 underline" href={`/booking/${encodeURIComponent(token)}#identity`} target="_blank" rel="noopener noreferrer">
        Verify your identity on your booking page<span className="sr-only"> (opens in a new tab)</span>
      </a>
    </div>
  );
}

function NotaryIdentity({ bookingId }: { bookingId: string }) {
  const utils = trpc.useUtils();
  const query = trpc.act.identity.useQuery({ bookingId }, { retry: false });
  useSessionUpdates(utils.act.identity, { bookingId });
  const confirm = trpc.act.confirmIdentity.useMutation({
    onSuccess: (view) => {
      utils.act.identity.setData({ bookingId }, view);
      void utils.session.get.invalidate();
    },
  });
  const view = query.data;
  if (query.error) return <p role="alert" className="text-sm text-red-700">{errorMessage(query.error)}</p>;
  if (!view) return <p className="text-sm text-slate-700">Loading…</p>;
  const latest = view.latest;
  return (
    <div className="grid gap-3 text-sm">
      {view.startBlocker ? (
        <p role="status" data-testid="identity-blocker" className="flex gap-2 rounded-md border border-amber-300 bg-amber-50 p-2 font-semibold text-amber-950">
          <ShieldAlert className="h-5 w-5 shrink-0" aria-hidden="true" /> {view.startBlocker}
        </p>
      ) : (
        <p role="status" className="flex items-center gap-2 font-semibold text-green-800">
          <BadgeCheck className="h-5 w-5" aria-hidden="true" /> Identity verified and confirmed.
        </p>
      )}
      <IdentityFacts view={view} />
      {latest && latest.imageParts.length > 0 && (
        <div className="grid grid-cols-3 gap-2">
          {latest.imageParts.map((part) => (
            <a key={part} href={`/api/staff/identity/${latest.id}/${part}`} target="_blank" rel="noopener noreferrer" className="block">
              <img src={`/api/staff/identity/${latest.id}/${part}`} alt={`ID ${part}`} className="h-20 w-full rounded border border-slate-200 object-cover" />
            </a>
          ))}
        </div>
      )}
      {latest?.status === 'verified' && !latest.confirmedAt && (
        <Button type="button" className="h-auto min-h-11 w-full whitespace-normal py-2" disabled={confirm.isPending} onClick={() => confirm.mutate({ bookingId, verificationId: latest.id })}>
          Confirm: the ID matches the person on camera
          {view.participants.length > 0 && <span className="sr-only"> ({view.bookingName})</span>}
        </Button>
      )}
      {/* Each co-signer and witness, confirmed on camera as the customer is (decision 123). */}
      {view.participants.map((p) => (
        <section key={p.participantId} aria-label={`Identity of ${p.name}`} className="grid gap-2 border-t border-slate-200 pt-3">
          <h3 className="font-semibold text-slate-900">
            {p.name} <span className="font-normal text-slate-600">({participantRoleLabels[p.role]})</span>
          </h3>
          <p role="status" className={p.blocker ? 'font-semibold text-amber-900' : 'flex items-center gap-2 font-semibold text-green-800'}>
            {p.blocker ?? 'Identity verified and confirmed.'}
          </p>
          <IdentityFacts view={{ ...view, bookingName: p.name, latest: p.latest, kba: p.kba }} />
          {p.latest?.status === 'verified' && !p.latest.confirmedAt && (
            <Button type="button" className="h-auto min-h-11 w-full whitespace-normal py-2" disabled={confirm.isPending} onClick={() => confirm.mutate({ bookingId, verificationId: p.latest!.id })}>
              Confirm: the ID matches {p.name} on camera
            </Button>
          )}
        </section>
      ))}
      {confirm.error && <p role="alert" className="text-red-700">{errorMessage(confirm.error)}</p>}
    </div>
  );
}
