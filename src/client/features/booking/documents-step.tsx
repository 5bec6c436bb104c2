import { FileText, Trash2, Upload } from 'lucide-react';
import { useEffect, useId, useRef, useState, type DragEvent } from 'react';
import type { BookingView } from '../../../shared/booking.ts';
import { acceptedFileExtensions, hasDocumentToNotarize, noDocumentsMessage, onlySupportingMessage, supportingFileLabel } from '../../../shared/booking-rules.ts';
import { buttonVariants } from '../../components/ui/button-variants.ts';
import { toast } from '../../components/ui/toast.tsx';
import { cx } from '../../lib/cx.ts';
import { trpc } from '../../lib/trpc.ts';
import { putFile, precheckFile, uploadFailedMessage, UploadError, uploadWithRetry } from './upload.ts';
import { errorMessage, isClientError } from '../../lib/errors.ts';
import { formatFileSize } from '../../lib/file-size.ts';

interface QueuedFile {
  key: string;
  file: File;
  progress: number | null;
  error: string | null;
  /** Marked by the customer as a supporting file (shown to the notary, not notarized, not charged). */
  supporting: boolean;
}

export interface DocumentsStepProps {
  booking: BookingView | null;
  /** Creates the booking on first use and returns its id. */
  ensureBooking: () => Promise<string>;
  onDone: (uploadedCount: number) => Promise<void>;
}

let nextKey = 1;

export function DocumentsStep({ booking, ensureBooking, onDone }: DocumentsStepProps) {
  const inputId = useId();
  const hintId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [queue, setQueue] = useState<QueuedFile[]>([]);
  const [rejections, setRejections] = useState<string[]>([]);
  const [stepError, setStepError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [busy, setBusy] = useState(false);
  const createUpload = trpc.documents.createUpload.useMutation();
  const removeDocument = trpc.documents.remove.useMutation();
  const utils = trpc.useUtils();
  const uploaded = booking?.documents ?? [];

  function addFiles(files: FileList | File[]) {
    const accepted: QueuedFile[] = [];
    const rejected: string[] = [];
    for (const file of Array.from(files)) {
      const problem = precheckFile(file);
      if (problem) rejected.push(problem);
      else accepted.push({ key: `f${nextKey++}`, file, progress: null, error: null, supporting: false });
    }
    setRejections(rejected);
    for (const message of rejected) toast({ title: message, variant: 'destructive' });
    if (accepted.length > 0) {
      setQueue((current) => [...current, ...accepted]);
      setStepError(null);
    }
  }

  // The step is server-rendered, so its file input works before hydration; a file
  // chosen then fired no React change event. Take it over once React is in charge.
  useEffect(() => {
    const input = inputRef.current;
    if (input?.files && input.files.length > 0) {
      addFiles(input.files);
      input.value = '';
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, right after hydration
  }, []);

  function update(key: string, patch: Partial<QueuedFile>) {
    setQueue((current) => current.map((q) => (q.key === key ? { ...q, ...patch } : q)));
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    if (!busy && event.dataTransfer.files.length > 0) addFiles(event.dataTransfer.files);
  }

  async function removeUploaded(documentId: string) {
    if (!booking) return;
    try {
      await removeDocument.mutateAsync({ bookingId: booking.id, documentId });
      await utils.booking.get.invalidate({ bookingId: booking.id });
    } catch (error) {
      toast({ title: errorMessage(error), variant: 'destructive' });
    }
  }

  async function uploadAll() {
    const refuse = (message: string) => {
      setStepError(message);
      toast({ title: message, variant: 'destructive' });
    };
    if (queue.length === 0 && uploaded.length === 0) return refuse(noDocumentsMessage);
    // Supporting files alone are not a notarization.
    if (!hasDocumentToNotarize([...uploaded, ...queue])) return refuse(onlySupportingMessage);
    if (queue.length === 0) return onDone(0);
    setBusy(true);
    setStepError(null);
    let bookingId: string;
    try {
      bookingId = await ensureBooking();
    } catch (error) {
      setBusy(false);
      toast({ title: uploadFailedMessage, description: errorMessage(error), variant: 'destructive' });
      return;
    }

    let succeeded = 0;
    let failed = 0;
    // Uploaded files stay in the list at 100% until the batch is over, so each bar visibly completes.
    const finished = new Set<string>();
    // One at a time: a slow connection gives each file its full bandwidth and the progress reads true.
    for (const item of queue) {
      update(item.key, { error: null });
      try {
        await uploadWithRetry(
          {
            createTarget: async () => {
              try {
                return await createUpload.mutateAsync({
                  bookingId,
                  fileName: item.file.name,
                  sizeBytes: item.file.size,
                  contentType: item.file.type,
                  supporting: item.supporting,
                });
              } catch (error) {
                // A refusal with a reason (size, type, paid booking) is final; a network error may pass next time.
                throw new UploadError(errorMessage(error, uploadFailedMessage), !isClientError(error));
              }
            },
            put: (url, onProgress) => putFile(url, item.file, onProgress),
          },
          (progress) => update(item.key, { progress }),
        );
        succeeded++;
        finished.add(item.key);
      } catch (error) {
        failed++;
        update(item.key, { progress: null, error: error instanceof UploadError ? error.message : uploadFailedMessage });
      }
    }
    await utils.booking.get.invalidate({ bookingId });
    setQueue((current) => current.filter((q) => !finished.has(q.key)));
    setBusy(false);
    if (failed > 0) {
      setStepError(uploadFailedMessage);
      toast({ title: uploadFailedMessage, variant: 'destructive' });
      return;
    }
    toast({ title: 'Documents uploaded successfully!', description: `${succeeded} document(s) uploaded successfully!`, variant: 'success' });
    await onDone(succeeded);
  }

  return (
    <div className="grid gap-6">
      <p className="text-slate-700">
        Upload the documents you need notarized. PDF, JPEG and PNG files up to 10MB each. Your documents are stored privately and are
        visible only to you and your assigned notary.
      </p>

      <div
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid="drop-zone"
        className={cx(
          'flex flex-col items-center gap-3 rounded-xl border-2 border-dashed p-8 text-center transition-colors',
          dragging ? 'border-blue-700 bg-blue-50' : 'border-slate-300 bg-slate-50',
        )}
      >
        <Upload className="h-10 w-10 text-blue-700" aria-hidden="true" />
        <p className="font-medium text-slate-900">Drag and drop your files here, or</p>
        {/* The real input stays in the tab order (visually hidden): keyboard and screen-reader users pick files with it. */}
        <input
          ref={inputRef}
          id={inputId}
          type="file"
          multiple
          accept={acceptedFileExtensions.join(',')}
          aria-describedby={hintId}
          className="sr-only"
          disabled={busy}
          onChange={(event) => {
            if (event.target.files) addFiles(event.target.files);
            event.target.value = '';
          }}
        />
        <label
          htmlFor={inputId}
          className="inline-flex h-11 cursor-pointer items-center rounded-md border border-slate-300 bg-white px-5 text-sm font-semibold text-slate-900 hover:bg-slate-50 [input:focus-visible+&]:outline-2 [input:focus-visible+&]:outline-offset-2 [input:focus-visible+&]:outline-blue-700"
        >
          Choose files
        </label>
        <p id={hintId} className="text-sm text-slate-600">
          Accepted: PDF, JPEG, PNG · Maximum 10MB per file
        </p>
      </div>

      {rejections.length > 0 && (
        <ul className="grid gap-1 text-sm text-red-700" role="alert">
          {rejections.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      )}

      {uploaded.length > 0 && (
        <section aria-labelledby={`${inputId}-uploaded`}>
          <h3 id={`${inputId}-uploaded`} className="mb-2 font-semibold text-slate-900">
            Uploaded documents
          </h3>
          <ul className="grid gap-2">
            {uploaded.map((doc) => (
              <li key={doc.id} className="flex items-center gap-3 rounded-lg border border-slate-200 bg-white p-3">
                <FileText className="h-5 w-5 shrink-0 text-green-700" aria-hidden="true" />
                <span className="flex-1 truncate">{doc.name}</span>
                {doc.supporting && <span className="shrink-0 rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-900">Supporting file</span>}
                <span className="text-sm text-slate-600">{formatFileSize(doc.sizeBytes)}</span>
                <button className={buttonVariants({ variant: 'ghost', size: 'icon' })} aria-label={`Remove ${doc.name}`} disabled={busy} onClick={() => void removeUploaded(doc.id)}>
                  <Trash2 className="h-4 w-4" aria-hidden="true" />
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}

      {queue.length > 0 && (
        <section aria-labelledby={`${inputId}-queue`}>
          <h3 id={`${inputId}-queue`} className="mb-2 font-semibold text-slate-900">
            Ready to upload
          </h3>
          <ul className="grid gap-2">
            {queue.map((item) => (
              <li key={item.key} className="grid gap-2 rounded-lg border border-slate-200 bg-white p-3">
                <div className="flex items-center gap-3">
                  <FileText className="h-5 w-5 shrink-0 text-blue-700" aria-hidden="true" />
                  <span className="flex-1 truncate">{item.file.name}</span>
                  <span className="text-sm text-slate-600">{formatFileSize(item.file.size)}</span>
                  <button
                    className={buttonVariants({ variant: 'ghost', size: 'icon' })}
                    aria-label={`Remove ${item.file.name}`}
                    disabled={busy}
                    onClick={() => setQueue((current) => current.filter((q) => q.key !== item.key))}
                  >
                    <Trash2 className="h-4 w-4" aria-hidden="true" />
                  </button>
                </div>
                <label className="flex items-start gap-2 text-sm text-slate-800">
                  <input
                    type="checkbox"
                    className="mt-0.5 h-4 w-4 shrink-0 accent-blue-700"
                    checked={item.supporting}
                    disabled={busy}
                    onChange={(event) => update(item.key, { supporting: event.target.checked })}
                  />
                  <span>
                    {supportingFileLabel}
                    <span className="sr-only"> ({item.file.name})</span>
                  </span>
                </label>
                {item.progress !== null && (
                  <progress
                    className="h-2 w-full accent-blue-700"
                    max={100}
                    value={item.progress}
                    aria-label={`Uploading ${item.file.name}`}
                    data-testid="upload-progress"
                  >
                    {item.progress}%
                  </progress>
                )}
                {item.error && (
                  <p className="text-sm text-red-700" role="alert">
                    {item.error}
                  </p>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}

      {stepError && (
        <p className="text-sm font-medium text-red-700" role="alert">
          {stepError}
        </p>
      )}

      <div className="flex justify-end">
        <button className={buttonVariants({ size: 'lg' })} onClick={() => void uploadAll()} disabled={busy}>
          {busy ? 'Uploading...' : 'Continue to Booking'}
        </button>
      </div>
    </div>
  );
}
