import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { Button } from '../../components/ui/button.tsx';
import type { SessionDocument, SessionRole } from '../../../shared/session.ts';
import { boxAt, nextEmptyField, type FieldKind, type FieldView } from '../../../shared/document-fields.ts';
import type { ActDocumentView, ActView } from '../../../shared/notarial-act.ts';
import { errorMessage } from '../../lib/errors.ts';
import { trpc } from '../../lib/trpc.ts';
import { FieldLayer, FieldPalette, SignerFieldForms, browserLocale, useActView } from '../notarial-act/field-layer.tsx';
import { useRoom, type RoomTabProps } from './room-context.ts';
import { documentViewSource } from './document-view-source.ts';
import { fieldsOverlay } from './fields-overlay.ts';

/**
 * The customer's documents, seen by both: PDFs page by page (pdf.js, served
 * from our origin with its worker bundled by Vite), images as they are. The
 * notary can point the signer to the page on screen ('document:focus'), and
 * places fields on the page that the signer fills (field-layer.tsx). Each
 * side keeps the page it is on.
 */

async function loadPdfJs() {
  const [pdfjs, worker] = await Promise.all([import('pdfjs-dist'), import('pdfjs-dist/build/pdf.worker.min.mjs?url')]);
  pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
  return pdfjs;
}

export function DocumentsTab({ session, role, access }: RoomTabProps) {
  const { documentFocus } = useRoom();
  const [selectedId, setSelectedId] = useState<string | null>(session.documents[0]?.id ?? null);
  // The page each document is on: kept when data refreshes, when the notary shows a page, when switching documents.
  const [pages, setPages] = useState<Record<string, number>>({});
  const [announcement, setAnnouncement] = useState('');
  const selected = session.documents.find((d) => d.id === selectedId) ?? null;
  const page = selected ? (pages[selected.id] ?? 1) : 1;
  const setPage = (documentId: string, next: number) => setPages((current) => ({ ...current, [documentId]: next }));
  const { view, setView, token } = useActView(role, access, session.bookingId);
  const documentsRef = useRef(session.documents);
  documentsRef.current = session.documents;

  // The notary pointed to a page: follow it (once per pointing, not on every refresh of the session).
  useEffect(() => {
    if (!documentFocus) return;
    const doc = documentsRef.current.find((d) => d.id === documentFocus.documentId);
    if (!doc) return;
    setSelectedId(doc.id);
    setPages((current) => ({ ...current, [doc.id]: documentFocus.page }));
    setAnnouncement(`${role !== 'notary' ? 'Your notary is showing you' : 'Showing'} page ${documentFocus.page} of ${doc.name}.`);
  }, [documentFocus, role]);

  // A signer's viewer goes to the page with their own next empty field (when that field changes, not on every refresh).
  const next = role !== 'notary' && view ? nextEmptyField(view.documents.filter((d) => !d.sealed && !d.supporting && !d.notNotarizable).flatMap((d) => d.fields.filter((f) => f.participantId === view.viewerParticipantId))) : null;
  useEffect(() => {
    if (!next) return;
    setSelectedId(next.documentId);
    setPages((current) => ({ ...current, [next.documentId]: next.page }));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- follows the next field, not each refresh of it
  }, [next?.id]);

  if (session.documents.length === 0) return <p className="text-sm text-slate-700">No documents in this booking.</p>;
  const actDoc = view?.documents.find((d) => d.documentId === selected?.id) ?? null;

  return (
    <div className="grid gap-3">
      <ul className="grid gap-1" aria-label="Documents">
        {session.documents.map((doc) => (
          <li key={doc.id}>
            <Button
              type="button"
              size="sm"
              variant={doc.id === selectedId ? 'default' : 'outline'}
              aria-current={doc.id === selectedId ? 'true' : undefined}
              className="w-full justify-start truncate"
              onClick={() => setSelectedId(doc.id)}
            >
              {doc.name}
            </Button>
          </li>
        ))}
      </ul>
      <p role="status" className="text-sm font-medium text-blue-900">
        {announcement}
      </p>
      {selected && (
        <DocumentWithFields
          key={selected.id}
          role={role}
          bookingId={session.bookingId}
          token={token}
          document={selected}
          actDocument={actDoc}
          view={view ?? null}
          onView={setView}
          page={page}
          onPage={(p) => setPage(selected.id, p)}
        />
      )}
    </div>
  );
}

/** One document in the viewer, with its fields: the notary places them, the signer fills them. */
function DocumentWithFields(props: {
  role: SessionRole;
  bookingId: string;
  token: string;
  document: SessionDocument;
  actDocument: ActDocumentView | null;
  view: ActView | null;
  onView: (view: ActView) => void;
  page: number;
  onPage: (page: number) => void;
}) {
  const { role, document: doc, actDocument, page } = props;
  const { channel } = useRoom();
  const fields = actDocument?.fields ?? [];
  const [kind, setKind] = useState<FieldKind | null>(null);
  // Whose field the notary places next: the customer (null) or a co-signer or witness (decision 123).
  const [forId, setForId] = useState<string | null>(null);
  const signers = props.view?.signers ?? [];
  const viewer = props.view?.viewerParticipantId ?? null;
  const [focus, setFocus] = useState({ x: 0.5, y: 0.5 });
  const [focusId, setFocusId] = useState<string | null>(null);
  const [filling, setFilling] = useState<FieldView | null>(null);
  const known = useRef(new Set<string>());
  const onPlaced = (next: ActView) => {
    props.onView(next);
    const added = next.documents.find((d) => d.documentId === doc.id)?.fields.find((f) => !known.current.has(f.id));
    if (added) setFocusId(added.id);
  };
  const save = trpc.act.saveField.useMutation({ onSuccess: onPlaced });
  const remove = trpc.act.removeField.useMutation({ onSuccess: props.onView });
  const fillDate = trpc.manageAct.fillField.useMutation({ onSuccess: props.onView });
  const editable = role === 'notary' && !!actDocument && !actDocument.sealed && !actDocument.supporting && !actDocument.notNotarizable;
  const place = (fieldKind: FieldKind, point: { x: number; y: number }) => {
    known.current = new Set(fields.map((f) => f.id));
    save.mutate({ bookingId: props.bookingId, documentId: doc.id, kind: fieldKind, participantId: forId, page, ...boxAt(fieldKind, point) });
  };
  // The notary's recording shows these fields over the page, as they are filled (decision 103).
  useEffect(() => (role === 'notary' ? documentViewSource.addOverlay(fieldsOverlay(fields, signers, page)) : undefined), [role, fields, signers, page]);
  const error = save.error ?? remove.error ?? fillDate.error;
  const mine = fields.filter((f) => f.participantId === viewer);
  const empty = mine.filter((f) => !f.filled).length;

  return (
    <div className="grid gap-2">
      {role === 'notary' && editable && (
        <FieldPalette kind={kind} onKind={setKind} busy={save.isPending} disabled={!editable} onPlace={() => kind && place(kind, focus)} signers={signers} forId={forId} onFor={setForId} />
      )}
      {role !== 'notary' && mine.length > 0 && !actDocument?.sealed && (
        <p className="text-sm text-slate-800">
          {empty === 0
            ? 'You have filled every field of this document.'
            : props.view && !props.view.consentGiven
              ? `${empty} highlighted ${empty === 1 ? 'field waits' : 'fields wait'} for you. Before filling them, answer where you are and give your consent (Sign & seal).`
              : `Click each highlighted field to fill it (${empty} left).`}
        </p>
      )}
      <DocumentViewer
        document={doc}
        page={page}
        onPage={props.onPage}
        onPoint={role === 'notary' ? (p) => channel.send('document:focus', { documentId: doc.id, page: p }) : undefined}
        layer={(content) => (
          <FieldLayer
            role={role}
            page={page}
            fields={fields}
            signers={signers}
            viewerParticipantId={viewer}
            placing={
              role === 'notary'
                ? {
                    kind,
                    focus,
                    onFocus: setFocus,
                    onDropKind: place,
                    onSave: (field, box) => save.mutate({ bookingId: props.bookingId, documentId: doc.id, fieldId: field.id, kind: field.kind, page: field.page, ...box }),
                    onRemove: (field) => remove.mutate({ bookingId: props.bookingId, fieldId: field.id }),
                    focusId,
                    editable,
                  }
                : undefined
            }
            onFill={(field) => {
              if (field.kind === 'date') fillDate.mutate({ token: props.token, fieldId: field.id, kind: 'date', ...browserLocale() });
              else setFilling(field);
            }}
          >
            {content}
          </FieldLayer>
        )}
      />
      {role !== 'notary' && props.view && <SignerFieldForms token={props.token} view={props.view} filling={filling} onDone={() => setFilling(null)} onView={props.onView} />}
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {errorMessage(error)}
        </p>
      )}
    </div>
  );
}

function DocumentViewer(props: { document: SessionDocument; page: number; onPage: (page: number) => void; onPoint?: (page: number) => void; layer: (page: ReactNode) => ReactNode }) {
  const { document: doc, page } = props;
  const isPdf = doc.contentType === 'application/pdf';
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [pdf, setPdf] = useState<PDFDocumentProxy | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!isPdf) return;
    let cancelled = false;
    let task: { destroy(): Promise<void> } | null = null;
    void (async () => {
      try {
        const pdfjs = await loadPdfJs();
        const loading = pdfjs.getDocument({ url: doc.url, withCredentials: true });
        task = loading;
        const loaded = await loading.promise;
        if (cancelled) return;
        setPdf(loaded);
      } catch {
        if (!cancelled) setError('This document could not be shown. Ask your notary to share it another way.');
      }
    })();
    return () => {
      cancelled = true;
      void task?.destroy();
    };
  }, [doc.url, isPdf]);

  useEffect(() => {
    if (!pdf || !canvasRef.current) return;
    const canvas = canvasRef.current;
    let task: { cancel(): void; promise: Promise<void> } | null = null;
    void (async () => {
      const current = await pdf.getPage(Math.min(Math.max(1, page), pdf.numPages));
      const viewport = current.getViewport({ scale: 1.3 });
      canvas.width = viewport.width;
      canvas.height = viewport.height;
      task = current.render({ canvas, viewport });
      // The page on screen is the one the notary's recording shows (decision 103).
      documentViewSource.register(canvas);
      await task.promise.catch(() => {});
    })();
    return () => task?.cancel();
  }, [pdf, page]);

  if (!isPdf) {
    return props.layer(<img src={doc.url} alt={doc.name} className="block w-full rounded-md border border-slate-200" />);
  }
  if (error) return <p role="alert" className="text-sm text-red-700">{error}</p>;
  const pages = pdf?.numPages ?? 0;
  return (
    <div className="grid gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <Button type="button" size="sm" variant="outline" disabled={page <= 1} onClick={() => props.onPage(page - 1)}>
          Previous page
        </Button>
        <span className="text-sm text-slate-800" aria-live="polite">
          {pdf ? `Page ${page} of ${pages}` : 'Loading document…'}
        </span>
        <Button type="button" size="sm" variant="outline" disabled={!pdf || page >= pages} onClick={() => props.onPage(page + 1)}>
          Next page
        </Button>
        {props.onPoint && (
          <Button type="button" size="sm" disabled={!pdf} onClick={() => props.onPoint?.(page)}>
            Show this page to the signer
          </Button>
        )}
      </div>
      {props.layer(<canvas ref={canvasRef} role="img" aria-label={`${doc.name}, page ${page}`} className="block w-full rounded-md border border-slate-200 bg-white" />)}
    </div>
  );
}
