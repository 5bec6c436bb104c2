import { useEffect, useState } from 'react';
import { lobbyPollMs, onDemandMessages, type LobbyView } from '../../../shared/on-demand.ts';
import { Button } from '../../components/ui/button.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { trpc } from '../../lib/trpc.ts';
import { DeviceCheck, type DeviceChoice } from './device-check.tsx';
import { IdentitySection } from '../notarial-act/identity-section.tsx';
import { KbaSection } from '../notarial-act/kba-section.tsx';

/**
 * Notarize now's waiting room (issue 28, decision 110): the customer's place
 * in line and the estimated wait, refreshed every few seconds (each refresh is
 * the heartbeat that keeps the place: a closed tab keeps it for two minutes),
 * identity proofing (the ID check and the identity questions, as on the
 * booking page) and the device check meanwhile, so the notary who accepts
 * finds them done (a timed quiz under way is finished before the room opens),
 * and — when nobody accepted in time — the choice of a scheduled time or a
 * full refund.
 */
export function Lobby({
  token,
  choice,
  onChoice,
  onAccepted,
  manageHref,
}: {
  token: string;
  choice: DeviceChoice | null;
  onChoice: (choice: DeviceChoice) => void;
  onAccepted: () => void;
  manageHref: string;
}) {
  const poll = trpc.onDemand.lobby.useMutation();
  // A quiz under way is timed: a notary's Accept waits for it to be submitted instead of cutting it off.
  const quizUnderWay = trpc.manageAct.kba.useQuery({ token }, { retry: false }).data?.status === 'in_progress';
  const refund = trpc.onDemand.refund.useMutation();
  const [view, setView] = useState<LobbyView | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let stopped = false;
    const beat = () =>
      poll
        .mutateAsync({ token })
        .then((next) => {
          if (stopped) return;
          setView(next);
          setError(null);
        })
        .catch((e: unknown) => !stopped && setError(errorMessage(e)));
    void beat();
    const timer = setInterval(() => void beat(), lobbyPollMs);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
    // One loop per page: `poll` and `onAccepted` are stable enough for a heartbeat.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token]);

  const accepted = view?.state === 'accepted';
  useEffect(() => {
    if (accepted && !quizUnderWay) onAccepted();
    // `onAccepted` is the page's refetch: called once the call is accepted and no quiz is under way.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [accepted, quizUnderWay]);

  if (view?.state === 'timed_out') {
    return (
      <div role="alert" className="rounded-xl border border-amber-300 bg-amber-50 p-6 text-amber-950" data-testid="lobby-timed-out">
        <p className="font-semibold">{view.refunded ? onDemandMessages.refunded : onDemandMessages.timedOut}</p>
        {!view.refunded && (
          <>
            <p className="mt-1">{onDemandMessages.timedOutOffer}</p>
            <div className="mt-4 flex flex-wrap gap-3">
              <Button asChild>
                <a href={manageHref}>{onDemandMessages.chooseScheduled}</a>
              </Button>
              <Button variant="outline" disabled={refund.isPending} onClick={() => void refund.mutateAsync({ token }).then(setView, (e: unknown) => setError(errorMessage(e)))}>
                {onDemandMessages.fullRefund}
              </Button>
            </div>
          </>
        )}
        {view.refunded && (
          <p className="mt-2">
            <a className="font-semibold text-blue-700 underline" href={manageHref}>
              Back to your booking
            </a>
          </p>
        )}
        {error && <p className="mt-2 text-red-800">{error}</p>}
      </div>
    );
  }

  return (
    <div className="grid gap-4">
      <section aria-labelledby="lobby-heading" className="rounded-xl border border-blue-200 bg-blue-50 p-5 text-blue-950" data-testid="lobby">
        <h2 id="lobby-heading" className="text-xl font-semibold">
          {onDemandMessages.lobbyHeading}
        </h2>
        <p className="mt-1">{onDemandMessages.lobbyIntro}</p>
        <div role="status" aria-live="polite" className="mt-3 grid gap-1 text-lg font-semibold">
          {view?.state === 'waiting' ? (
            <>
              <p data-testid="lobby-position">{onDemandMessages.positionInLine(view.position)}</p>
              <p data-testid="lobby-estimate">{onDemandMessages.estimatedWait(view.estimatedMinutes)}</p>
            </>
          ) : accepted ? (
            <p>{quizUnderWay ? onDemandMessages.acceptedFinishQuiz : onDemandMessages.accepted}</p>
          ) : view?.state === 'closed' ? (
            <p>{onDemandMessages.notInLine}</p>
          ) : (
            <p>Joining the line…</p>
          )}
        </div>
        {error && <p className="mt-2 text-red-800">{error}</p>}
      </section>
      {(view?.state === 'waiting' || (accepted && quizUnderWay)) && (
        <>
          <IdentitySection token={token} />
          <KbaSection token={token} />
        </>
      )}
      {choice ? (
        <p className="rounded-lg bg-green-50 p-3 text-green-950">Your camera and microphone are ready. You join the session as soon as a notary accepts.</p>
      ) : (
        <DeviceCheck joinLabel="I'm ready" onJoin={onChoice} />
      )}
    </div>
  );
}
