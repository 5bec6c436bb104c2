import { TRPCClientError } from '@trpc/client';
import { useEffect, useRef, useState, type DragEvent, type FormEvent } from 'react';
import { site } from '../../../shared/site.ts';
import { formatInZone } from '../../../shared/time.ts';
import {
  actTypeLabels,
  normalizeVerificationCode,
  verificationLinkPattern,
  verifyCopy,
  verifyMessages,
  type VerifiedAct,
  type VerifyResult,
} from '../../../shared/verification.ts';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { api } from '../../lib/trpc.ts';

/**
 * The /verify form (an island of a server-HTML page, docs/decisions/091): the
 * visitor chooses or drops the notarized PDF — hashed here with WebCrypto, the
 * file never leaves the device — and/or types the code printed on it. A link
 * from the document itself (/verify?code=…) checks the code at once. Fixed ids:
 * the server renders this form inside the page, the browser hydrates it on a
 * root of its own (useId would differ).
 */
export function VerifyForm() {
  const [file, setFile] = useState<File | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<VerifyResult | null>(null);
  const [dragging, setDragging] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const resultHeading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (result) resultHeading.current?.focus();
  }, [result]);

  // Arriving from the link printed on a document: check its code straight away.
  useEffect(() => {
    const fromLink = new URLSearchParams(window.location.search).get('code');
    if (fromLink) {
      setCode(fromLink);
      void check(null, fromLink);
    }
    // Once, on arrival.
  }, []);

  async function check(chosen: File | null, typed: string) {
    setCodeError(null);
    setFormError(null);
    setResult(null);
    const trimmed = typed.trim();
    const normalized = trimmed ? normalizeVerificationCode(trimmed) : null;
    if (trimmed && !normalized) return setCodeError(verifyMessages.badCode);
    if (!chosen && !normalized) return setFormError(verifyMessages.nothing);
    setBusy(true);
    try {
      const bytes = chosen ? new Uint8Array(await chosen.arrayBuffer()) : null;
      const sha256 = bytes ? await sha256Hex(bytes) : undefined;
      // No code typed: the one printed in the file, so a changed file is still recognised.
      const codeToSend = normalized ?? (bytes ? await codeInFile(bytes) : null) ?? undefined;
      setResult(await api.verification.check.mutate({ code: codeToSend, sha256 }));
    } catch (error) {
      setFormError(error instanceof TRPCClientError && error.message ? error.message : 'We could not check the document just now. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void check(file, code);
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    const dropped = event.dataTransfer.files[0];
    if (dropped) {
      setFile(dropped);
      // Shown in the input too, so the keyboard path and the drop path agree.
      if (fileInput.current) fileInput.current.files = event.dataTransfer.files;
    }
  }

  return (
    <div className="grid gap-8">
      <form aria-label={verifyCopy.title} onSubmit={onSubmit} noValidate className="grid gap-6 rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <div
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          className={`grid gap-2 rounded-lg border-2 border-dashed p-4 sm:p-6 ${dragging ? 'border-blue-600 bg-blue-50' : 'border-slate-300 bg-slate-50'}`}
        >
          <label htmlFor="verify-file" className="text-sm font-medium text-slate-800">
            Notarized PDF
          </label>
          <p id="verify-file-hint" className="text-sm text-slate-600">
            Drop the file here or choose it. It is checked on your device and never uploaded.
          </p>
          <input
            ref={fileInput}
            id="verify-file"
            name="file"
            type="file"
            accept="application/pdf,.pdf"
            aria-describedby="verify-file-hint"
            onChange={(event) => setFile(event.currentTarget.files?.[0] ?? null)}
            className="max-w-full text-sm text-slate-800 file:mr-3 file:rounded-md file:border-0 file:bg-blue-700 file:px-3 file:py-2 file:font-semibold file:text-white hover:file:bg-blue-800"
          />
        </div>
        <div className="grid gap-1.5">
          <label htmlFor="verify-code" className="text-sm font-medium text-slate-800">
            Verification code <span className="font-normal text-slate-600">(printed at the foot of the certificate page)</span>
          </label>
          <Input
            id="verify-code"
            name="code"
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
            placeholder="e.g. ABCD-EFGH-JKMN"
            autoComplete="off"
            spellCheck={false}
            maxLength={40}
            aria-invalid={codeError ? true : undefined}
            aria-describedby={codeError ? 'verify-code-error' : undefined}
            className="max-w-xs font-mono uppercase placeholder:normal-case"
          />
          {codeError && (
            <p id="verify-code-error" className="text-sm text-red-700" role="alert">
              {codeError}
            </p>
          )}
        </div>
        {formError && (
          <p className="text-sm text-red-700" role="alert">
            {formError}
          </p>
        )}
        <div>
          <Button type="submit" disabled={busy}>
            {busy ? 'Checking…' : verifyCopy.submit}
          </Button>
        </div>
      </form>
      {result && <Outcome result={result} headingRef={resultHeading} />}
    </div>
  );
}

function Outcome({ result, headingRef }: { result: VerifyResult; headingRef: React.RefObject<HTMLHeadingElement | null> }) {
  const tone = result.outcome === 'intact' ? 'border-green-300 bg-green-50 text-green-950' : result.outcome === 'changed' ? 'border-red-300 bg-red-50 text-red-950' : 'border-amber-300 bg-amber-50 text-amber-950';
  const heading = result.outcome === 'intact' ? verifyCopy.intact : result.outcome === 'changed' ? verifyCopy.changed : verifyCopy.unknown;
  return (
    <section aria-labelledby="verify-result" data-outcome={result.outcome} className={`rounded-xl border p-5 sm:p-6 ${tone}`}>
      <h2 id="verify-result" ref={headingRef} tabIndex={-1} className="text-xl font-bold outline-none">
        {heading}
      </h2>
      {result.outcome === 'intact' && (
        <p className="mt-2">
          {result.checkedBy === 'file'
            ? 'The file is exactly the one the notary sealed: not a single byte has changed since.'
            : 'We notarized a document with this code. Compare the details below with your copy; to check that a PDF copy is unchanged, choose the file too.'}
        </p>
      )}
      {result.outcome === 'changed' && (
        <p className="mt-2">
          Its verification code belongs to a document we notarized, but the file is not the one the notary sealed. Ask the sender for the original file. What we recorded:
        </p>
      )}
      {result.outcome === 'unknown' && (
        <p className="mt-2">No notarized document with this file or code is in our journal. Check the code, or ask the sender for the file as they received it from us.</p>
      )}
      {'act' in result && <ActFacts act={result.act} />}
    </section>
  );
}

function ActFacts({ act }: { act: VerifiedAct }) {
  const rows: [string, string][] = [
    ['Notary', act.notaryName],
    ['Commission number', act.commissionNumber ?? '—'],
    ['Commissioning state', act.commissionState ?? '—'],
    ['Commission expires', act.commissionExpiresOn ?? '—'],
    ['Notarial act', actTypeLabels[act.actType] ?? act.actType],
    ['Date and time', formatInZone(new Date(act.performedAt), site.businessTimeZone).full],
    ['Signature level', act.signatureLevel ?? '—'],
    ['Timestamp authority', act.timestampAuthority ?? 'None (signing time from our server’s clock)'],
    ['Verification code', act.verificationCode ?? '—'],
  ];
  return (
    <dl className="mt-4 grid gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="font-semibold">{label}</dt>
          <dd className="break-words">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The verification code printed in a sealed PDF: its link annotation
 * (/verify?code=…) is plain text in the file; after an edit that recompressed
 * the objects, it is looked for in each Flate stream too (bounded).
 */
async function codeInFile(bytes: Uint8Array): Promise<string | null> {
  const text = new TextDecoder('latin1').decode(bytes);
  const plain = verificationLinkPattern.exec(text);
  if (plain) return plain[1]!;
  if (typeof DecompressionStream === 'undefined') return null;
  const streams = /stream\r?\n/g;
  let match: RegExpExecArray | null;
  let tried = 0;
  while ((match = streams.exec(text)) && tried < 500) {
    const start = match.index + match[0].length;
    const end = text.indexOf('endstream', start);
    if (end < 0) break;
    tried++;
    const reader = new Blob([bytes.slice(start, end)]).stream().pipeThrough(new DecompressionStream('deflate')).getReader();
    const decoder = new TextDecoder('latin1');
    let inflated = '';
    try {
      while (inflated.length < 4_000_000) {
        const { done, value } = await reader.read();
        if (done) break;
        inflated += decoder.decode(value, { stream: true });
      }
    } catch {
      // Not a Flate stream, or the end-of-line before "endstream": what was inflated still counts.
    }
    const found = verificationLinkPattern.exec(inflated);
    if (found) return found[1]!;
    streams.lastIndex = end;
  }
  return null;
}
