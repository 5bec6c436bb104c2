import { createHash } from 'node:crypto';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { SignPdf } from '@signpdf/signpdf';
import { P12Signer } from '@signpdf/signer-p12';
import { SUBFILTER_ADOBE_PKCS7_DETACHED } from '@signpdf/utils';
import { PDFDocument, PDFString, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { formatInZone } from '../../../shared/time.ts';
import type { ActType } from '../../../shared/notarial-act.ts';

/**
 * The sealed PDF: the customer's document (images become pages), the signer's
 * adopted signature where the notary placed it, a notarial certificate page
 * with the state's short-form wording and the notary's electronic seal, then
 * a digital signature with the notary's certificate over the whole file
 * (docs/decisions/035-signature-format.md), so any later change shows as an
 * invalid signature in any PDF reader.
 */
export interface SealInput {
  source: { bytes: Buffer; contentType: string };
  placement: { page: number; xPercent: number; yPercent: number };
  signaturePng: Buffer;
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
  certificate: { p12: Buffer; password: string };
}

const letter: [number, number] = [612, 792];

/** Standard PDF fonts speak WinAnsi only: anything else becomes "?" rather than an exception. */
function winAnsi(text: string): string {
  return text.replace(/[\u2018\u2019]/g, "'").replace(/[\u201c\u201d]/g, '"').replace(/[\u2013\u2014]/g, '-').replace(/[^\x20-\x7e\xa0-\xff]/g, '?');
}

/** pdf-lib reads a Buffer's whole backing store (Node pools small ones): give it its own copy. */
const own = (bytes: Buffer) => Uint8Array.from(bytes);

/** The page count of a document as it will be sealed (images are one page each). */
export async function pageCountOf(source: { bytes: Buffer; contentType: string }): Promise<number> {
  if (source.contentType !== 'application/pdf') return 1;
  return (await PDFDocument.load(source.bytes, { ignoreEncryption: true })).getPageCount();
}

async function contentPdf(source: SealInput['source']): Promise<PDFDocument> {
  if (source.contentType === 'application/pdf') return PDFDocument.load(source.bytes, { ignoreEncryption: true });
  const pdf = await PDFDocument.create();
  const image = source.contentType === 'image/png' ? await pdf.embedPng(own(source.bytes)) : await pdf.embedJpg(own(source.bytes));
  const page = pdf.addPage(letter);
  const margin = 36;
  const scale = Math.min((letter[0] - 2 * margin) / image.width, (letter[1] - 2 * margin) / image.height, 1);
  const w = image.width * scale;
  const h = image.height * scale;
  page.drawImage(image, { x: (letter[0] - w) / 2, y: letter[1] - margin - h, width: w, height: h });
  return pdf;
}

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
    [`My commission expires ${act.commissionExpiresOn}`, fonts.regular, 10],
    [`State of ${act.commissionState}`, fonts.bold, 10],
  ];
  let cursor = y + height - 22;
  for (const [text, font, size] of lines) {
    const safe = winAnsi(text);
    page.drawText(safe, { x: x + (width - font.widthOfTextAtSize(safe, size)) / 2, y: cursor, size, font, color: navy });
    cursor -= size + 7;
  }
}

async function addCertificatePage(pdf: PDFDocument, act: SealInput['act']) {
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
  write(remoteStatement, regular, 11, 18);
  // The notary's electronic signature, then the printed name and title.
  page.drawText(winAnsi(act.notaryName), { x: left, y, size: 22, font: script, color: rgb(0.05, 0.1, 0.35) });
  y -= 8;
  page.drawLine({ start: { x: left, y }, end: { x: left + 260, y }, thickness: 0.75 });
  y -= 14;
  write(`${act.notaryName}, Notary Public`, regular, 10, 4);
  write(`My commission expires: ${act.commissionExpiresOn}`, regular, 10, 4);
  write(`Performed ${formatInZone(act.performedAt, act.timeZone).full}`, regular, 10, 18);
  drawSeal(page, { bold, regular }, act, left, Math.max(72, y - 110));
  if (act.verification) addVerificationLine(pdf, page, regular, act.verification);
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

/** Builds the page content, then signs the file with the notary's PKCS#12 (adbe.pkcs7.detached). */
export async function buildSealedPdf(
  input: SealInput,
): Promise<{ pdf: Buffer; sha256: string; pageCount: number; signatureLevel: string; timestampAuthority: string | null }> {
  const pdf = await contentPdf(input.source);
  const pages = pdf.getPages();
  const target = pages[input.placement.page - 1];
  if (!target) throw new RangeError(`page ${input.placement.page} of ${pages.length}`);
  const signature = await pdf.embedPng(own(input.signaturePng));
  const { width, height } = target.getSize();
  const sigWidth = Math.min(180, width * 0.35);
  const sigHeight = (signature.height / signature.width) * sigWidth;
  // The notary's mark is the centre of the signature, measured from the top left.
  const x = Math.min(Math.max(0, (input.placement.xPercent / 100) * width - sigWidth / 2), width - sigWidth);
  const y = Math.min(Math.max(0, height - (input.placement.yPercent / 100) * height - sigHeight / 2), height - sigHeight);
  target.drawImage(signature, { x, y, width: sigWidth, height: sigHeight });

  await addCertificatePage(pdf, input.act);
  pdf.setTitle(winAnsi(`${input.act.documentTitle} (notarized)`));
  pdf.setProducer('NotaryOnline');
  pdf.setModificationDate(input.act.performedAt);
  const pageCount = pdf.getPageCount();

  pdflibAddPlaceholder({
    pdfDoc: pdf,
    reason: `Notarial act: ${input.act.type.replace('_', ' ')} (remote, audio-visual)`,
    contactInfo: `Commission ${winAnsi(input.act.commissionNumber)}, State of ${winAnsi(input.act.commissionState)}`,
    name: winAnsi(input.act.notaryName),
    location: winAnsi(`State of ${input.act.commissionState}`),
    signingTime: input.act.performedAt,
    subFilter: SUBFILTER_ADOBE_PKCS7_DETACHED,
    signatureLength: 16_384,
  });
  const unsigned = Buffer.from(await pdf.save({ useObjectStreams: false }));
  const signer = new P12Signer(input.certificate.p12, { passphrase: input.certificate.password });
  const signed = await new SignPdf().sign(unsigned, signer, input.act.performedAt);
  return {
    pdf: signed,
    sha256: createHash('sha256').update(signed).digest('hex'),
    pageCount,
    // What /verify and the journal say of the signature (decision 035; PAdES levels come with decision 060+).
    signatureLevel: 'PDF signature (adbe.pkcs7.detached), signing time from the server clock',
    timestampAuthority: null,
  };
}
