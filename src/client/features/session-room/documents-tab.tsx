import { useEffect, useRef, useState } from 'react';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { Button } from '../../components/ui/button.tsx';
import type { SessionDocument } from '../../../shared/session.ts';
import { useRoom, type RoomTabProps } from './room-context.ts';
import { documentViewSource } from './document-view-source.ts';

/**
 * The customer's documents, seen by both: PDFs page by page (pdf.js, served
 * from our origin with its worker bundled by Vite), images as they are. The
 * notary can point the signer to the page on screen ('document:focus').
 */

async function loadPdfJs() {
  const [pdfjs, worker] = await Promise.all([import('pdfjs-dist'), import('pdfjs-dist/build/pdf.worker.min.mjs?url')]);
  pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
  return pdfjs;
}

export function DocumentsTab({ session, role, channel }: RoomTabProps) {
  const { documentFocus } = useRoom();
  const [selectedId, setSelectedId] = useState<string | null>(session.documents[0]?.id ?? null);
  const [page, setPage] = useState(1);
  const [announcement, setAnnouncement] = useState('');
  const selected = session.documents.find((d) => d.id === selectedId) ?? null;

  // The notary pointed to a page: follow it.
  useEffect(() => {
    if (!documentFocus) return;
    const doc = session.documents.find((d) => d.id === documentFocus.documentId);
    if (!doc) return;
    setSelectedId(doc.id);
    setPage(documentFocus.page);
    setAnnouncement(`${role === 'customer' ? 'Your notary is showing you' : 'Showing'} page ${documentFocus.page} of ${doc.name}.`);
  }, [documentFocus, session.documents, role]);

  if (session.documents.length === 0) return <p className="text-sm text-slate-700">No documents in this booking.</p>;

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
              onClick={() => {
                setSelectedId(doc.id);
                setPage(1);
              }}
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
        <DocumentViewer
          key={selected.id}
          document={selected}
          page={page}
          onPage={setPage}
          onPoint={role === 'notary' ? (p) => channel.send('document:focus', { documentId: selected.id, page: p }) : undefined}
        />
      )}
    </div>
  );
}

function DocumentViewer(props: { document: SessionDocument; page: number; onPage: (page: number) => void; onPoint?: (page: number) => void }) {
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
    return <img src={doc.url} alt={doc.name} className="max-h-[32rem] w-full rounded-md border border-slate-200 object-contain" />;
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
      <canvas ref={canvasRef} role="img" aria-label={`${doc.name}, page ${page}`} className="w-full rounded-md border border-slate-200 bg-white" />
    </div>
  );
}
