import { kbaLabels } from '../../../shared/kba.ts';
import type { NotaryIdentityView } from '../../../shared/notarial-act.ts';

/**
 * Identity proofing per signer, as the notary reads it (the room's Identity tab
 * and the appointment page): credential analysis, the identity questions (KBA)
 * and the notary's own visual confirmation.
 */
const typeLabels: Record<string, string> = { driving_license: 'Driver’s license', passport: 'Passport', id_card: 'State ID card' };
const kbaStatusLabels: Record<NotaryIdentityView['kba']['status'], string> = {
  not_started: 'Not started',
  in_progress: 'Quiz under way',
  passed: kbaLabels.passed,
  failed: kbaLabels.notPassed,
  locked: `${kbaLabels.notPassed} — locked out for 24 hours`,
  stale: 'Passed too long before the session: the signer must answer again',
};

function Row({ label, value, ok }: { label: string; value: string; ok?: boolean | null }) {
  return (
    <>
      <dt className="font-medium text-slate-600">{label}</dt>
      <dd className={`min-w-0 break-words ${ok === false ? 'font-semibold text-red-700' : 'text-slate-900'}`}>{value}</dd>
    </>
  );
}

const when = (d: Date | null) => (d ? new Date(d).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' }) : '');

export function IdentityFacts({ view }: { view: NotaryIdentityView }) {
  const latest = view.latest;
  const kba = view.kba;
  const expired = !!latest?.expiresOn && latest.expiresOn < new Date().toISOString().slice(0, 10);
  return (
    <div className="grid gap-3 text-sm">
      <h3 className="font-semibold text-slate-900">Credential analysis</h3>
      {latest ? (
        <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-1">
          <Row label="Result" value={`${latest.status}${latest.failureMessage ? ` — ${latest.failureMessage}` : ''} (attempt ${view.attemptsUsed} of 3, ${latest.provider === 'test' ? 'TEST MODE provider' : 'Stripe Identity'})`} ok={latest.status === 'verified'} />
          <Row label="Booking name" value={view.bookingName} />
          <Row label="Name on ID" value={`${latest.nameOnId ?? '—'}${latest.nameOnId ? (latest.nameMatchesBooking ? ' (matches)' : ' (does not match the booking)') : ''}`} ok={latest.nameOnId ? latest.nameMatchesBooking : null} />
          <Row label="Document" value={latest.documentType ? (typeLabels[latest.documentType] ?? latest.documentType) : '—'} />
          <Row label="Issuing state" value={latest.issuingState ?? '—'} />
          <Row label="Number ends" value={latest.documentNumberLast4 ?? '—'} />
          <Row label="Expires" value={`${latest.expiresOn ?? '—'}${expired ? ' (expired)' : ''}`} ok={expired ? false : null} />
          <Row label="Selfie match" value={latest.selfieMatch === null ? '—' : latest.selfieMatch ? 'Yes' : 'No'} ok={latest.selfieMatch} />
        </dl>
      ) : (
        <p className="text-slate-700">The signer has not started identity verification.</p>
      )}
      <h3 className="font-semibold text-slate-900">Identity questions (KBA)</h3>
      <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-1" data-testid="kba-result">
        <Row label="Result" value={kbaStatusLabels[kba.status]} ok={kba.status === 'passed' ? true : kba.status === 'not_started' || kba.status === 'in_progress' ? null : false} />
        {kba.passedOnAttempt !== null && <Row label="Passed on" value={`attempt ${kba.passedOnAttempt}, ${when(kba.passedAt)}`} />}
        {kba.providerReference && <Row label="Provider reference" value={`${kba.providerReference} (${kba.provider === 'test' ? 'TEST MODE provider' : 'IDology ExpectID IQ'})`} />}
      </dl>
      <h3 className="font-semibold text-slate-900">Notary’s visual confirmation</h3>
      <p className={latest?.confirmedAt ? 'text-slate-900' : 'text-slate-700'} data-testid="visual-confirmation">
        {latest?.confirmedAt ? `Confirmed ${when(latest.confirmedAt)}: the ID matches the person on camera.` : 'Not yet confirmed (in the session room, with the signer on camera).'}
      </p>
    </div>
  );
}
