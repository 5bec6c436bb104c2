import { displayFileName } from '../../../shared/fields.ts';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  bookingLockedMessage,
  documentNotFoundMessage,
  isEditable,
  emptyFileMessage,
  fileTooLargeMessage,
  incompleteUploadMessage,
  infectedFileMessage,
  maxDocumentsPerBooking,
  maxFileBytes,
  storageFullMessage,
  storageUnavailableMessage,
  tooManyDocumentsMessage,
  uploadInterruptedMessage,
  unsupportedFileMessage,
  uploadLinkInvalidMessage,
  type AcceptedContentType,
  type BookingView,
  type UploadResult,
  type UploadTarget,
} from '../../../shared/booking.ts';
import type { Deps } from '../../deps.ts';
import { hashToken } from '../../tokens.ts';
import { writeAudit } from '../audit.ts';
import { findBooking, lockBookingRow, lockEditableBooking, recomputePrice, requireBookingView } from '../booking/service.ts';
import {
  claimUploadToken,
  countActiveDocuments,
  deleteDocumentRow,
  deleteExpiredPending,
  findDocument,
  insertPendingDocument,
  lockDocument,
  updateDocument,
  type DocumentRow,
} from './repository.ts';
import { DomainError } from '../../errors.ts';
import { checkDocumentContent } from './content-check.ts';
import { countedBody, readHead, type BodyStop, type RequestBody } from './upload-stream.ts';
import { markSupportingAtUpload } from '../act/service.ts';

/** A booking's documents as rows (the notarial act lists and seals them). */
export { findDocument as findBookingDocument, listBookingDocuments, type DocumentRow } from './repository.ts';

/**
 * A visitor's documents: a tRPC call creates a one-time upload target, the
 * browser PUTs the raw bytes to it (so its progress bar is real), and the
 * server decides from the bytes themselves what the file is.
 */

export const uploadTokenMinutes = 15;
/**
 * A PUT that spent its link must finish within this (the link may be spent at
 * its last second), so no upload can commit later than link + this: what the
 * orphan sweep's grace period is built on (documents/storage-owner.ts).
 */
export const maxUploadMinutes = 15;
/** The `cacheControl: 3600` of docs/product.md §4.2, sent as `private, max-age=3600` by stores that serve HTTP. */
export const documentCacheControlSeconds = 3600;
const uploadPath = '/api/uploads/';

// ---- What a file is, from its first bytes -----------------------------------

const signatures: { contentType: AcceptedContentType; ext: string; magic: Buffer }[] = [
  { contentType: 'application/pdf', ext: 'pdf', magic: Buffer.from('%PDF-', 'latin1') },
  { contentType: 'image/jpeg', ext: 'jpg', magic: Buffer.from([0xff, 0xd8, 0xff]) },
  { contentType: 'image/png', ext: 'png', magic: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
];
/** Enough bytes to tell every accepted type apart. */
export const sniffBytes = 8;

/** Judges a file by its signature; the name and the declared type are never consulted. */
export function detectFileType(head: Buffer): { contentType: AcceptedContentType; ext: string } | null {
  const match = signatures.find((s) => head.length >= s.magic.length && head.subarray(0, s.magic.length).equals(s.magic));
  return match ? { contentType: match.contentType, ext: match.ext } : null;
}

/** Control characters never belong in a name we show back or put in an email. */
export function cleanFileName(name: string): string {
  // Controls and bidi overrides out: "invoice\u202Efdp.exe" must not read as "invoiceexe.pdf".
  return displayFileName(name).trim().slice(0, 255) || 'document';
}

// ---- Creating an upload target ------------------------------------------------

export async function createUpload(
  deps: Deps,
  input: { bookingId: string; fileName: string; sizeBytes: number; contentType?: string; supporting?: boolean },
): Promise<UploadTarget> {
  const name = cleanFileName(input.fileName);
  return deps.db.transaction(async (tx) => {
    const booking = await lockEditableBooking(tx, input.bookingId);
    // The declared size is only a courtesy check; the PUT counts the real bytes.
    if (input.sizeBytes > maxFileBytes) throw new DomainError('PAYLOAD_TOO_LARGE', fileTooLargeMessage(name));
    if (input.sizeBytes === 0) throw new DomainError('BAD_REQUEST', emptyFileMessage(name));
    const now = deps.now();
    await deleteExpiredPending(tx, booking.id, now);
    if ((await countActiveDocuments(tx, booking.id, now)) >= maxDocumentsPerBooking) {
      throw new DomainError('BAD_REQUEST', tooManyDocumentsMessage);
    }
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(now.getTime() + uploadTokenMinutes * 60_000);
    const row = await insertPendingDocument(tx, {
      bookingId: booking.id,
      originalName: name,
      // The extension is added once the bytes have said what the file is.
      storageKey: `${booking.id}/${randomUUID()}`,
      uploadTokenHash: hashToken(token),
      uploadExpiresAt: expiresAt,
    });
    if (input.supporting) await markSupportingAtUpload(tx, deps, { bookingId: booking.id, documentId: row.id });
    return { documentId: row.id, uploadUrl: `${uploadPath}${token}`, expiresAt };
  });
}

// ---- Receiving the bytes ------------------------------------------------------

/** How each early stop of a body reads to the visitor. */
function bodyStopRefusal(why: BodyStop, name: string): DomainError {
  switch (why) {
    case 'too-large':
      return new DomainError('PAYLOAD_TOO_LARGE', fileTooLargeMessage(name));
    case 'too-slow':
      return new DomainError('TIMEOUT', incompleteUploadMessage(name));
    case 'shutting-down':
      return new DomainError('SERVICE_UNAVAILABLE', uploadInterruptedMessage(name));
    case 'aborted':
      return new DomainError('BAD_REQUEST', incompleteUploadMessage(name));
  }
}

async function claimUpload(deps: Deps, token: string): Promise<DocumentRow> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) throw new DomainError('NOT_FOUND', uploadLinkInvalidMessage);
  const claimed = await claimUploadToken(deps.db, hashToken(token), deps.now());
  if (!claimed) throw new DomainError('NOT_FOUND', uploadLinkInvalidMessage);
  const booking = await findBooking(deps.db, claimed.bookingId);
  if (!booking || !isEditable(booking.status)) {
    await deleteDocumentRow(deps.db, claimed.id);
    throw new DomainError('CONFLICT', bookingLockedMessage);
  }
  return claimed;
}

/**
 * `PUT /api/uploads/:token`: spends the token, judges the type from the first
 * bytes, then streams the body into storage while counting. Past
 * 10,485,760 bytes it stops (413); a body that ends early or is aborted leaves
 * nothing behind (400). On success the document is stored and the price
 * recomputed; on any failure the pending document and any object are removed.
 */
export async function receiveUpload(
  deps: Deps,
  { token, body, declaredLength }: { token: string; body: RequestBody; declaredLength: number | null },
): Promise<UploadResult> {
  const claimed = await claimUpload(deps, token);
  const name = claimed.originalName;
  let key: string | null = null;
  let keepRow = false;
  try {
    if (declaredLength !== null && declaredLength > maxFileBytes) throw new DomainError('PAYLOAD_TOO_LARGE', fileTooLargeMessage(name));
    if (declaredLength === 0) throw new DomainError('BAD_REQUEST', emptyFileMessage(name));
    const stop = (why: BodyStop) => bodyStopRefusal(why, name);
    const first = await readHead(body, sniffBytes, stop);
    if (first.head.length === 0) throw new DomainError('BAD_REQUEST', emptyFileMessage(name));
    const type = detectFileType(first.head);
    if (!type) throw new DomainError('UNSUPPORTED_MEDIA_TYPE', unsupportedFileMessage(name));
    key = `${claimed.storageKey}.${type.ext}`;

    const counted = countedBody(body, first, { maxBytes: maxFileBytes, timeoutMs: maxUploadMinutes * 60_000, deadline: deps.deadline, stop });
    try {
      await deps.storage.put(key, counted.stream, { contentType: type.contentType, cacheControlSeconds: documentCacheControlSeconds, upsert: true });
    } catch (error) {
      throw storageRefusal(error, name);
    } finally {
      counted.release();
    }
    const size = counted.size();
    if (declaredLength !== null && size !== declaredLength) throw new DomainError('BAD_REQUEST', incompleteUploadMessage(name));

    await checkDocumentContent((await deps.storage.get(key)).body, type.contentType, name);
    const scanStatus = await scanStored(deps, claimed, key);
    if (scanStatus === 'infected') {
      keepRow = true;
      await deps.db.transaction(async (tx) => {
        await updateDocument(tx, claimed.id, { status: 'deleted', scanStatus, contentType: type.contentType, sizeBytes: size, storageKey: key!, deletedAt: deps.now() });
        await writeAudit(tx, { actorType: 'system', action: 'document.infected', entityType: 'document', entityId: claimed.id, data: { bookingId: claimed.bookingId } });
      });
      throw new DomainError('UNPROCESSABLE_CONTENT', infectedFileMessage(name));
    }

    await deps.db.transaction(async (tx) => {
      // Re-checked under the row lock: a payment may have completed while the bytes were arriving.
      const booking = await lockBookingRow(tx, claimed.bookingId);
      if (!booking || !isEditable(booking.status)) throw new DomainError('CONFLICT', bookingLockedMessage);
      await updateDocument(tx, claimed.id, {
        status: 'stored',
        scanStatus,
        contentType: type.contentType,
        sizeBytes: size,
        storageKey: key!,
        storedAt: deps.now(),
        uploadExpiresAt: null,
      });
      await recomputePrice(tx, deps, booking.id);
      await writeAudit(tx, {
        actorType: 'customer',
        action: 'document.uploaded',
        entityType: 'document',
        entityId: claimed.id,
        data: { bookingId: booking.id, contentType: type.contentType, sizeBytes: size },
      });
    });
    keepRow = true;
    return { document: { id: claimed.id, name, sizeBytes: size, contentType: type.contentType } };
  } catch (error) {
    if (key) await deps.storage.delete(key).catch((err: unknown) => deps.log.warn({ err, key }, 'could not delete a refused upload'));
    if (!keepRow) await deleteDocumentRow(deps.db, claimed.id);
    throw error;
  }
}

/** Disk or quota full: nothing the visitor did, and waiting may help. */
const fullCodes = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);

/**
 * A failure of the store itself becomes a message the visitor can act on
 * (docs/decisions/028); refusals of the file (size, type, abort) pass as they are.
 * Recording chunks and their assembly answer a full disk with the same words.
 */
export function storageRefusal(error: unknown, name: string): unknown {
  if (error instanceof DomainError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code && fullCodes.has(code)) return new DomainError('INSUFFICIENT_STORAGE', storageFullMessage(name), { cause: error });
  return new DomainError('SERVICE_UNAVAILABLE', storageUnavailableMessage(name), { cause: error });
}

/** 'skipped' without a scanner; a scanner that cannot answer refuses the file rather than passing it. */
async function scanStored(deps: Deps, document: DocumentRow, key: string): Promise<'clean' | 'infected' | 'skipped'> {
  if (!deps.scanner) return 'skipped';
  try {
    const stored = await deps.storage.get(key);
    const result = await deps.scanner.scan(stored.body);
    return result.clean ? 'clean' : 'infected';
  } catch (err) {
    deps.log.error({ err, documentId: document.id }, 'virus scan failed');
    throw new DomainError('SERVICE_UNAVAILABLE', `We could not check ${document.originalName} right now. Please try again.`);
  }
}

/**
 * For a scanner that reports later: an infected document loses its bytes and
 * blocks payment (it stays listed, flagged, until the visitor removes it).
 */
export async function recordScanResult(deps: Deps, documentId: string, verdict: 'clean' | 'infected'): Promise<void> {
  const row = await deps.db.transaction(async (tx) => {
    const doc = await lockDocument(tx, documentId);
    if (!doc || doc.status !== 'stored') return null;
    await updateDocument(tx, documentId, verdict === 'infected' ? { scanStatus: 'infected', status: 'infected' } : { scanStatus: 'clean' });
    if (verdict === 'infected') {
      await recomputePrice(tx, deps, doc.bookingId);
      await writeAudit(tx, { actorType: 'system', action: 'document.infected', entityType: 'document', entityId: documentId, data: { bookingId: doc.bookingId } });
    }
    return doc;
  });
  if (row && verdict === 'infected') await deps.storage.delete(row.storageKey);
}

// ---- Removing and reading -----------------------------------------------------

export async function removeDocument(deps: Deps, { bookingId, documentId }: { bookingId: string; documentId: string }): Promise<BookingView> {
  const removed = await deps.db.transaction(async (tx) => {
    await lockEditableBooking(tx, bookingId);
    const doc = await findDocument(tx, bookingId, documentId);
    if (!doc || (doc.status !== 'stored' && doc.status !== 'infected')) {
      throw new DomainError('NOT_FOUND', documentNotFoundMessage);
    }
    await updateDocument(tx, doc.id, { status: 'deleted', deletedAt: deps.now() });
    await recomputePrice(tx, deps, bookingId);
    await writeAudit(tx, { actorType: 'customer', action: 'document.removed', entityType: 'document', entityId: doc.id, data: { bookingId } });
    return doc;
  });
  // After the commit: a failed delete leaves an orphan object, never a row pointing at nothing.
  await deps.storage.delete(removed.storageKey).catch((err: unknown) => deps.log.warn({ err, documentId }, 'could not delete a removed document'));
  return requireBookingView(deps.db, bookingId);
}

/**
 * The bytes of a stored document, for handlers that have already decided the
 * caller may see them (the manage link, the assigned notary, staff).
 */
export async function openDocument(
  deps: Deps,
  { bookingId, documentId }: { bookingId: string; documentId: string },
): Promise<{ name: string; contentType: AcceptedContentType; size: number; body: Readable }> {
  const doc = await findDocument(deps.db, bookingId, documentId);
  if (!doc || doc.status !== 'stored') throw new DomainError('NOT_FOUND', documentNotFoundMessage);
  const stored = await deps.storage.get(doc.storageKey);
  return { name: doc.originalName, contentType: doc.contentType as AcceptedContentType, size: stored.size, body: stored.body };
}
