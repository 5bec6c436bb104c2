import { z } from 'zod';
import { manageTokenSchema } from './manage-booking.ts';
import { isSingleLine, singleLineMessage } from './fields.ts';

/**
 * Fields on a document (docs/decisions/100-document-fields.md): the notary
 * places Signature, Initials, Date and Text fields on any page; the signer
 * fills each. A field's box is in fractions of its page (0..1 from the top
 * left), so the viewer, whatever its size, and the seal, in PDF points, put
 * it in the same place. Shared by the room (both sides) and the server.
 */
export const fieldKinds = ['signature', 'initials', 'date', 'text'] as const;
export type FieldKind = (typeof fieldKinds)[number];

export const fieldKindLabels: Record<FieldKind, string> = { signature: 'Signature', initials: 'Initials', date: 'Date', text: 'Text' };

/** A field is at least this big (a fraction of the page: ~12 × 12 pt on a Letter page) and at most the page. */
export const minFieldWidth = 0.02;
export const minFieldHeight = 0.015;
/** A sane bound on the fields of one document. */
export const maxFieldsPerDocument = 60;
/** A text field holds one line of at most this many characters. */
export const maxFieldText = 200;

/** The size a field starts at when placed (a fraction of the page). */
export const defaultFieldSize: Record<FieldKind, { width: number; height: number }> = {
  signature: { width: 0.3, height: 0.06 },
  initials: { width: 0.1, height: 0.05 },
  date: { width: 0.2, height: 0.035 },
  text: { width: 0.3, height: 0.035 },
};

/** "Signature field on page 3": every field's accessible name. */
export function fieldName(kind: FieldKind, page: number): string {
  return `${fieldKindLabels[kind]} field on page ${page}`;
}

export const fieldMessages = {
  outsidePage: 'A field must lie entirely on the page.',
  tooSmall: 'A field must be at least 2% of the page wide and 1.5% high.',
  noSuchPage: 'That page does not exist in this document.',
  tooMany: `A document can have at most ${maxFieldsPerDocument} fields.`,
  notFound: 'That field is no longer on the document.',
  filled: 'The signer has filled this field; it can no longer be moved or removed.',
  alreadyFilled: 'This field is filled already.',
  wrongKind: 'This field is filled another way.',
  textRequired: 'Type the text for this field.',
  textTooLong: `The text can be at most ${maxFieldText} characters.`,
  badLocale: 'Your browser’s language or time zone could not be read, so the date could not be filled. Please reload the page.',
  noSignatureField: 'Place at least one Signature field for the signer.',
  /** Each signer fills only their own fields (decision 123). */
  notYours: 'This field is for another signer: each signer fills only their own fields.',
  /** The notary chose someone who is not a signer of this session (or no longer takes part). */
  unknownSigner: 'Choose a signer who is taking part in this session.',
} as const;

const fraction = z.number().finite().min(0).max(1);

/** A field's box: a page, and fractions of it. */
export const fieldBoxSchema = z.object({
  page: z.number().int().min(1).max(2000),
  x: fraction,
  y: fraction,
  width: fraction,
  height: fraction,
});

/** What is wrong with a box as a whole (off the page, too small), or null: the server's rule, the client's clamp. */
export function fieldBoxProblem(box: { x: number; y: number; width: number; height: number }): string | null {
  if (box.width < minFieldWidth - 1e-9 || box.height < minFieldHeight - 1e-9) return fieldMessages.tooSmall;
  // A hair of tolerance for floating point.
  if (box.x + box.width > 1 + 1e-6 || box.y + box.height > 1 + 1e-6) return fieldMessages.outsidePage;
  return null;
}

type Box = { x: number; y: number; width: number; height: number };
const clamp = (value: number, min: number, max: number) => Math.min(Math.max(value, min), max);

/** A box kept on the page and at least the minimum size (how the viewer keeps a dragged or resized field valid). */
export function fitBox(box: Box): Box {
  const width = clamp(box.width, minFieldWidth, 1);
  const height = clamp(box.height, minFieldHeight, 1);
  return { x: clamp(box.x, 0, 1 - width), y: clamp(box.y, 0, 1 - height), width, height };
}

/** A new field of `kind` at its default size, centred on a point of the page (kept on the page). */
export function boxAt(kind: FieldKind, point: { x: number; y: number }): Box {
  const size = defaultFieldSize[kind];
  return fitBox({ x: point.x - size.width / 2, y: point.y - size.height / 2, ...size });
}

/** The notary places a field (no id) or moves / resizes one (its id). */
export const saveFieldInput = z
  .object({
    bookingId: z.uuid(),
    documentId: z.uuid(),
    fieldId: z.uuid().optional(),
    kind: z.enum(fieldKinds),
    /** Whose field: a co-signer or witness; null or absent, the booking's customer (decision 123). Kept when a field moves. */
    participantId: z.uuid().nullable().optional(),
  })
  .extend(fieldBoxSchema.shape);
export const removeFieldInput = z.object({ bookingId: z.uuid(), fieldId: z.uuid() });

/** The signer fills a Date field (the server writes today's date in this locale and zone) or a Text field. */
export const fillFieldInput = z.discriminatedUnion('kind', [
  z.object({
    token: manageTokenSchema,
    fieldId: z.uuid(),
    kind: z.literal('date'),
    locale: z.string().trim().min(2).max(35).regex(/^[A-Za-z0-9-]+$/, fieldMessages.badLocale),
    timeZone: z.string().trim().min(1).max(64).regex(/^[A-Za-z0-9_+\-/]+$/, fieldMessages.badLocale),
  }),
  z.object({
    token: manageTokenSchema,
    fieldId: z.uuid(),
    kind: z.literal('text'),
    text: z.string().trim().min(1, fieldMessages.textRequired).max(maxFieldText, fieldMessages.textTooLong).refine(isSingleLine, singleLineMessage('The text')),
  }),
]);

/** A field as both sides see it (a signature's image stays on the server; `filled` says it is there). */
export interface FieldView {
  id: string;
  documentId: string;
  kind: FieldKind;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  participantId: string | null;
  filled: boolean;
  /** A date or text field's value (null for signatures and initials, and while empty). */
  text: string | null;
  filledAt: Date | null;
}

/** The first empty field in reading order (page, then top to bottom, then left to right). */
export function nextEmptyField(fields: FieldView[]): FieldView | null {
  return [...fields].filter((f) => !f.filled).sort((a, b) => a.page - b.page || a.y - b.y || a.x - b.x)[0] ?? null;
}

/** Today's date in the signer's locale and time zone (US English: MM/DD/YYYY); null when either is not one Intl knows. */
export function formatFieldDate(now: Date, locale: string, timeZone: string): string | null {
  try {
    return new Intl.DateTimeFormat(locale, { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  } catch {
    return null;
  }
}
