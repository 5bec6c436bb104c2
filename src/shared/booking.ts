import { isMailSafeEmail, isSingleLine, singleLineMessage } from './fields.ts';
import { z } from 'zod';
import { isValidTimeZone } from './time.ts';

/**
 * The booking API's inputs and outputs, shared by the server (which parses every
 * input with these) and the wizard (which shows the same messages before sending).
 * Visitor-facing strings are those of docs/product.md §4, word for word.
 */

export const bookingStatuses = [
  'draft',
  'held',
  'awaiting_payment',
  'payment_processing',
  'confirmed',
  'completed',
  'no_show',
  /** The session took place but the act could not be performed (reason on the session). */
  'not_completed',
  'cancelled',
] as const;
export type BookingStatus = (typeof bookingStatuses)[number];

// ---- Status groups (docs/product.md §4.10): every rule asks these, none re-lists statuses.

/** Nobody has paid yet (retention closes these when abandoned). */
export const unpaidStatuses: readonly BookingStatus[] = ['draft', 'held', 'awaiting_payment'];
/** Documents, time and contact details may still change: exactly while unpaid. */
export const editableStatuses = unpaidStatuses;
/** The money was taken. */
export const paidStatuses: readonly BookingStatus[] = ['confirmed', 'completed', 'no_show'];
/** Take a unit of their slot whatever the clock says: paid, or being paid (Cash App Pay). */
export const slotKeepingStatuses: readonly BookingStatus[] = ['payment_processing', ...paidStatuses];
/** Take a unit of their slot only while their hold has not expired. */
export const holdingStatuses: readonly BookingStatus[] = ['held', 'awaiting_payment'];
/** An appointment that stands and has not happened yet: it may be moved, and cancelled until it starts. */
export const standingStatuses: readonly BookingStatus[] = ['payment_processing', 'confirmed'];
/** A booking with a time that staff may cancel (abandoned drafts are closed by retention). */
export const cancellableStatuses: readonly BookingStatus[] = ['held', 'awaiting_payment', 'payment_processing', 'confirmed'];
/** The appointment is over, one way or another: documents are kept only for the retention period. */
export const endedStatuses: readonly BookingStatus[] = ['completed', 'no_show', 'not_completed', 'cancelled'];

export const isEditable = (status: BookingStatus): boolean => editableStatuses.includes(status);
export const isPaid = (status: BookingStatus): boolean => paidStatuses.includes(status);

// ---- Files ---------------------------------------------------------------

export const maxFileBytes = 10_485_760;
export const maxDocumentsPerBooking = 20;
export const acceptedContentTypes = ['application/pdf', 'image/jpeg', 'image/png'] as const;
export type AcceptedContentType = (typeof acceptedContentTypes)[number];
/** What the file picker offers (the server still judges by the bytes). */
export const acceptedFileExtensions = ['.pdf', '.jpg', '.jpeg', '.png'] as const;

export const fileTooLargeMessage = (file: string) => `${file} exceeds the maximum file size of 10MB.`;
export const unsupportedFileMessage = (file: string) =>
  `${file} is not a supported file type. Please upload PDF, JPEG, or PNG.`;
export const emptyFileMessage = (file: string) => `${file} is empty.`;
export const incompleteUploadMessage = (file: string) => `${file} did not finish uploading. Please try again.`;
export const infectedFileMessage = (file: string) => `${file} failed the virus scan and was removed.`;
/** The store refused the bytes (disk or quota full): the visitor's file is fine, waiting helps. */
export const storageFullMessage = (file: string) =>
  `We could not save ${file}: our document storage is full. Nothing was kept. Please try again in a few minutes, or contact us if this keeps happening.`;
/** The store could not be written at all (read-only, unreachable). */
export const storageUnavailableMessage = (file: string) =>
  `We could not save ${file}: our document storage is not available right now. Nothing was kept. Please try again in a few minutes.`;
/** The node was shutting down and the upload ran past its deadline. */
export const uploadInterruptedMessage = (file: string) =>
  `${file} was interrupted because the server is restarting. Nothing was kept. Please upload it again.`;
export const uploadLinkInvalidMessage = 'This upload link is invalid or has expired.';
export const noDocumentsMessage = 'Please upload at least one document before continuing.';
export const tooManyDocumentsMessage = `You can upload at most ${maxDocumentsPerBooking} documents.`;

// ---- Messages for the other refusals -------------------------------------

export const bookingNotFoundMessage = 'Booking not found';
export const documentNotFoundMessage = 'Document not found';
export const slotTakenMessage = 'That time was just taken. Please choose another.';
export const bookingLockedMessage = 'This booking has already been paid and can no longer be changed.';
export const slotInPastMessage = 'That time has already passed or is too soon. Please choose a later time.';
export const slotOutOfHoursMessage =
  'Appointments start every 30 minutes from 8:00 AM to 10:30 PM Central Time. Please choose one of the listed times.';
export const slotBeyondWindowMessage = 'That date is too far ahead. Please choose an earlier date.';
export const selectTimeFirstMessage = 'Please select both a date and time';
export const holdExpiredMessage = 'Your reserved time has expired. Please choose a time again.';
export const infectedDocumentsMessage = 'One of your documents failed the virus scan. Please remove it before paying.';

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
  startsAt: Date | null;
  timeZone: string;
  priceCents: number;
  currency: string;
  /** Null unless the slot is currently held for this booking (or it has expired). */
  holdExpiresAt: Date | null;
  documents: DocumentView[];
  contact: ContactView | null;
  payment: PaymentView | null;
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
