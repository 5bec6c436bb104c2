import { useState } from 'react';
import { BadgeCheck, Download } from 'lucide-react';
import { actTypeLabels, actTypes, signatureLevelLabels, type ActDocumentView, type ActSigner, type ActType, type ActView } from '../../../shared/notarial-act.ts';
import { actTexts } from '../../../shared/act-stages.ts';
import { Button } from '../../components/ui/button.tsx';
import { Input, Select } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { trpc } from '../../lib/trpc.ts';
import { useSessionUpdates } from './use-session-updates.ts';
import type { RoomTabProps } from '../session-room/room-context.ts';
import type { FieldView } from '../../../shared/document-fields.ts';
import { CommissionForm } from './commission-form.tsx';
import { AbroadControl, AbroadWaiting, ParticipantsAbroad } from './abroad-control.tsx';
import { errorMessage } from '../../lib/errors.ts';

/**
 * The room's "Sign & seal" tab. The notary places fields on the document
 * (in the Documents tab's viewer, field-layer.tsx); the signer answers where
 * they are, consents, and fills the fields there; the notary completes the
 * certificate (type of act) and applies seal and signature. Each step
 * reaches the other side through the room's session:updated.
 */

/** "page 3", "pages 1 and 3": where a document's fields are. */
function pagesOf(fields: FieldView[]): string {
  const pages = [...new Set(fields.map((f) => f.page))].sort((a, b) => a - b);
  return pages.length === 1 ? `page ${pages[0]}` : `pages ${pages.slice(0, -1).join(', ')} and ${pages.at(-1)}`;
}
const countOf = (n: number) => `${n} ${n === 1 ? 'field' : 'fields'}`;

/** "Waiting for Alan Turing: 1 of 2 fields filled, on page 3." — per signer still taking part, by name (decision 123). */
function waitingFor(doc: ActDocumentView, signers: readonly ActSigner[]): string {
  const waiting = signers
    .filter((s) => s.active)
    .map((s) => ({ s, fields: doc.fields.filter((f) => f.participantId === s.participantId) }))
    .filter(({ fields }) => fields.some((f) => !f.filled));
  return waiting.map(({ s, fields }) => `Waiting for ${signers.length > 1 ? s.name : 'the signer'}: ${fields.filter((f) => f.filled).length} of ${countOf(fields.length)} filled, on ${pagesOf(fields)}.`).join(' ');
}

export function SignSealTab({ session, role, access }: RoomTabProps) {
  // The customer, or a co-signer or witness by their own link: their own fields and answers (decision 123).
  if (role !== 'notary' && 'token' in access) return <SignerSide token={access.token} />;
  return <NotarySide bookingId={session.bookingId} />;
}

function SignerSide({ token }: { token: string }) {
  const utils = trpc.useUtils();
  const query = trpc.manageAct.get.useQuery({ token }, { retry: false });
  useSessionUpdates(utils.manageAct.get, { token });
  const view = query.data;
  if (!view) return <p className="text-sm text-slate-700">Loading…</p>;
  const onView = (next: ActView) => utils.manageAct.get.setData({ token }, next);
  const own = (doc: ActDocumentView) => doc.fields.filter((f) => f.participantId === view.viewerParticipantId);
  // The act's stage is the customer's; a co-signer or witness answers once the recording runs (the server checks their own identity).
  const consentOpen = view.viewerParticipantId === null ? view.stage === 'location_and_consent' : ['recording', 'location_and_consent', 'oath', 'signing'].includes(view.stage);
  return (
    <div className="grid gap-4">
      {view.oathRequested && !view.oathKind && <OathAnswer token={token} onView={onView} />}
      {view.oathKind && <p className="text-sm text-slate-800">You {view.oathKind === 'swear' ? 'swore' : 'affirmed'} before the notary.</p>}
      {!view.consentGiven && consentOpen && <ConsentForm token={token} onView={onView} />}
      <AbroadWaiting view={view} />
    <ul className="grid gap-4">
      {view.documents.map((doc) => (
        <li key={doc.documentId} className="grid gap-2 rounded-md border border-slate-200 p-3">
          <p className="font-semibold text-slate-900">{doc.name}</p>
          {doc.sealed ? (
            <p className="flex items-center gap-2 text-sm font-semibold text-green-800">
              <BadgeCheck className="h-4 w-4" aria-hidden="true" /> Sealed by the notary. You can download it from your booking page.
            </p>
          ) : doc.supporting ? (
            <p className="text-sm text-slate-800">A supporting file: shown in the session, not signed or notarized.</p>
          ) : doc.notNotarizable ? (
            <p className="text-sm text-slate-800">The notary cannot notarize this document: {doc.notNotarizableReason}</p>
          ) : own(doc).length > 0 && own(doc).every((f) => f.filled) ? (
            <p role="status" className="text-sm text-slate-800">
              {doc.signed ? 'Signed. The notary now completes the certificate and seals the document.' : 'You have filled your fields. The other signers fill theirs, then the notary seals the document.'}
            </p>
          ) : own(doc).length > 0 && !view.consentGiven ? (
            <p className="text-sm text-slate-800">
              Your notary asks you to fill {countOf(own(doc).length)} on {pagesOf(own(doc))}. First say where you are and consent to sign electronically.
            </p>
          ) : own(doc).length > 0 ? (
            <p className="text-sm text-slate-800">
              Your notary asks you to fill {countOf(own(doc).length)} on {pagesOf(own(doc))}: click each highlighted field in the Documents tab.
            </p>
          ) : (
            <p className="text-sm text-slate-700">Wait until the notary shows you where to sign.</p>
          )}
        </li>
      ))}
    </ul>
    </div>
  );
}

const usStateOptions: [string, string][] = [
  ['AL', 'Alabama'], ['AK', 'Alaska'], ['AZ', 'Arizona'], ['AR', 'Arkansas'], ['CA', 'California'], ['CO', 'Colorado'], ['CT', 'Connecticut'], ['DE', 'Delaware'],
  ['DC', 'District of Columbia'], ['FL', 'Florida'], ['GA', 'Georgia'], ['HI', 'Hawaii'], ['ID', 'Idaho'], ['IL', 'Illinois'], ['IN', 'Indiana'], ['IA', 'Iowa'],
  ['KS', 'Kansas'], ['KY', 'Kentucky'], ['LA', 'Louisiana'], ['ME', 'Maine'], ['MD', 'Maryland'], ['MA', 'Massachusetts'], ['MI', 'Michigan'], ['MN', 'Minnesota'],
  ['MS', 'Mississippi'], ['MO', 'Missouri'], ['MT', 'Montana'], ['NE', 'Nebraska'], ['NV', 'Nevada'], ['NH', 'New Hampshire'], ['NJ', 'New Jersey'], ['NM', 'New Mexico'],
  ['NY', 'New York'], ['NC', 'North Carolina'], ['ND', 'North Dakota'], ['OH', 'Ohio'], ['OK', 'Oklahoma'], ['OR', 'Oregon'], ['PA', 'Pennsylvania'], ['RI', 'Rhode Island'],
  ['SC', 'South Carolina'], ['SD', 'South Dakota'], ['TN', 'Tennessee'], ['TX', 'Texas'], ['UT', 'Utah'], ['VT', 'Vermont'], ['VA', 'Virginia'], ['WA', 'Washington'],
  ['WV', 'West Virginia'], ['WI', 'Wisconsin'], ['WY', 'Wyoming'], ['PR', 'Puerto Rico'], ['GU', 'Guam'], ['VI', 'U.S. Virgin Islands'], ['AS', 'American Samoa'], ['MP', 'Northern Mariana Islands'],
];

/** "Where are you right now?" and "I consent to sign electronically" (ESIGN), before signing. */
function ConsentForm({ token, onView }: { token: string; onView: (view: ActView) => void }) {
  const give = trpc.manageAct.giveConsent.useMutation({ onSuccess: onView });
  const [where, setWhere] = useState('');
  const [country, setCountry] = useState('');
  const [consent, setConsent] = useState(false);
  const abroad = where === 'abroad';
  return (
    <form
      className="grid gap-3 rounded-md border border-blue-200 bg-blue-50 p-3 text-sm"
      onSubmit={(event) => {
        event.preventDefault();
        give.mutate({ token, location: abroad ? `${actTexts.outsideUs}: ${country.trim()}` : where, consent: consent as true });
      }}
    >
      <div className="grid gap-1">
        <Label htmlFor="signer-location">{actTexts.location}</Label>
        <Select id="signer-location" value={where} onChange={(e) => setWhere(e.target.value)} required>
          <option value="">Choose…</option>
          {usStateOptions.map(([code, name]) => (
            <option key={code} value={code}>
              {name}
            </option>
          ))}
          <option value="abroad">{actTexts.outsideUs}</option>
        </Select>
      </div>
      {abroad && (
        <div className="grid gap-1">
          <Label htmlFor="signer-country">Country</Label>
          <Input id="signer-country" value={country} onChange={(e) => setCountry(e.target.value)} required minLength={2} maxLength={60} />
        </div>
      )}
      <label className="flex items-start gap-2">
        <input type="checkbox" className="mt-1 h-4 w-4" checked={consent} onChange={(e) => setConsent(e.target.checked)} />
        <span>
          {actTexts.consent} (
          <a href="/esign-consent" target="_blank" rel="noopener" className="text-blue-800 underline">
            what this means
          </a>
          )
        </span>
      </label>
      <Button type="submit" className="justify-self-start" disabled={give.isPending}>
        Continue
      </Button>
      {give.error && <p role="alert" className="text-red-700">{give.error.message}</p>}
    </form>
  );
}

/** The notary administered the oath: the signer answers on camera. */
function OathAnswer({ token, onView }: { token: string; onView: (view: ActView) => void }) {
  const answer = trpc.manageAct.answerOath.useMutation({ onSuccess: onView });
  return (
    <div className="grid gap-2 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm">
      <p className="font-semibold text-slate-900">The notary asks you to swear or affirm that what you sign is true.</p>
      <div className="flex gap-2">
        <Button type="button" disabled={answer.isPending} onClick={() => answer.mutate({ token, kind: 'swear' })}>
          {actTexts.swear}
        </Button>
        <Button type="button" variant="outline" disabled={answer.isPending} onClick={() => answer.mutate({ token, kind: 'affirm' })}>
          {actTexts.affirm}
        </Button>
      </div>
      {answer.error && <p role="alert" className="text-red-700">{answer.error.message}</p>}
    </div>
  );
}

function NotarySide({ bookingId }: { bookingId: string }) {
  const utils = trpc.useUtils();
  const query = trpc.act.get.useQuery({ bookingId }, { retry: false });
  const profile = trpc.act.profile.useQuery(undefined, { retry: false });
  useSessionUpdates(utils.act.get, { bookingId });
  const setView = (view: ActView) => {
    utils.act.get.setData({ bookingId }, view);
    void utils.session.get.invalidate();
  };
  const view = query.data;
  if (query.error) return <p role="alert" className="text-sm text-red-700">{errorMessage(query.error)}</p>;
  if (!view) return <p className="text-sm text-slate-700">Loading…</p>;
  const commissionMissing = profile.data && (!profile.data.commissionNumber || !profile.data.commissionExpiresOn);
  return (
    <div className="grid gap-4 text-sm">
      {commissionMissing && <CommissionForm />}
      <AbroadControl bookingId={bookingId} view={view} onView={setView} />
      <ParticipantsAbroad bookingId={bookingId} />
      <OathControl bookingId={bookingId} view={view} onView={setView} />
      <ul className="grid gap-4">
        {view.documents.map((doc) => (
          <NotaryDocument key={doc.documentId} bookingId={bookingId} doc={doc} signers={view.signers} onView={setView} />
        ))}
      </ul>
    </div>
  );
}

function NotaryDocument({ bookingId, doc, signers, onView }: { bookingId: string; doc: ActDocumentView; signers: readonly ActSigner[]; onView: (view: ActView) => void }) {
  const [actType, setActType] = useState<ActType>('acknowledgment');
  const [confirming, setConfirming] = useState(false);
  const seal = trpc.act.seal.useMutation({ onSuccess: onView });
  const id = doc.documentId.slice(0, 8);
  return (
    <li className="grid gap-3 rounded-md border border-slate-200 p-3">
      <p className="font-semibold text-slate-900">{doc.name}</p>
      {doc.supporting ? (
        <Supporting bookingId={bookingId} doc={doc} onView={onView} />
      ) : doc.notNotarizable ? (
        <NotNotarizable bookingId={bookingId} doc={doc} onView={onView} />
      ) : doc.sealed ? (
        <div className="grid gap-1">
          <p className="flex items-center gap-2 font-semibold text-green-800">
            <BadgeCheck className="h-4 w-4" aria-hidden="true" /> Sealed ({actTypeLabels[doc.actType!]}), {doc.pageCount} pages
          </p>
          {doc.signatureLevel ? <p className="text-sm text-slate-700">Digital signature: PAdES {doc.signatureLevel} — {signatureLevelLabels[doc.signatureLevel]}.</p> : null}
          <p className="break-all font-mono text-xs text-slate-700">SHA-256 {doc.sealedSha256}</p>
          <a className="inline-flex items-center gap-1 font-semibold text-blue-700 underline" href={`/api/staff/notarized/${bookingId}/${doc.documentId}`} download>
            <Download className="h-4 w-4" aria-hidden="true" /> Download {doc.notarizedName ?? 'sealed PDF'}
          </a>
        </div>
      ) : (
        <>
          <p role="status" className="text-slate-800">
            {doc.signed
              ? doc.signatureKind
                ? `The signer has signed (${doc.signatureKind}).`
                : 'The signer has filled every field.'
              : doc.fields.length > 0
                ? waitingFor(doc, signers)
                : 'No fields yet: place them on the page in the Documents tab.'}
          </p>
          <div className="flex flex-wrap items-end gap-2">
            <div className="grid gap-1">
              <Label htmlFor={`act-type-${id}`}>Notarial act</Label>
              <Select id={`act-type-${id}`} value={actType} onChange={(e) => setActType(e.target.value as ActType)}>
                {actTypes.map((type) => (
                  <option key={type} value={type}>
                    {actTypeLabels[type]}
                  </option>
                ))}
              </Select>
            </div>
            {!confirming && (
              <Button type="button" disabled={!doc.signed || seal.isPending} onClick={() => setConfirming(true)}>
                {seal.isPending ? 'Sealing…' : 'Apply seal and signature'}
              </Button>
            )}
          </div>
          {confirming && (
            <div role="group" aria-label="Confirm the seal" className="grid gap-2 rounded-md border border-amber-200 bg-amber-50 p-3">
              <p className="text-slate-900">
                Seal {doc.name} as {actTypeLabels[actType]}? The certificate, your seal and your digital signature are added, a journal entry is written, and the document can no longer be changed.
              </p>
              <div className="flex gap-2">
                <Button
                  type="button"
                  disabled={seal.isPending}
                  onClick={() => {
                    setConfirming(false);
                    seal.mutate({ bookingId, documentId: doc.documentId, actType });
                  }}
                >
                  Yes, apply seal and signature
                </Button>
                <Button type="button" variant="outline" onClick={() => setConfirming(false)}>
                  Not yet
                </Button>
              </div>
            </div>
          )}
          <div className="flex flex-wrap gap-2">
            <Supporting bookingId={bookingId} doc={doc} onView={onView} />
            <NotNotarizable bookingId={bookingId} doc={doc} onView={onView} />
          </div>
        </>
      )}
      {seal.error && (
        <p role="alert" className="text-red-700">
          {errorMessage(seal.error)}
        </p>
      )}
    </li>
  );
}

/**
 * A document the act cannot go on with (a damaged file, a document that may
 * not be notarized): the notary sets it aside with a reason, so Finish no
 * longer waits for it; or takes that back.
 */
function NotNotarizable({ bookingId, doc, onView }: { bookingId: string; doc: ActDocumentView; onView: (view: ActView) => void }) {
  const mark = trpc.act.markNotNotarizable.useMutation({ onSuccess: onView });
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const reasonId = `not-notarizable-${doc.documentId.slice(0, 8)}`;
  if (doc.notNotarizable) {
    return (
      <div className="grid gap-2">
        <p role="status" className="text-slate-800">
          Marked as not notarizable: {doc.notNotarizableReason}. It is not sealed and does not hold up finishing the session.
        </p>
        <Button type="button" variant="outline" className="justify-self-start" disabled={mark.isPending} onClick={() => mark.mutate({ bookingId, documentId: doc.documentId, notNotarizable: false })}>
          Notarize this document after all
        </Button>
        {mark.error && <p role="alert" className="text-red-700">{mark.error.message}</p>}
      </div>
    );
  }
  if (!open) {
    return (
      <Button type="button" variant="outline" className="justify-self-start" onClick={() => setOpen(true)}>
        Mark as not notarizable…
      </Button>
    );
  }
  return (
    <form
      className="grid gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        mark.mutate({ bookingId, documentId: doc.documentId, notNotarizable: true, reason });
      }}
    >
      <Label htmlFor={reasonId}>Why can this document not be notarized? (the signer sees it)</Label>
      <Input id={reasonId} value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} required minLength={3} />
      <div className="flex gap-2">
        <Button type="submit" variant="destructive" disabled={mark.isPending}>
          Mark as not notarizable
        </Button>
        <Button type="button" variant="outline" onClick={() => setOpen(false)}>
          Keep it
        </Button>
      </div>
      {mark.error && <p role="alert" className="text-red-700">{mark.error.message}</p>}
    </form>
  );
}

/** "Administer oath" (jurats): the signer answers "I swear" or "I affirm"; the moment is marked on the recording. */
function OathControl({ bookingId, view, onView }: { bookingId: string; view: ActView; onView: (view: ActView) => void }) {
  const administer = trpc.act.administerOath.useMutation({ onSuccess: onView });
  if (view.oathKind) return <p role="status" className="text-slate-800">Oath taken: the signer {view.oathKind === 'swear' ? 'swore' : 'affirmed'}.</p>;
  if (view.oathRequested) return <p role="status" className="text-slate-800">Waiting for the signer to swear or affirm.</p>;
  return (
    <div className="grid gap-1">
      <Button type="button" variant="outline" className="justify-self-start" disabled={administer.isPending} onClick={() => administer.mutate({ bookingId })}>
        {actTexts.administerOath}
      </Button>
      {administer.error && <p role="alert" className="text-red-700">{administer.error.message}</p>}
    </div>
  );
}

/** A supporting file (an ID photo, a reference copy) is shown but never sealed or journaled, and does not hold up Finish. */
function Supporting({ bookingId, doc, onView }: { bookingId: string; doc: ActDocumentView; onView: (view: ActView) => void }) {
  const mark = trpc.act.markSupporting.useMutation({ onSuccess: onView });
  return (
    <div className="grid gap-2">
      {doc.supporting && <p role="status" className="text-slate-800">A supporting file: shown in the session, never sealed or journaled.</p>}
      <Button type="button" variant="outline" className="justify-self-start" disabled={mark.isPending} onClick={() => mark.mutate({ bookingId, documentId: doc.documentId, supporting: !doc.supporting })}>
        {doc.supporting ? 'Notarize this document' : 'Mark as supporting file'}
      </Button>
      {mark.error && <p role="alert" className="text-red-700">{mark.error.message}</p>}
    </div>
  );
}
