import { useState } from 'react';
import { BadgeCheck, Download } from 'lucide-react';
import { actTypeLabels, actTypes, signatureLevelLabels, type ActDocumentView, type ActType, type ActView } from '../../../shared/notarial-act.ts';
import { Button } from '../../components/ui/button.tsx';
import { Input, Select } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { trpc } from '../../lib/trpc.ts';
import { useSessionUpdates } from './use-session-updates.ts';
import type { RoomTabProps } from '../session-room/room-context.ts';
import { SignaturePad } from './signature-pad.tsx';
import { CommissionForm } from './commission-form.tsx';

/**
 * The room's "Sign & seal" tab. The notary shows where the signature goes;
 * the signer adopts a signature; the notary completes the certificate (type
 * of act) and applies seal and signature. Each step reaches the other side
 * through the room's session:updated (the `session` prop changes).
 */
const positions: Record<string, { label: string; x: number; y: number }> = {
  'bottom-right': { label: 'Bottom right', x: 72, y: 88 },
  'bottom-left': { label: 'Bottom left', x: 28, y: 88 },
  'bottom-centre': { label: 'Bottom centre', x: 50, y: 88 },
  middle: { label: 'Middle of the page', x: 50, y: 55 },
};

export function SignSealTab({ session, role, access }: RoomTabProps) {
  if (role === 'customer' && 'token' in access) return <SignerSide token={access.token} />;
  return <NotarySide bookingId={session.bookingId} />;
}

function SignerSide({ token }: { token: string }) {
  const utils = trpc.useUtils();
  const query = trpc.manageAct.get.useQuery({ token }, { retry: false });
  useSessionUpdates(utils.manageAct.get, { token });
  const adopt = trpc.manageAct.adoptSignature.useMutation({ onSuccess: (view) => utils.manageAct.get.setData({ token }, view) });
  const view = query.data;
  if (!view) return <p className="text-sm text-slate-700">Loading…</p>;
  return (
    <ul className="grid gap-4">
      {view.documents.map((doc) => (
        <li key={doc.documentId} className="grid gap-2 rounded-md border border-slate-200 p-3">
          <p className="font-semibold text-slate-900">{doc.name}</p>
          {doc.sealed ? (
            <p className="flex items-center gap-2 text-sm font-semibold text-green-800">
              <BadgeCheck className="h-4 w-4" aria-hidden="true" /> Sealed by the notary. You can download it from your booking page.
            </p>
          ) : doc.signed ? (
            <p role="status" className="text-sm text-slate-800">Signed. The notary now completes the certificate and seals the document.</p>
          ) : doc.placement ? (
            <>
              <p className="text-sm text-slate-800">Your notary asks you to sign on page {doc.placement.page}.</p>
              <SignaturePad signerName={view.signerName} busy={adopt.isPending} onAdopt={(signature) => adopt.mutate({ token, documentId: doc.documentId, ...signature })} />
            </>
          ) : (
            <p className="text-sm text-slate-700">Wait until the notary shows you where to sign.</p>
          )}
        </li>
      ))}
      {adopt.error && <p role="alert" className="text-sm text-red-700">{adopt.error.message}</p>}
    </ul>
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
  if (query.error) return <p role="alert" className="text-sm text-red-700">{query.error.message}</p>;
  if (!view) return <p className="text-sm text-slate-700">Loading…</p>;
  const commissionMissing = profile.data && (!profile.data.commissionNumber || !profile.data.commissionExpiresOn);
  return (
    <div className="grid gap-4 text-sm">
      {commissionMissing && <CommissionForm />}
      <ul className="grid gap-4">
        {view.documents.map((doc) => (
          <NotaryDocument key={doc.documentId} bookingId={bookingId} doc={doc} onView={setView} />
        ))}
      </ul>
    </div>
  );
}

function NotaryDocument({ bookingId, doc, onView }: { bookingId: string; doc: ActDocumentView; onView: (view: ActView) => void }) {
  const [page, setPage] = useState(String(doc.placement?.page ?? 1));
  const [position, setPosition] = useState('bottom-right');
  const [actType, setActType] = useState<ActType>('acknowledgment');
  const place = trpc.act.place.useMutation({ onSuccess: onView });
  const seal = trpc.act.seal.useMutation({ onSuccess: onView });
  const id = doc.documentId.slice(0, 8);
  return (
    <li className="grid gap-3 rounded-md border border-slate-200 p-3">
      <p className="font-semibold text-slate-900">{doc.name}</p>
      {doc.sealed ? (
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
          <div className="flex flex-wrap items-end gap-2">
            <div className="grid gap-1">
              <Label htmlFor={`place-page-${id}`}>Page</Label>
              <Input id={`place-page-${id}`} type="number" min={1} max={500} value={page} onChange={(e) => setPage(e.target.value)} className="w-20" />
            </div>
            <div className="grid gap-1">
              <Label htmlFor={`place-pos-${id}`}>Where</Label>
              <Select id={`place-pos-${id}`} value={position} onChange={(e) => setPosition(e.target.value)}>
                {Object.entries(positions).map(([value, p]) => (
                  <option key={value} value={value}>
                    {p.label}
                  </option>
                ))}
              </Select>
            </div>
            <Button
              type="button"
              variant="outline"
              disabled={place.isPending}
              onClick={() => place.mutate({ bookingId, documentId: doc.documentId, page: Number(page) || 1, xPercent: positions[position]!.x, yPercent: positions[position]!.y })}
            >
              Show the signer where to sign
            </Button>
          </div>
          <p role="status" className="text-slate-800">
            {doc.signed ? `The signer has signed (${doc.signatureKind}).` : doc.placement ? `Waiting for the signer to sign on page ${doc.placement.page}.` : 'Not placed yet.'}
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
            <Button type="button" disabled={!doc.signed || seal.isPending} onClick={() => seal.mutate({ bookingId, documentId: doc.documentId, actType })}>
              {seal.isPending ? 'Sealing…' : 'Apply seal and signature'}
            </Button>
          </div>
        </>
      )}
      {(place.error || seal.error) && (
        <p role="alert" className="text-red-700">
          {place.error?.message ?? seal.error?.message}
        </p>
      )}
    </li>
  );
}
