import { Video } from 'lucide-react';
import { participantMessages, participantRoleLabels } from '../../../shared/participants.ts';
import { sessionMessages } from '../../../shared/session.ts';
import { formatInZone } from '../../../shared/time.ts';
import { Button } from '../../components/ui/button.tsx';
import { SectionCard } from '../../components/ui/section-card.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { trpc } from '../../lib/trpc.ts';
import { IdentitySection } from '../notarial-act/identity-section.tsx';
import { KbaSection } from '../notarial-act/kba-section.tsx';

/**
 * A co-signer's or witness's own page (issue 29): the appointment, their role,
 * their own identity proofing (credential analysis and the identity questions;
 * the same sections as the customer's, answering for this link's person only)
 * and, from 10 minutes before the start, the session (its device check first).
 */
export function InvitationPage({ token }: { token: string }) {
  const query = trpc.participants.invitation.useQuery({ token }, { retry: false });
  if (query.isPending) return <p className="text-slate-700">Loading your invitation…</p>;
  if (query.error || !query.data) {
    return (
      <p role="alert" className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950">
        {query.error ? errorMessage(query.error) : participantMessages.notFound}
      </p>
    );
  }
  const view = query.data;
  const when = view.startsAt ? formatInZone(view.startsAt, view.timeZone).full : 'To be arranged';
  return (
    <div className="grid gap-6">
      <SectionCard title="Your appointment">
        <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-[max-content_1fr]">
          <dt className="font-medium text-slate-600">Reference</dt>
          <dd className="text-slate-900">{view.reference}</dd>
          <dt className="font-medium text-slate-600">Date and time</dt>
          <dd className="text-slate-900">{when}</dd>
          <dt className="font-medium text-slate-600">Your role</dt>
          <dd className="text-slate-900" data-testid="participant-role">{participantRoleLabels[view.role]}</dd>
          <dt className="font-medium text-slate-600">Invited by</dt>
          <dd className="text-slate-900">{view.invitedBy}</dd>
        </dl>
        {view.sessionOpensAt && (
          <div className="mt-5 rounded-lg border border-blue-200 bg-blue-50 p-4">
            <p className="text-slate-800">The notary meets everyone by secure video. Have your photo ID ready.</p>
            <div className="mt-3">
              {view.canJoinSession ? (
                <Button asChild>
                  <a href={`/invitation/${encodeURIComponent(token)}/session`}>
                    <Video className="h-4 w-4" aria-hidden="true" />
                    Join video session
                  </a>
                </Button>
              ) : (
                <p className="text-sm text-slate-700">{sessionMessages.notOpenYet}</p>
              )}
            </div>
          </div>
        )}
      </SectionCard>
      <IdentitySection token={token} />
      <KbaSection token={token} />
    </div>
  );
}
