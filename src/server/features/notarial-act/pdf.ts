import { createHash } from 'node:crypto';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { DEFAULT_BYTE_RANGE_PLACEHOLDER, SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFInvalidObject,
  PDFName,
  PDFRef,
  PDFStream,
  PDFString,
  StandardFonts,
  degrees,
  rgb,
  type PDFFont,
  type PDFObject,
  type PDFPage,
} from 'pdf-lib';
import { signDetached, type CmsSigner } from '../../crypto/cms.ts';
import { requestTimestamp, type TimestampAuthority } from '../../crypto/timestamp-authority.ts';
import { formatDateInZone, formatInZone, parseIsoDate, zoneAbbreviation, zonedInstant } from '../../../shared/time.ts';
import { signatureLevelLabels, type ActType, type SignatureLevel } from '../../../shared/notarial-act.ts';
import { imageSize, maxDocumentImagePixels, maxSignatureSize, pngDataFits } from '../../images/image-header.ts';
import { openP12Cached, testCertificateLabel } from './certificates.ts';
import { appendIncrementalUpdate, baseRevision, bytesOfObject, changedSince, snapshot } from './incremental-update.ts';
import { collectValidationData, checkNotRevoked } from './validation-data.ts';
import { CertificateError, NotNotarizableError, certificateMessages, documentProblems } from './seal-errors.ts';

/**
 * The sealed PDF, built in the seal worker (seal-worker.ts), never on the
 * request thread: the customer's document (images become pages) with its
 * active content removed, the signer's adopted signature where the notary
 * placed it, a notarial certificate page with the state's short-form wording
 * and the notary's electronic seal, then a PAdES signature with the notary's
 * certificate over the whole file (docs/decisions/035, 060): B-B always;
 * with a timestamp authority B-T, then the validation data (DSS, B-LT) and a
 * document timestamp (B-LTA) as incremental updates. A customer's PDF is not
 * rewritten: what the seal changes is appended to its own bytes as an
 * incremental update, so the upload is a byte-for-byte prefix of the sealed
 * file — unless active content had to be removed or its cross-reference data
 * leaves any doubt; then, as for an image, pdf-lib writes the whole file
 * (decision 139, incremental-update.ts).
 */
export interface SealInput {
  source: { bytes: Uint8Array; contentType: string };
  /** The fields the signer filled (decision 100): a box in fractions of its page from the top left; an image (signature, initials) or a line of text (date, text). */
  fields: SealField[];
  act: {
    type: ActType;
    performedAt: Date;
    timeZone: string;
    signerName: string;
    documentTitle: string;
    notaryName: string;
    commissionNumber: string;
    commissionExpiresOn: string;
    commissionState: string;
    county: string | null;
    /** The public verification page's code and link for this document (decision 091). */
    verification?: { code: string; url: string };
  };
  certificate: { p12: Uint8Array; password: string };
  /** With a TSA the seal goes to B-LTA; without, B-B. */
  tsa?: TimestampAuthority | null;
}

export interface SealField {
  kind: 'signature' | 'initials' | 'date' | 'text';
  page: number;
  box: { x: number; y: number; width: number; height: number };
  png?: Uint8Array;
  text?: string;
}

export interface SealResult {
  pdf: Buffer;
  sha256: string;
  pageCount: number;
  level: SignatureLevel;
}

const letter: [number, number] = [612, 792];
/** Bytes reserved for the CMS signature (certificates, the timestamp token): hex doubles it. */
const signatureBytes = 24_576;
const documentTimestampBytes = 12_288;

/** Standard PDF fonts speak WinAnsi only: anything else becomes "?" rather than an exception. */
function winAnsi(text: string): string {
  return text.replace(/[\u2018\u2019]/g, "'").replace(/[\u201c\u201d]/g, '"').replace(/[\u2013\u2014]/g, '-').replace(/[^\x20-\x7e\xa0-\xff]/g, '?');
}

/**
 * pdf-lib reads a Buffer's whole backing store (Node pools small ones): give
 * it bytes that own theirs, copying natively only when they do not
 * (`Uint8Array.from` would copy element by element through an iterator).
 */
const own = (bytes: Uint8Array) => (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes));

/**
 * The same bytes seen as a Buffer, without a copy. pdf-lib's parser takes
 * every stream's contents with `slice`: a view for a Buffer, a copy for a
 * plain Uint8Array — which is what the seal worker receives. As a Uint8Array
 * a 10 MB scan was copied once more, and its garbage slowed every later step
 * of the seal (decision 136). The views only read the customer's bytes, which
 * nothing writes to.
 */
const asBuffer = (bytes: Uint8Array): Buffer => (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));

export async function loadCustomerPdf(bytes: Uint8Array): Promise<PDFDocument> {
  let pdf: PDFDocument;
  try {
    // The document's own metadata (its Title above all) is kept as it is.
    pdf = await PDFDocument.load(asBuffer(own(bytes)), { updateMetadata: false });
  } catch (error) {
    // pdf-lib's errors are ES5 classes: `instanceof EncryptedPDFError` is false, its message is what says it.
    if (/is encrypted/.test((error as Error).message)) throw new NotNotarizableError(documentProblems.encrypted);
    throw new NotNotarizableError(documentProblems.malformed);
  }
  if (pdf.isEncrypted) throw new NotNotarizableError(documentProblems.encrypted);
  let pages: number;
  try {
    pages = pdf.getPageCount();
  } catch {
    throw new NotNotarizableError(documentProblems.malformed);
  }
  if (pages === 0) throw new NotNotarizableError(documentProblems.malformed);
  return pdf;
}

async function checkImage(bytes: Buffer, contentType: string): Promise<void> {
  const size = imageSize(bytes, contentType);
  if (!size) throw new NotNotarizableError(documentProblems.imageUnreadable);
  if (size.width * size.height > maxDocumentImagePixels) throw new NotNotarizableError(documentProblems.imageTooLarge);
  if (contentType === 'image/png' && !(await pngDataFits(bytes))) throw new NotNotarizableError(documentProblems.imageUnreadable);
}

/** The page count of a document as it will be sealed (images are one page each), checking it can be sealed. */
export async function inspectDocument(source: SealInput['source']): Promise<{ pageCount: number }> {
  if (source.contentType !== 'application/pdf') {
    await checkImage(Buffer.from(source.bytes), source.contentType);
    return { pageCount: 1 };
  }
  return { pageCount: (await loadCustomerPdf(source.bytes)).getPageCount() };
}

async function contentPdf(source: SealInput['source']): Promise<PDFDocument> {
  if (source.contentType === 'application/pdf') return loadCustomerPdf(source.bytes);
  await checkImage(Buffer.from(source.bytes), source.contentType);
  const pdf = await PDFDocument.create();
  let image;
  try {
    image = source.contentType === 'image/png' ? await pdf.embedPng(own(source.bytes)) : await pdf.embedJpg(own(source.bytes));
  } catch {
    throw new NotNotarizableError(documentProblems.imageUnreadable);
  }
  const page = pdf.addPage(letter);
  const margin = 36;
  const scale = Math.min((letter[0] - 2 * margin) / image.width, (letter[1] - 2 * margin) / image.height, 1);
  const w = image.width * scale;
  const h = image.height * scale;
  page.drawImage(image, { x: (letter[0] - w) / 2, y: letter[1] - margin - h, width: w, height: h });
  return pdf;
}

// ---- Active content ------------------------------------------------------------------

/** Actions that run code, leave the document or send data: none survives the seal. */
const activeActions = new Set(['JavaScript', 'Launch', 'URI', 'SubmitForm', 'ImportData', 'ResetForm', 'GoToR', 'GoToE', 'Rendition', 'Sound', 'Movie', 'RichMediaExecute', 'SetOCGState', 'Hide']);
const triggerKeys = ['OpenAction', 'AA', 'JS', 'XFA'].map((key) => PDFName.of(key));

/**
 * Removes JavaScript and every other active content from a customer's PDF
 * before it is sealed (issue 24, finding 12): the catalog's OpenAction and
 * the JavaScript name tree, additional actions (/AA) on the document, pages,
 * fields and annotations, XFA forms, and every action dictionary that runs
 * code, launches a file, opens an address or submits a form (emptied in
 * place, so nothing that referred to it dangles; links inside the document
 * stay). Every object of the file is visited, reachable or not: pdf-lib
 * writes them all. Says whether it removed anything: the seal then rewrites
 * the whole file, so that none survives in its bytes (decision 139).
 */
export function stripActiveContent(pdf: PDFDocument): boolean {
  const { context } = pdf;
  let changed = false;
  const names = pdf.catalog.lookupMaybe(PDFName.of('Names'), PDFDict);
  if (names?.has(PDFName.of('JavaScript'))) {
    names.delete(PDFName.of('JavaScript'));
    changed = true;
  }
  const seen = new Set<PDFObject>();
  const visit = (object: PDFObject | undefined) => {
    if (!object || seen.has(object)) return;
    seen.add(object);
    const dict = object instanceof PDFStream ? object.dict : object instanceof PDFDict ? object : null;
    if (dict) {
      for (const key of triggerKeys) {
        const value = dict.get(key);
        if (value === undefined) continue;
        if (value instanceof PDFRef && key.asString() === '/JS') context.delete(value);
        dict.delete(key);
        changed = true;
      }
      const type = dict.get(PDFName.of('S'));
      if (type instanceof PDFName && activeActions.has(type.decodeText())) {
        for (const key of dict.keys()) {
          if (key.asString() === '/Type') continue;
          dict.delete(key);
          changed = true;
        }
      }
      const action = dict.get(PDFName.of('A'));
      if (action instanceof PDFDict) visit(action);
      for (const [, value] of dict.entries()) if (!(value instanceof PDFRef)) visit(value);
    } else if (object instanceof PDFArray) {
      for (const value of object.asArray()) if (!(value instanceof PDFRef)) visit(value);
    }
  };
  visit(pdf.catalog);
  for (const [, object] of context.enumerateIndirectObjects()) visit(object);
  return changed;
}

// ---- Page content -----------------------------------------------------------------------

/** The Iowa short forms (Iowa Code 9B.16) for an individual. */
export function certificateWording(act: SealInput['act']): string {
  const date = formatInZone(act.performedAt, act.timeZone).date;
  const name = act.signerName;
  switch (act.type) {
    case 'acknowledgment':
      return `This record was acknowledged before me on ${date} by ${name}.`;
    case 'jurat':
      return `Signed and sworn to (or affirmed) before me on ${date} by ${name}.`;
    case 'signature_witnessing':
      return `Signed before me on ${date} by ${name}.`;
    case 'copy_certification':
      return `I certify that this is a true and correct copy of a record in the possession of ${name}. Dated ${date}.`;
  }
}

export const remoteStatement = 'This notarial act was performed for a remotely located individual by audio-visual communication.';

/** The statement RULONA's section on remotely located individuals requires on every remote act's certificate. */
export const communicationTechnologyStatement = 'This notarial act involved the use of communication technology.';

/** 'November 26, 2026 at 2:05 PM CST': the act's moment in the commissioning state's zone, US style. */
export function certificateDateTime(instant: Date, zone: string): string {
  return `${formatInZone(instant, zone).dateTime} ${zoneAbbreviation(instant, zone)}`;
}

/** A calendar date ('2028-12-31') as 'December 31, 2028'. */
export function usDate(isoDate: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(isoDate)) return isoDate;
  return formatDateInZone(zonedInstant(parseIsoDate(isoDate), 12 * 60, 'UTC'), 'UTC');
}

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    const next = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(next, size) > width && line) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

function drawSeal(page: PDFPage, fonts: { bold: PDFFont; regular: PDFFont }, act: SealInput['act'], x: number, y: number) {
  const width = 250;
  const height = 104;
  const navy = rgb(0.09, 0.16, 0.36);
  page.drawRectangle({ x, y, width, height, borderColor: navy, borderWidth: 2 });
  page.drawRectangle({ x: x + 4, y: y + 4, width: width - 8, height: height - 8, borderColor: navy, borderWidth: 0.75 });
  const lines: [string, PDFFont, number][] = [
    ['NOTARIAL SEAL', fonts.bold, 10],
    [act.notaryName, fonts.bold, 12],
    [`Commission No. ${act.commissionNumber}`, fonts.regular, 10],
    [`My commission expires ${usDate(act.commissionExpiresOn)}`, fonts.regular, 10],
    [`State of ${act.commissionState}`, fonts.bold, 10],
  ];
  let cursor = y + height - 22;
  for (const [text, font, size] of lines) {
    const safe = winAnsi(text);
    page.drawText(safe, { x: x + (width - font.widthOfTextAtSize(safe, size)) / 2, y: cursor, size, font, color: navy });
    cursor -= size + 7;
  }
}

/** How the certificate page names the digital signature: its PAdES level, and a test certificate as such. */
export function signatureStatement(level: SignatureLevel, testCertificate: boolean): string {
  const base = `Digital signature: PAdES ${level} (${signatureLevelLabels[level]}).`;
  return testCertificate ? `${base} Signed with a ${testCertificateLabel} certificate: for testing only, not a valid notarization.` : base;
}

async function addCertificatePage(pdf: PDFDocument, act: SealInput['act'], statement: string): Promise<PDFPage> {
  const page = pdf.addPage(letter);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const script = await pdf.embedFont(StandardFonts.TimesRomanItalic);
  const left = 72;
  const width = letter[0] - 2 * left;
  let y = letter[1] - 84;
  const write = (text: string, font = regular, size = 11, gap = 6) => {
    for (const line of wrap(winAnsi(text), font, size, width)) {
      page.drawText(line, { x: left, y, size, font });
      y -= size + gap;
    }
  };
  write('NOTARIAL CERTIFICATE', bold, 15, 14);
  write(`Document: ${act.documentTitle}`, regular, 10, 14);
  write(`State of ${act.commissionState}`, bold, 11);
  write(`County of ${act.county ?? '________________'}`, bold, 11, 16);
  write(certificateWording(act), regular, 12, 8);
  y -= 6;
  write(communicationTechnologyStatement, regular, 11, 6);
  write(remoteStatement, regular, 11, 18);
  // The notary's electronic signature, then the printed name and title.
  page.drawText(winAnsi(act.notaryName), { x: left, y, size: 22, font: script, color: rgb(0.05, 0.1, 0.35) });
  y -= 8;
  page.drawLine({ start: { x: left, y }, end: { x: left + 260, y }, thickness: 0.75 });
  y -= 14;
  write(`${act.notaryName}, Notary Public`, regular, 10, 4);
  write(`My commission expires: ${usDate(act.commissionExpiresOn)}`, regular, 10, 4);
  write(`Performed ${certificateDateTime(act.performedAt, act.timeZone)}`, regular, 10, 18);
  drawSeal(page, { bold, regular }, act, left, Math.max(96, y - 110));
  // The signature's level, at the foot of the page.
  let foot = 60;
  for (const line of wrap(winAnsi(statement), regular, 8, width).reverse()) {
    page.drawText(line, { x: left, y: foot, size: 8, font: regular, color: rgb(0.25, 0.25, 0.25) });
    foot += 11;
  }
  if (act.verification) addVerificationLine(pdf, page, regular, act.verification);
  return page;
}

/**
 * The verification code and link at the foot of the certificate page, the link
 * clickable too. /verify reads the code back from a dropped file through this
 * link (shared/verification.ts `verificationLinkPattern`).
 */
function addVerificationLine(pdf: PDFDocument, page: PDFPage, font: PDFFont, verification: { code: string; url: string }) {
  const text = winAnsi(`Verify this document: ${verification.url} (verification code ${verification.code})`);
  const size = 8;
  page.drawText(text, { x: 72, y: 44, size, font });
  const link = pdf.context.register(
    pdf.context.obj({
      Type: 'Annot',
      Subtype: 'Link',
      Rect: [72, 40, 72 + font.widthOfTextAtSize(text, size), 54],
      Border: [0, 0, 0],
      A: { Type: 'Action', S: 'URI', URI: PDFString.of(verification.url) },
    }),
  );
  page.node.addAnnot(link);
}

// ---- Signing -------------------------------------------------------------------------------

/**
 * The placeholder's ByteRange and the start of its /Contents as pdf-lib writes
 * a signature dictionary (`<<\n/Type /Sig\n…\n/ByteRange [ 0 /… /… /… ]\n/Contents <`).
 * It is searched from the end of the file: ours is always the last one —
 * pdf-lib and the incremental update (decision 139) write objects by number
 * and the signature dictionary is the newest but for its widget and form, the
 * customer's bytes all come before it, and a document timestamp's is in the
 * update appended last — so the customer's megabytes before it are not scanned
 * (a forward scan was 3.5 ms of a 10 MB seal: decision 136). No text we write
 * after it can hold the needle: its line breaks are structure (`winAnsi`
 * turns a name's into "?").
 */
const placeholderNeedle = `\n/ByteRange [ 0 ${`/${DEFAULT_BYTE_RANGE_PLACEHOLDER} `.repeat(3)}]\n/Contents <`;
/** The ByteRange as written, which the real one overwrites (the needle without its line breaks and /Contents). */
const byteRangePlaceholder = placeholderNeedle.slice(1, placeholderNeedle.indexOf(']') + 1);

/**
 * Fills the signature placeholder of `pdf` in place: its ByteRange, then
 * `produce(sha256 of the two ranges)` as the /Contents. The ranges are hashed
 * where they lie with node:crypto (no copy of the file, no JavaScript
 * hashing: issue 31).
 */
async function signInPlace(pdf: Buffer, produce: (digest: Buffer) => Promise<Buffer>): Promise<{ pdf: Buffer; sha256: () => string }> {
  const found = pdf.lastIndexOf(placeholderNeedle);
  if (found === -1) throw new Error('no signature placeholder');
  const byteRangePlaceholderPosition = found + 1;
  const open = found + placeholderNeedle.length - 1;
  const close = pdf.indexOf('>', open);
  const byteRange = `/ByteRange [0 ${open} ${close + 1} ${pdf.length - close - 1}]`;
  if (byteRange.length > byteRangePlaceholder.length) throw new Error('byte range does not fit');
  pdf.write(byteRange.padEnd(byteRangePlaceholder.length, ' '), byteRangePlaceholderPosition, 'latin1');
  // The bytes before the signature are hashed once: for the signature, and (copied) for the whole file's hash.
  const before = createHash('sha256').update(pdf.subarray(0, open));
  const digest = before.copy().update(pdf.subarray(close + 1)).digest();
  const contents = (await produce(digest)).toString('hex');
  if (contents.length > close - open - 1) throw new Error(`signature of ${contents.length / 2} bytes does not fit`);
  pdf.write(contents.padEnd(close - open - 1, '0'), open + 1, 'latin1');
  return { pdf, sha256: () => before.update(pdf.subarray(open)).digest('hex') };
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest();

/** A page's /Rotate as a quarter turn clockwise: 0, 90, 180 or 270 (any multiple of 90, negative too). */
function quarterTurn(page: PDFPage): 0 | 90 | 180 | 270 {
  const angle = Math.round(page.getRotation().angle / 90) * 90;
  return (((angle % 360) + 360) % 360) as 0 | 90 | 180 | 270;
}

/**
 * Where a point of the page as shown lands in the page's own space. The
 * viewer shows a page turned clockwise by its /Rotate; `(u, v)` is measured
 * from the bottom left of the page as shown, `width` × `height` is the crop
 * box before turning.
 */
function unturned(turn: 0 | 90 | 180 | 270, crop: { x: number; y: number; width: number; height: number }, u: number, v: number): { x: number; y: number } {
  const [x, y] =
    turn === 90 ? [crop.width - v, u]
    : turn === 180 ? [crop.width - u, crop.height - v]
    : turn === 270 ? [v, crop.height - u]
    : [u, v];
  return { x: crop.x + x, y: crop.y + y };
}

/**
 * One filled field, drawn in its box on its page (decision 100): the box is
 * in fractions of the page as shown (its crop box, turned by its /Rotate),
 * from the top left; PDF space runs from the bottom left. An image keeps its
 * proportions, fitted in the box and centred; a line of text fits the box's
 * height and width. On a turned page the box is found in the page's own
 * space and the stamp is turned with the page, so it reads upright where the
 * signer saw it (decision 127).
 */
async function stampField(pdf: PDFDocument, pages: PDFPage[], field: SealField, font: PDFFont): Promise<void> {
  const target = pages[field.page - 1];
  if (!target) throw new RangeError(`page ${field.page} of ${pages.length}`);
  const crop = target.getCropBox();
  const turn = quarterTurn(target);
  const shown = turn % 180 === 0 ? { width: crop.width, height: crop.height } : { width: crop.height, height: crop.width };
  // The box on the page as shown, from its bottom left.
  const box = {
    x: field.box.x * shown.width,
    y: shown.height - (field.box.y + field.box.height) * shown.height,
    width: field.box.width * shown.width,
    height: field.box.height * shown.height,
  };
  /** Draws from a point of the page as shown (the stamp's bottom left), turned with the page. */
  const at = (u: number, v: number) => ({ ...unturned(turn, crop, u, v), rotate: degrees(turn) });
  if (field.png) {
    const png = Buffer.from(field.png);
    const size = imageSize(png, 'image/png');
    if (!size || size.width > maxSignatureSize.width || size.height > maxSignatureSize.height || !(await pngDataFits(png))) {
      throw new NotNotarizableError(documentProblems.signatureUnreadable);
    }
    const image = await pdf.embedPng(own(png));
    const scale = Math.min(box.width / image.width, box.height / image.height);
    const width = image.width * scale;
    const height = image.height * scale;
    target.drawImage(image, { ...at(box.x + (box.width - width) / 2, box.y + (box.height - height) / 2), width, height });
    return;
  }
  const text = winAnsi(field.text ?? '');
  const fitHeight = box.height * 0.8;
  const widthAtOne = font.widthOfTextAtSize(text, 1);
  const size = Math.max(4, Math.min(fitHeight, widthAtOne > 0 ? (box.width * 0.96) / widthAtOne : fitHeight));
  target.drawText(text, { ...at(box.x + box.width * 0.02, box.y + (box.height - size) / 2 + size * 0.22), size, font, color: rgb(0.05, 0.05, 0.2) });
}

/** Builds the page content, then signs (PAdES B-B, up to B-LTA with a timestamp authority). */
export async function buildSealedPdf(input: SealInput): Promise<SealResult> {
  const opened = openP12Cached(Buffer.from(input.certificate.p12), input.certificate.password);
  const now = input.act.performedAt;
  if (opened.info.notAfter.getTime() < now.getTime()) throw new CertificateError(certificateMessages.sealExpired);
  if (opened.info.notBefore.getTime() > now.getTime() + 5 * 60_000) throw new CertificateError(certificateMessages.sealNotYetValid);
  const signer: CmsSigner = { certificate: opened.certificate, key: opened.key, chain: opened.chain };
  // A CA-issued certificate is asked about at its issuer (OCSP, else CRL) before anything is signed.
  const revocation = opened.info.selfSigned ? null : await checkNotRevoked(signer.certificate, signer.chain);

  const pdf = await contentPdf(input.source);
  // A customer's PDF keeps its own bytes: the seal is appended to them as an incremental update,
  // as PDF signers do, rather than pdf-lib rewriting the whole file (decision 139) — unless the
  // file's cross-reference data leaves any doubt (null) or active content had to be removed
  // (it must not survive in the bytes: issue 24, finding 12). An image becomes a new document.
  const stripped = stripActiveContent(pdf);
  const original = input.source.contentType === 'application/pdf' && !stripped ? asBuffer(own(input.source.bytes)) : null;
  const base = original && baseRevision(original, pdf);
  // Nothing changed yet (stripping changed nothing): the snapshot is the file as it is.
  const update = original && base ? { original, base, before: snapshot(pdf) } : null;
  // pdf-lib numbers new objects after the largest it loaded, which may be below the numbers of the
  // file's object streams and xref streams (it keeps neither): an update must not reuse them.
  if (update) pdf.context.largestObjectNumber = Math.max(pdf.context.largestObjectNumber, update.base.size - 1);
  const pages = pdf.getPages();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const field of input.fields) await stampField(pdf, pages, field, font);

  const level: SignatureLevel = input.tsa ? 'B-LTA' : 'B-B';
  const certificatePage = await addCertificatePage(pdf, input.act, signatureStatement(level, opened.info.commonName.endsWith(`(${testCertificateLabel})`)));
  pdf.setProducer('NotaryOnline');
  pdf.setModificationDate(now);
  const pageCount = pdf.getPageCount();

  pdflibAddPlaceholder({
    pdfDoc: pdf,
    pdfPage: certificatePage,
    reason: `Notarial act: ${input.act.type.replace('_', ' ')} (remote, audio-visual)`,
    contactInfo: `Commission ${winAnsi(input.act.commissionNumber)}, State of ${winAnsi(input.act.commissionState)}`,
    name: winAnsi(input.act.notaryName),
    location: winAnsi(`State of ${input.act.commissionState}`),
    signingTime: now,
    subFilter: SUBFILTER_ETSI_CADES_DETACHED,
    signatureLength: signatureBytes,
  });
  let unsigned: Buffer;
  if (update) {
    // Fonts and images are made into objects when flushed (save does it too).
    await pdf.flush();
    unsigned = appendIncrementalUpdate(pdf, update.original, changedSince(pdf, update.before));
  } else {
    const saved = await pdf.save({ useObjectStreams: false });
    // A view, not a copy (Buffer.from(Uint8Array) copies the 10 MB).
    unsigned = Buffer.from(saved.buffer, saved.byteOffset, saved.byteLength);
  }
  const tsa = input.tsa ?? null;
  const timestamps: Buffer[] = [];
  const first = await signInPlace(unsigned, (digest) =>
    signDetached(signer, digest, {
      timestamp: tsa
        ? async (value) => {
            const stamp = await requestTimestamp(tsa, sha256(value));
            timestamps.push(stamp.token);
            return stamp.token;
          }
        : undefined,
    }),
  );
  if (!tsa) return { pdf: first.pdf, sha256: first.sha256(), pageCount, level };
  // B-LT: the chain and revocation answers of the notary's and the TSA's certificates, in a DSS.
  const validation = await collectValidationData([{ certificate: signer.certificate, chain: signer.chain, revocation }], timestamps);
  const withDss = appendDss(pdf, first.pdf, validation);
  // B-LTA: a document timestamp over everything above.
  const signed = await appendDocumentTimestamp(pdf, withDss, tsa, certificatePage);
  return { pdf: signed, sha256: sha256(signed).toString('hex'), pageCount, level };
}

// ---- Validation data and document timestamp (incremental updates) ------------------------------

function appendDss(pdf: PDFDocument, file: Buffer, validation: { certificates: Buffer[]; ocsps: Buffer[]; crls: Buffer[] }): Buffer {
  const { context } = pdf;
  const streams = (items: Buffer[]) => context.obj(items.map((item) => context.register(context.stream(own(item)))));
  const refsBefore = context.largestObjectNumber;
  const dss = context.obj({ Type: 'DSS', Certs: streams(validation.certificates), OCSPs: streams(validation.ocsps), CRLs: streams(validation.crls) });
  pdf.catalog.set(PDFName.of('DSS'), context.register(dss));
  const added = context.enumerateIndirectObjects().filter(([ref]) => ref.objectNumber > refsBefore).map(([ref]) => ref);
  return appendIncrementalUpdate(pdf, file, [context.trailerInfo.Root as PDFRef, ...added]);
}

/** The object that holds `key` of `dict`'s value: that value's own ref if indirect, else the holder. */
function holderOf(pdf: PDFDocument, holderRef: PDFRef, holder: PDFDict, key: string): { ref: PDFRef; array: PDFArray } {
  const value = holder.get(PDFName.of(key));
  if (value instanceof PDFRef) return { ref: value, array: pdf.context.lookup(value, PDFArray) };
  if (value instanceof PDFArray) return { ref: holderRef, array: value };
  const array = pdf.context.obj([]);
  holder.set(PDFName.of(key), array);
  return { ref: holderRef, array };
}

async function appendDocumentTimestamp(pdf: PDFDocument, file: Buffer, tsa: TimestampAuthority, page: PDFPage): Promise<Buffer> {
  const { context } = pdf;
  const refsBefore = context.largestObjectNumber;
  const byteRange = context.obj([0, PDFName.of('**********'), PDFName.of('**********'), PDFName.of('**********')]);
  const timestamp = context.obj({ Type: 'DocTimeStamp', Filter: 'Adobe.PPKLite', SubFilter: 'ETSI.RFC3161', ByteRange: byteRange, Contents: PDFHexString.of('00'.repeat(documentTimestampBytes)) });
  const timestampRef = context.register(PDFInvalidObject.of(bytesOfObject(timestamp)));
  const widget = context.obj({ Type: 'Annot', Subtype: 'Widget', FT: 'Sig', Rect: [0, 0, 0, 0], V: timestampRef, T: PDFString.of('DocumentTimestamp'), F: 132, P: page.ref });
  const widgetRef = context.register(widget);
  const changed = new Set<PDFRef>([widgetRef, timestampRef]);
  const annots = holderOf(pdf, page.ref, page.node, 'Annots');
  annots.array.push(widgetRef);
  changed.add(annots.ref);
  const acroFormValue = pdf.catalog.get(PDFName.of('AcroForm'));
  const acroFormRef = acroFormValue instanceof PDFRef ? acroFormValue : (context.trailerInfo.Root as PDFRef);
  const acroForm = pdf.catalog.lookup(PDFName.of('AcroForm'), PDFDict);
  const fields = holderOf(pdf, acroFormRef, acroForm, 'Fields');
  fields.array.push(widgetRef);
  changed.add(fields.ref);
  for (const [ref] of context.enumerateIndirectObjects()) if (ref.objectNumber > refsBefore) changed.add(ref);
  const withPlaceholder = appendIncrementalUpdate(pdf, file, [...changed]);
  return (await signInPlace(withPlaceholder, async (digest) => (await requestTimestamp(tsa, digest)).token)).pdf;
}
