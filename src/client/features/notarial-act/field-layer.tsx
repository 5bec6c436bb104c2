import { useEffect, useRef, useState, type ReactNode } from 'react';
import { fieldKindLabels, fieldKinds, fieldName, fitBox, maxFieldText, type FieldKind, type FieldView } from '../../../shared/document-fields.ts';
import type { ActSigner, ActView } from '../../../shared/notarial-act.ts';
import type { SessionAccess, SessionRole } from '../../../shared/session.ts';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { trpc } from '../../lib/trpc.ts';
import { SignaturePad } from './signature-pad.tsx';
import { useSessionUpdates } from './use-session-updates.ts';

/**
 * Fields on the document viewer's page (docs/decisions/100-document-fields.md).
 * The notary drags Signature / Initials / Date / Text from a palette onto the
 * page (or, by keyboard, picks a kind and places it at the page's focus
 * point), moves a field by dragging it or with the arrow keys, resizes it by
 * its corner or with Shift+arrows, removes it with Delete. The signer sees
 * the fields highlighted and fills each by clicking. Boxes are fractions of
 * the page, so they sit in the same place at any size.
 */

type Box = { x: number; y: number; width: number; height: number };
const step = 0.01;
const clamp = (value: number, min: number, max: number) => Math.min(Math.max(value, min), max);

/** The act as the viewer sees it: the notary's (by booking) or the signer's (by link), kept fresh by the room. */
export function useActView(role: SessionRole, access: SessionAccess, bookingId: string) {
  const utils = trpc.useUtils();
  const token = 'token' in access ? access.token : '';
  const staff = trpc.act.get.useQuery({ bookingId: bookingId }, { enabled: role === 'notary', retry: false });
  // The customer and each co-signer or witness by their own link (their own fields and answers; decision 123).
  const signer = trpc.manageAct.get.useQuery({ token }, { enabled: role !== 'notary' && !!token, retry: false });
  useSessionUpdates(
    {
      cancel: () => (role === 'notary' ? utils.act.get.cancel({ bookingId: bookingId }) : utils.manageAct.get.cancel({ token })),
      refetch: () => (role === 'notary' ? utils.act.get.refetch({ bookingId: bookingId }) : utils.manageAct.get.refetch({ token })),
    },
    undefined,
  );
  const setView = (view: ActView) => (role === 'notary' ? utils.act.get.setData({ bookingId: bookingId }, view) : utils.manageAct.get.setData({ token }, view));
  return { view: role === 'notary' ? staff.data : signer.data, setView, token };
}

/**
 * Each signer's colour (decision 123): the customer's first, then each
 * co-signer's and witness's by `tone`. Colour is never the only sign: every
 * field also says whose it is in words.
 */
const signerTones = ['border-blue-700 bg-blue-50/85', 'border-fuchsia-700 bg-fuchsia-50/85', 'border-teal-700 bg-teal-50/85', 'border-orange-700 bg-orange-50/85'];
export const toneOf = (signer: ActSigner | undefined) => signerTones[(signer?.tone ?? 0) % signerTones.length]!;
/** The field's signer among the act's signers (null participant: the customer). */
export const signerOf = (signers: readonly ActSigner[], field: Pick<FieldView, 'participantId'>) => signers.find((s) => s.participantId === field.participantId);
const forWhom = (signer: ActSigner | undefined) => (signer ? (signer.role === 'witness' ? `${signer.name} (witness)` : signer.name) : 'another signer');

/**
 * What a field shows: its kind while empty, "Signed", "Initialled" or its text once
 * filled; with several signers, also whose it is ("Signature · Ada Lovelace").
 * The same words on the page and on the notary's recording (fields-overlay.ts).
 */
export function fieldCaption(field: FieldView, signers: readonly ActSigner[]): string {
  const shown = field.filled ? filledWords(field) : fieldKindLabels[field.kind];
  return signers.length > 1 ? `${shown} · ${signerOf(signers, field)?.name ?? forWhom(undefined)}` : shown;
}

/** A filled field's words: its text, or "Signed" / "Initialled". */
const filledWords = (field: FieldView) => field.text ?? (field.kind === 'initials' ? 'Initialled' : 'Signed');

/** The notary's palette: whose field (For: each signer taking part), and the kind (drag it onto the page, or place it at the focus point). */
export function FieldPalette(props: {
  kind: FieldKind | null;
  onKind: (kind: FieldKind | null) => void;
  onPlace: () => void;
  busy: boolean;
  disabled: boolean;
  signers: readonly ActSigner[];
  forId: string | null;
  onFor: (participantId: string | null) => void;
}) {
  const current = props.signers.find((s) => s.participantId === props.forId);
  return (
    <div role="group" aria-label="Add a field" className="flex flex-wrap items-center gap-2 rounded-md border border-slate-200 bg-slate-50 p-2">
      {props.signers.filter((s) => s.active).length > 1 && (
        <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
          For:
          <select
            className={`rounded border-2 px-2 py-1 text-sm font-semibold text-slate-900 ${toneOf(current)}`}
            value={props.forId ?? ''}
            onChange={(event) => props.onFor(event.target.value || null)}
          >
            {props.signers
              .filter((s) => s.active)
              .map((s) => (
                <option key={s.participantId ?? 'customer'} value={s.participantId ?? ''}>
                  {forWhom(s)}
                </option>
              ))}
          </select>
        </label>
      )}
      <span className="text-sm font-medium text-slate-800">Fields:</span>
      {fieldKinds.map((kind) => (
        <button
          key={kind}
          type="button"
          draggable={!props.disabled}
          aria-pressed={props.kind === kind}
          disabled={props.disabled}
          onClick={() => props.onKind(props.kind === kind ? null : kind)}
          onDragStart={(event) => {
            event.dataTransfer.setData('application/x-field-kind', kind);
            event.dataTransfer.effectAllowed = 'copy';
            props.onKind(kind);
          }}
          className={`cursor-grab rounded border-2 px-2 py-1 text-sm font-semibold text-slate-900 aria-pressed:ring-2 aria-pressed:ring-blue-700 disabled:cursor-not-allowed disabled:opacity-60 ${toneOf(current)}`}
        >
          {fieldKindLabels[kind]}
        </button>
      ))}
      <Button type="button" size="sm" disabled={!props.kind || props.busy || props.disabled} onClick={props.onPlace}>
        {props.kind ? `Place ${fieldKindLabels[props.kind]} field` : 'Place field'}
      </Button>
      <p className="w-full text-xs text-slate-700">
        Drag a field onto the page, or choose one and place it at the marked point (click the page to move the mark). A placed field: drag to move, drag its corner to resize; or arrow keys to move, Shift+arrow keys to resize, Delete to remove.
      </p>
    </div>
  );
}

/**
 * The fields of one page, over the page's canvas. `children` is the page;
 * the layer sizes itself to it.
 */
export function FieldLayer(props: {
  role: SessionRole;
  page: number;
  fields: FieldView[];
  /** Whose each field is (its colour and name), and the viewer's own participant id (null: the customer). */
  signers: readonly ActSigner[];
  viewerParticipantId: string | null;
  /** Notary: the kind to place, the focus point, and what to do with a box. */
  placing?: {
    kind: FieldKind | null;
    focus: { x: number; y: number };
    onFocus: (point: { x: number; y: number }) => void;
    onDropKind: (kind: FieldKind, point: { x: number; y: number }) => void;
    onSave: (field: FieldView, box: Box) => void;
    onRemove: (field: FieldView) => void;
    focusId: string | null;
    editable: boolean;
  };
  /** Signer: a field clicked. */
  onFill?: (field: FieldView) => void;
  children: ReactNode;
}) {
  const layerRef = useRef<HTMLDivElement>(null);
  const [drafts, setDrafts] = useState<Record<string, Box>>({});
  const drag = useRef<{ id: string; mode: 'move' | 'resize'; start: { x: number; y: number }; box: Box; moved: boolean } | null>(null);
  const saveTimers = useRef<Record<string, ReturnType<typeof setTimeout>>>({});
  const placing = props.placing;

  // A draft is dropped once the server's box matches it (saved), so both sides show the same.
  useEffect(() => {
    setDrafts((current) => {
      const next = { ...current };
      for (const field of props.fields) {
        const draft = next[field.id];
        if (draft && Math.abs(draft.x - field.x) < 1e-9 && Math.abs(draft.y - field.y) < 1e-9 && Math.abs(draft.width - field.width) < 1e-9 && Math.abs(draft.height - field.height) < 1e-9) delete next[field.id];
      }
      return Object.keys(next).length === Object.keys(current).length ? current : next;
    });
  }, [props.fields]);

  useEffect(() => {
    if (!placing?.focusId) return;
    layerRef.current?.querySelector<HTMLElement>(`[data-field-id="${placing.focusId}"]`)?.focus();
  }, [placing?.focusId, props.fields]);

  useEffect(() => {
    const timers = saveTimers.current;
    return () => Object.values(timers).forEach(clearTimeout);
  }, []);

  const pointOf = (clientX: number, clientY: number) => {
    const rect = layerRef.current!.getBoundingClientRect();
    return { x: clamp((clientX - rect.left) / rect.width, 0, 1), y: clamp((clientY - rect.top) / rect.height, 0, 1) };
  };
  const boxOf = (field: FieldView): Box => drafts[field.id] ?? { x: field.x, y: field.y, width: field.width, height: field.height };
  const change = (field: FieldView, box: Box, delay: number) => {
    const fitted = fitBox(box);
    setDrafts((current) => ({ ...current, [field.id]: fitted }));
    clearTimeout(saveTimers.current[field.id]);
    saveTimers.current[field.id] = setTimeout(() => placing?.onSave(field, fitted), delay);
  };

  const onPage = props.fields.filter((f) => f.page === props.page);
  return (
    <div
      ref={layerRef}
      className="relative"
      onDragOver={placing?.editable ? (event) => event.preventDefault() : undefined}
      onDrop={
        placing?.editable
          ? (event) => {
              const kind = event.dataTransfer.getData('application/x-field-kind') as FieldKind;
              if (!fieldKinds.includes(kind)) return;
              event.preventDefault();
              placing.onDropKind(kind, pointOf(event.clientX, event.clientY));
            }
          : undefined
      }
      onClick={
        placing?.editable
          ? (event) => {
              if (event.target === event.currentTarget || (event.target as HTMLElement).tagName === 'CANVAS') placing.onFocus(pointOf(event.clientX, event.clientY));
            }
          : undefined
      }
    >
      {props.children}
      {placing?.editable && (
        <span
          aria-hidden="true"
          data-testid="field-focus-point"
          className="pointer-events-none absolute h-4 w-4 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 border-blue-700 bg-white/60"
          style={{ left: `${placing.focus.x * 100}%`, top: `${placing.focus.y * 100}%` }}
        />
      )}
      {onPage.map((field) => {
        const box = boxOf(field);
        const owner = signerOf(props.signers, field);
        const whose = forWhom(owner);
        const multi = props.signers.length > 1;
        // With several signers every field names its signer, in words and in its colour.
        const name = multi ? `${fieldName(field.kind, field.page)} for ${whose}` : fieldName(field.kind, field.page);
        const style = { left: `${box.x * 100}%`, top: `${box.y * 100}%`, width: `${box.width * 100}%`, height: `${box.height * 100}%` };
        const done = filledWords(field);
        const shown = fieldCaption(field, props.signers);
        const tone = toneOf(owner);
        const mine = field.participantId === props.viewerParticipantId;
        if (placing) {
          const editable = placing.editable && !field.filled;
          return (
            <div
              key={field.id}
              data-field-id={field.id}
              role="button"
              tabIndex={0}
              aria-describedby={editable ? 'field-keys-hint' : undefined}
              data-signer={owner?.name}
              className={`absolute flex touch-none select-none items-center overflow-hidden rounded-sm border-2 px-1 text-xs font-semibold text-slate-900 focus-visible:outline-3 focus-visible:outline-offset-1 focus-visible:outline-blue-800 ${tone} ${editable ? 'cursor-move' : ''}`}
              style={style}
              onKeyDown={
                editable
                  ? (event) => {
                      const moves: Record<string, [number, number]> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
                      const move = moves[event.key];
                      if (move) {
                        event.preventDefault();
                        change(field, event.shiftKey ? { ...box, width: box.width + move[0], height: box.height + move[1] } : { ...box, x: box.x + move[0], y: box.y + move[1] }, 400);
                      } else if (event.key === 'Delete' || event.key === 'Backspace') {
                        event.preventDefault();
                        placing.onRemove(field);
                      }
                    }
                  : undefined
              }
              onPointerDown={
                editable
                  ? (event) => {
                      if (event.button !== 0) return;
                      event.currentTarget.setPointerCapture(event.pointerId);
                      const mode = (event.target as HTMLElement).dataset.resize ? 'resize' : 'move';
                      drag.current = { id: field.id, mode, start: pointOf(event.clientX, event.clientY), box, moved: false };
                    }
                  : undefined
              }
              onPointerMove={
                editable
                  ? (event) => {
                      const d = drag.current;
                      if (!d || d.id !== field.id) return;
                      const p = pointOf(event.clientX, event.clientY);
                      const [dx, dy] = [p.x - d.start.x, p.y - d.start.y];
                      d.moved = true;
                      const next = d.mode === 'move' ? { ...d.box, x: d.box.x + dx, y: d.box.y + dy } : { ...d.box, width: d.box.width + dx, height: d.box.height + dy };
                      setDrafts((current) => ({ ...current, [field.id]: fitBox(next) }));
                    }
                  : undefined
              }
              onPointerUp={
                editable
                  ? () => {
                      const d = drag.current;
                      drag.current = null;
                      if (d?.moved && d.id === field.id) change(field, drafts[field.id] ?? d.box, 0);
                    }
                  : undefined
              }
            >
              {/* Named by its words: "{Kind} field on page {n}[ for {signer}][, filled]"; what it was filled with is shown beside (WCAG 2.5.3). */}
              <span className="truncate">
                {fieldKindLabels[field.kind]}
                <span className="sr-only"> field on page {field.page}</span>
                {multi && ` for ${whose}`}
                {field.filled && <span className="sr-only">, filled</span>}
                {field.filled && <span aria-hidden="true">: {done}</span>}
              </span>
              {editable && <span data-resize="true" aria-hidden="true" className="absolute bottom-0 right-0 h-3 w-3 cursor-nwse-resize bg-blue-800" />}
            </div>
          );
        }
        // Another signer's field: shown with their name, never fillable from this link (the server refuses it too).
        return field.filled || !mine ? (
          <div key={field.id} role="note" aria-label={field.filled ? `${name}, filled` : name} data-signer={owner?.name} className={`absolute flex items-center overflow-hidden rounded-sm border-2 px-1 text-xs font-semibold text-slate-900 ${tone}`} style={style}>
            <span className="truncate">{shown}</span>
          </div>
        ) : (
          <button
            key={field.id}
            type="button"
            onClick={() => props.onFill?.(field)}
            data-signer={owner?.name}
            className="absolute flex items-center overflow-hidden rounded-sm border-2 border-dashed border-amber-800 bg-yellow-200 px-1 text-xs font-semibold text-slate-950 shadow-[0_0_0_3px_rgba(250,204,21,0.6)] focus-visible:outline-3 focus-visible:outline-offset-1 focus-visible:outline-blue-800"
            style={style}
          >
            {/* Named "{Kind} field on page {n}: click to fill": the visible words are part of the name (WCAG 2.5.3). */}
            <span className="truncate">
              {fieldKindLabels[field.kind]}
              <span className="sr-only"> field on page {field.page}</span>
              {multi && ` for ${whose}`}: click to fill
            </span>
          </button>
        );
      })}
      {placing?.editable && (
        <p id="field-keys-hint" className="sr-only">
          Arrow keys move the field, Shift with arrow keys resizes it, Delete removes it.
        </p>
      )}
    </div>
  );
}

/** The initials of a name: "Grace Brewster Hopper" → "GBH". */
export function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase())
    .join('');
}

/** The signer's side of filling: the signature or initials pad, the text input, the errors. */
export function SignerFieldForms(props: { token: string; view: ActView; filling: FieldView | null; onDone: () => void; onView: (view: ActView) => void }) {
  const { filling, view, token } = props;
  const adopt = trpc.manageAct.adoptSignature.useMutation({
    onSuccess: (next) => {
      props.onView(next);
      props.onDone();
    },
  });
  const fill = trpc.manageAct.fillField.useMutation({
    onSuccess: (next) => {
      props.onView(next);
      props.onDone();
    },
  });
  const [text, setText] = useState('');
  const error = adopt.error ?? fill.error;
  if (!filling) return error ? <p role="alert" className="text-sm text-red-700">{errorMessage(error)}</p> : null;
  const name = fieldName(filling.kind, filling.page);
  return (
    <section aria-label={`Fill the ${name}`} className="grid gap-2 rounded-md border border-amber-300 bg-amber-50 p-3">
      <p className="text-sm font-semibold text-slate-900">{name}</p>
      {filling.kind === 'signature' || filling.kind === 'initials' ? (
        <SignaturePad
          key={filling.kind}
          signerName={filling.kind === 'initials' ? initialsOf(view.signerName) : view.signerName}
          initials={filling.kind === 'initials'}
          busy={adopt.isPending}
          onAdopt={(signature) => adopt.mutate({ token, documentId: filling.documentId, field: filling.kind === 'initials' ? 'initials' : 'signature', ...signature })}
        />
      ) : (
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            fill.mutate({ token, fieldId: filling.id, kind: 'text', text });
          }}
        >
          <div className="grid gap-1">
            <Label htmlFor="field-text">Text for this field</Label>
            <Input id="field-text" value={text} onChange={(e) => setText(e.target.value)} maxLength={maxFieldText} required autoFocus />
          </div>
          <Button type="submit" disabled={fill.isPending || !text.trim()}>
            Fill in
          </Button>
        </form>
      )}
      <Button type="button" variant="outline" size="sm" className="w-fit" onClick={props.onDone}>
        Cancel
      </Button>
      {error && <p role="alert" className="text-sm text-red-700">{errorMessage(error)}</p>}
    </section>
  );
}

/** This browser's language and time zone: a Date field is filled in them (the server writes the date). */
export function browserLocale(): { locale: string; timeZone: string } {
  const options = Intl.DateTimeFormat().resolvedOptions();
  return { locale: navigator.language || options.locale || 'en-US', timeZone: options.timeZone || 'UTC' };
}
