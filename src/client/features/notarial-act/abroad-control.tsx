import type { ActView } from '../../../shared/notarial-act.ts';
import { actTexts } from '../../../shared/act-stages.ts';
import { Button } from '../../components/ui/button.tsx';
import { trpc } from '../../lib/trpc.ts';
import { useSessionUpdates } from './use-session-updates.ts';

/** The country a signer abroad named, or null for a US location (or none yet). */
export function countryAbroad(location: string | null): string | null {
  const prefix = `${actTexts.outsideUs}: `;
  return location?.startsWith(prefix) ? location.slice(prefix.length) : null;
}

/**
 * A signer outside the US (RULONA's rule for signers abroad, decision 106):
 * the notary sees the country and confirms the statement before the signer
 * may sign. The confirmation (who, when) goes on the act's audit trail and
 * into the journal entry.
 */
export function AbroadControl({ bookingId, view, onView }: { bookingId: string; view: ActView; onView: (view: ActView) => void }) {
  const confirm = trpc.act.confirmAbroad.useMutation({ onSuccess: onView });
  const country = countryAbroad(view.signerLocation);
  if (!country || !view.consentGiven) return null;
  if (view.abroadConfirmed) return <p role="status" className="text-slate-800">The signer is in {country}: you confirmed the act is allowed for a signer abroad.</p>;
  return (
    <section aria-labelledby="abroad-heading" className="grid gap-2 rounded-md border border-amber-300 bg-amber-50 p-3">
      <h3 id="abroad-heading" className="font-semibold text-slate-900">
        The signer is outside the United States: {country}
      </h3>
      <p className="text-slate-800">{actTexts.abroadStatement}</p>
      <Button type="button" className="justify-self-start" disabled={confirm.isPending} onClick={() => confirm.mutate({ bookingId })}>
        {actTexts.confirmAbroad}
      </Button>
      {confirm.error && <p role="alert" className="text-red-700">{confirm.error.message}</p>}
    </section>
  );
}

/**
 * Each co-signer or witness abroad, by their own answer (decision 106): the
 * notary confirms each one as for the customer; sealing waits for every one.
 */
export function ParticipantsAbroad({ bookingId }: { bookingId: string }) {
  const utils = trpc.useUtils();
  const query = trpc.act.signersAbroad.useQuery({ bookingId }, { retry: false });
  useSessionUpdates(utils.act.signersAbroad, { bookingId });
  const confirm = trpc.act.confirmAbroad.useMutation({ onSuccess: () => void utils.act.signersAbroad.invalidate({ bookingId }) });
  return (query.data ?? []).map((signer) =>
    signer.confirmed ? (
      <p key={signer.participantId} role="status" className="text-slate-800">
        {signer.name} is in {signer.country}: you confirmed the act is allowed for a signer abroad.
      </p>
    ) : (
      <section key={signer.participantId} aria-labelledby={`abroad-${signer.participantId}`} className="grid gap-2 rounded-md border border-amber-300 bg-amber-50 p-3">
        <h3 id={`abroad-${signer.participantId}`} className="font-semibold text-slate-900">
          {signer.name} is outside the United States: {signer.country}
        </h3>
        <p className="text-slate-800">{actTexts.abroadStatement}</p>
        <Button type="button" className="justify-self-start" disabled={confirm.isPending} onClick={() => confirm.mutate({ bookingId, participantId: signer.participantId })}>
          {actTexts.confirmAbroad}
          <span className="sr-only"> for {signer.name}</span>
        </Button>
        {confirm.error && confirm.variables?.participantId === signer.participantId && <p role="alert" className="text-red-700">{confirm.error.message}</p>}
      </section>
    ),
  );
}

/** What the signer abroad reads while the notary has not confirmed. */
export function AbroadWaiting({ view }: { view: ActView }) {
  if (!countryAbroad(view.signerLocation) || !view.consentGiven || view.abroadConfirmed) return null;
  return <p role="status" className="text-sm text-slate-800">{actTexts.abroadWaiting}</p>;
}
