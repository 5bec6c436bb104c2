/**
 * Booking statuses and their groups, document limits and the visitor-facing
 * messages of docs/product.md §4, word for word. No Zod here: the booking
 * wizard's first step needs these without the schemas (booking.ts re-exports
 * everything, and holds the schemas; docs/decisions/050-first-paint-and-route-preloads.md).
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
/** An image whose header declares more than 50 megapixels (decompression bombs included). */
export const imageTooLargeMessage = (file: string) =>
  `${file} is too large an image: at most 50 megapixels (for example 8,000 × 6,000 pixels). Please upload a smaller scan.`;
/** A PDF with an image that is not readable, or a password: we cannot notarize what we cannot open. */
export const unreadableImageMessage = (file: string) => `${file} could not be read as an image. Please upload it again or as a PDF.`;
export const encryptedPdfMessage = (file: string) =>
  `${file} is password-protected or encrypted. Please remove the protection and upload it again.`;
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
/** Supporting files (an ID photo, a reference copy) are shown to the notary but not notarized: a booking needs one document to notarize. */
export const onlySupportingMessage = 'Please upload at least one document to notarize: supporting files are shown to the notary but not notarized.';
/** The wizard's mark on a file at upload (docs/product.md §12.10). */
export const supportingFileLabel = 'Supporting file — an ID photo or a reference copy; shown to the notary, not notarized';
/** Whether a booking has a document to notarize (supporting files do not count). */
export const hasDocumentToNotarize = (documents: readonly { supporting: boolean }[]): boolean => documents.some((d) => !d.supporting);
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
