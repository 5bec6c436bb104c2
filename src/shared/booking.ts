import { isMailSafeEmail, isSingleLine, singleLineMessage } from './fields.ts';
import { z } from 'zod';
import type { AcceptedContentType, BookingStatus } from './booking-rules.ts';
import type { BookedParticipant } from './participants.ts';
import type { PriceLine } from './pricing.ts';
import { isValidTimeZone } from './zones.ts';

// Statuses, their groups, file limits and messages: in booking-rules.ts (no Zod), re-exported here.
export * from './booking-rules.ts';

/**
 * The booking API's inputs and outputs, shared by the server (which parses every
 * input with these) and the wizard (which shows the same messages before sending).
 * Visitor-facing strings are those of docs/product.md §4, word for word.
 */

// ---- Field schemas ---------------------------------------------------------

export const bookingIdSchema = z.uuid({ message: 'Invalid booking id' });
export const documentIdSchema = z.uuid({ message: 'Invalid document id' });
export const timeZoneSchema = z.string().min(1).max(64).refine(isValidTimeZone, 'Unknown time zone');
export const isoDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use the form YYYY-MM-DD')
  .refine((value) => {
    const [y, m, d] = value.split('-').map(Number) as [number, number, number];
    const date = new Date(Date.UTC(y, m - 1, d));
    return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
  }, 'Not a calendar date');


/** Contact step, with the messages of docs/product.md §4.5; `abort` so an empty field shows only "required". */
export const contactSchema = z.object({
  firstName: z.string().trim().min(1, { message: 'First name is required', abort: true }).max(100).refine(isSingleLine, singleLineMessage('First name')),
  lastName: z.string().trim().min(1, { message: 'Last name is required', abort: true }).max(100).refine(isSingleLine, singleLineMessage('Last name')),
  email: z
    .string()
    .trim()
    .min(1, { message: 'Email is required', abort: true })
    .max(254, { message: 'Please enter a valid email address', abort: true })
    // The spec's simple {email} shape, minus what a mail header would misread (src/shared/fields.ts).
    .refine(isMailSafeEmail, 'Please enter a valid email address'),
  phone: z
    .string()
    .trim()
    .min(1, { message: 'Phone number is required', abort: true })
    .max(40, { message: 'Please enter a valid phone number', abort: true })
    .refine((value) => value.replace(/\D/g, '').length >= 10 && isSingleLine(value), 'Please enter a valid phone number'),
});
export type ContactInput = z.infer<typeof contactSchema>;

// ---- Procedure inputs ------------------------------------------------------

export const startBookingInput = z.object({ timeZone: timeZoneSchema });
export const bookingRefInput = z.object({ bookingId: bookingIdSchema });
export const holdInput = z.object({ bookingId: bookingIdSchema, startsAt: z.coerce.date(), timeZone: timeZoneSchema });
export const saveContactInput = contactSchema.extend({ bookingId: bookingIdSchema });
export const slotsListInput = z.object({ date: isoDateSchema, timeZone: timeZoneSchema });

export const createUploadInput = z.object({
  bookingId: bookingIdSchema,
  fileName: z.string().trim().min(1).max(255),
  sizeBytes: z.number().int().min(0),
  /** What the browser declared; informational only, the bytes decide. */
  contentType: z.string().max(255).default(''),
  /** The customer marks it supporting (an ID photo, a reference copy): shown to the notary, never notarized or charged. */
  supporting: z.boolean().default(false),
});
export const removeDocumentInput = z.object({ bookingId: bookingIdSchema, documentId: documentIdSchema });

// ---- Outputs ---------------------------------------------------------------

export interface DocumentView {
  id: string;
  name: string;
  sizeBytes: number;
  contentType: AcceptedContentType;
  /** 'skipped' when no scanner is configured; an 'infected' document blocks payment. */
  scanStatus: 'unscanned' | 'clean' | 'infected' | 'skipped';
  /** A supporting file (marked at upload, or by the notary in the room): never sealed, journaled or charged. */
  supporting: boolean;
}

export interface ContactView {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
}

export interface PaymentView {
  provider: 'stripe' | 'test';
  providerPaymentId: string;
  amountCents: number;
  currency: string;
  status: string;
  method: 'card' | 'cashapp' | null;
  createdAt: Date;
}

export interface BookingView {
  id: string;
  reference: string;
  status: BookingStatus;
  /** 'on_demand': Notarize now (no slot; it starts when a notary accepts). */
  kind: 'scheduled' | 'on_demand';
  startsAt: Date | null;
  timeZone: string;
  priceCents: number;
  currency: string;
  /** Null unless the slot is currently held for this booking (or it has expired). */
  holdExpiresAt: Date | null;
  documents: DocumentView[];
  contact: ContactView | null;
  payment: PaymentView | null;
  /** Co-signers and witnesses added while booking (decision 125). */
  participants: BookedParticipant[];
  /** The price line by line: the session, then each co-signer whose fee is above zero. */
  priceLines: PriceLine[];
}

export interface SlotView {
  startsAt: Date;
  remaining: number;
  available: boolean;
}

export interface SlotsListView {
  date: string;
  timeZone: string;
  slots: SlotView[];
}

export interface UploadTarget {
  documentId: string;
  uploadUrl: string;
  expiresAt: Date;
}

/** Body of a successful `PUT /api/uploads/:token` (201). Errors answer `{ error }`. */
export interface UploadResult {
  document: { id: string; name: string; sizeBytes: number; contentType: AcceptedContentType };
}
