import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { encryptedPdfMessage, imageTooLargeMessage, unreadableImageMessage, type AcceptedContentType } from '../../../shared/booking.ts';
import { DomainError } from '../../errors.ts';
import { imageSize, maxDocumentImagePixels, pngDataFits } from '../../images/image-header.ts';

/**
 * What an upload's bytes must be, beyond their type, for the notary to seal
 * them later (issue 24, findings 1 and 12): an image's declared size within
 * 50 megapixels, read from its header (nothing is decoded here), and its
 * compressed data no larger than that size; a PDF not encrypted. Refused at
 * upload, where the visitor can still send another file.
 */
export async function checkDocumentContent(body: Readable, contentType: AcceptedContentType, name: string): Promise<void> {
  if (contentType === 'application/pdf') {
    if (await isEncryptedPdf(body)) throw new DomainError('UNPROCESSABLE_CONTENT', encryptedPdfMessage(name));
    return;
  }
  // At most 10 MB (the upload's own cap).
  const bytes = await buffer(body);
  const size = imageSize(bytes, contentType);
  if (!size) throw new DomainError('UNPROCESSABLE_CONTENT', unreadableImageMessage(name));
  if (size.width * size.height > maxDocumentImagePixels) throw new DomainError('UNPROCESSABLE_CONTENT', imageTooLargeMessage(name));
  if (contentType === 'image/png' && !(await pngDataFits(bytes))) throw new DomainError('UNPROCESSABLE_CONTENT', unreadableImageMessage(name));
}

/**
 * An encrypted PDF names its encryption dictionary in the trailer (or the
 * cross-reference stream's dictionary, which is never compressed): `/Encrypt`
 * followed by a reference or a dictionary. Scanned as the bytes stream by,
 * keeping a short overlap so a match across two chunks is found too.
 */
const encryptEntry = /\/Encrypt\s*(?:\d+\s+\d+\s+R|<<)/;
export async function isEncryptedPdf(body: Readable): Promise<boolean> {
  let tail = '';
  for await (const chunk of body) {
    const text = tail + (chunk as Buffer).toString('latin1');
    if (encryptEntry.test(text)) {
      body.destroy();
      return true;
    }
    tail = text.slice(-64);
  }
  return false;
}
