import { execFileSync, spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { PDFDocument, PDFName, PDFRawStream, PDFString, degrees, type PDFRef } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { pngBomb } from '../../../../tests/helpers/images.ts';
import { scannedPdf } from '../../../../tests/helpers/large-pdf.ts';
import { rewriteIterations } from '../../../../tests/helpers/pkcs12.ts';
import forge from 'node-forge';
import sharp from 'sharp';
import { forgePkcs12Kdf, generateTestCertificate, openP12, openP12Cached, openedP12Ms, pkcs12IterationCounts, pkcs12Kdf, readP12, testCertificateLabel } from './certificates.ts';
import { actTypes } from '../../../shared/notarial-act.ts';
import { appendIncrementalUpdate, readCrossReferences } from './incremental-update.ts';
import { buildSealedPdf, communicationTechnologyStatement, inspectDocument, loadCustomerPdf, remoteStatement, type SealInput } from './pdf.ts';
import { CertificateError, NotNotarizableError, certificateMessages, documentProblems } from './seal-errors.ts';

/**
 * The sealed PDF as any reader sees it: poppler's `pdfsig` checks the digital
 * signature and names the signer; OpenSSL checks the CMS; one changed byte of
 * content makes it invalid. The customer's active content is gone and its
 * own title kept.
 */
const fixtures = new URL('../../../../tests/fixtures/', import.meta.url);
const dir = mkdtempSync(path.join(tmpdir(), 'seal-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

export function pdfsig(file: string): string {
  const run = spawnSync('pdfsig', [file], { encoding: 'utf8' });
  return `${run.stdout}${run.stderr}`;
}

/** Flips one byte inside the page content (outside the signature's own bytes). */
export function tamper(pdf: Buffer): Buffer {
  const copy = Buffer.from(pdf);
  const at = copy.indexOf('NOTARIAL CERTIFICATE');
  const index = at > 0 ? at : copy.indexOf('/Producer');
  copy[index + 2] = copy[index + 2]! ^ 0x01;
  return copy;
}

/** The CMS of the first signature (its /Contents), DER without the zero padding. */
export function firstSignatureCms(pdf: Buffer): Buffer {
  const range = /\/ByteRange\s*\[\s*0\s+(\d+)\s+(\d+)/.exec(pdf.toString('latin1'))!;
  const hex = pdf.subarray(Number(range[1]) + 1, Number(range[2]) - 1).toString('latin1');
  const der = Buffer.from(hex, 'hex');
  // DER length of the outer SEQUENCE (0x30 0x82 hi lo).
  return der.subarray(0, 4 + der.readUInt16BE(2));
}

const act = {
  type: 'acknowledgment' as const,
  performedAt: new Date('2026-03-04T16:30:00Z'),
  timeZone: 'America/Chicago',
  signerName: 'Grace Hopper',
  documentTitle: 'affidavit.pdf',
  notaryName: 'Nora Notary',
  commissionNumber: '123456',
  commissionExpiresOn: '2028-12-31',
  commissionState: 'Iowa',
  county: 'Polk',
};

describe('sealing', () => {
  const cert = generateTestCertificate('Nora Notary', act.performedAt);
  const signaturePng = readFileSync(new URL('sample.png', fixtures));
  const samplePdf = readFileSync(new URL('sample.pdf', fixtures));
  const seal = (source: SealInput['source'], extra: Partial<SealInput> = {}) =>
    buildSealedPdf({ source, fields: [{ kind: 'signature', page: 1, box: { x: 0.55, y: 0.82, width: 0.3, height: 0.06 }, png: signaturePng }], act, certificate: { p12: cert.p12, password: cert.password }, ...extra });

  it('reads a document that arrives as a plain Uint8Array (as in the seal worker) without copying its streams (decision 136)', async () => {
    const bytes = new Uint8Array(await scannedPdf(512 * 1024, 2));
    expect(Buffer.isBuffer(bytes)).toBe(false);
    const pdf = await loadCustomerPdf(bytes);
    const scans = pdf.context
      .enumerateIndirectObjects()
      .map(([, object]) => object)
      .filter((object): object is PDFRawStream => object instanceof PDFRawStream && object.contents.length >= 256 * 1024);
    expect(scans).toHaveLength(2);
    for (const scan of scans) expect(scan.contents.buffer).toBe(bytes.buffer);
  });

  it('signs its own placeholder, the last in the file, when the customer’s file holds the placeholder’s text (decision 136)', async () => {
    const placeholder = '\n/ByteRange [ 0 /********** /********** /********** ]\n/Contents <00>';
    const customer = await PDFDocument.load(samplePdf);
    const page = customer.getPage(0);
    page.node.set(PDFName.of('PieceInfo'), customer.context.register(customer.context.stream(placeholder)));
    const source = Buffer.from(await customer.save({ useObjectStreams: false }));
    expect(source.includes(placeholder)).toBe(true);
    const sealed = await seal({ bytes: source, contentType: 'application/pdf' });
    const file = path.join(dir, 'placeholder-text.pdf');
    writeFileSync(file, sealed.pdf);
    expect(pdfsig(file)).toContain('Signature is Valid');
    expect(sealed.pdf.includes(placeholder)).toBe(true);
  });

  it('generates a self-signed test certificate labelled as such', () => {
    expect(cert.info.commonName).toBe(`Nora Notary (${testCertificateLabel})`);
    expect(cert.info.selfSigned).toBe(true);
    expect(cert.info.keyUsage).toEqual(['digitalSignature', 'nonRepudiation']);
    expect(readP12(cert.p12, cert.password).commonName).toBe(cert.info.commonName);
    expect(() => readP12(cert.p12, 'wrong')).toThrow(/password is wrong/);
  });

  it('opens a certificate once per worker: the same bundle and password again is the kept one; a wrong password, another bundle or a stale entry opens anew', () => {
    const at = Date.parse('2030-01-01T00:00:00Z');
    const opened = openP12Cached(cert.p12, cert.password, at);
    expect(openP12Cached(cert.p12, cert.password, at + 1_000)).toBe(opened);
    expect(opened.info.commonName).toBe(cert.info.commonName);
    // The password is part of the key: a wrong one is still refused after a right one.
    expect(() => openP12Cached(cert.p12, 'wrong', at + 2_000)).toThrow(/password is wrong/);
    const other = generateTestCertificate('Other Notary', act.performedAt);
    expect(openP12Cached(other.p12, other.password, at + 3_000).info.commonName).toBe(other.info.commonName);
    expect(openP12Cached(cert.p12, cert.password, at + 4_000)).toBe(opened);
    // Unused for longer than it is kept: opened again.
    expect(openP12Cached(cert.p12, cert.password, at + 4_000 + openedP12Ms + 1)).not.toBe(opened);
  });

  it('seals a PDF as PAdES B-B: pdfsig and OpenSSL verify it, ESS signing-certificate-v2 signed; one byte changed → invalid', async () => {
    const source = { bytes: samplePdf, contentType: 'application/pdf' };
    const pages = (await inspectDocument(source)).pageCount;
    const sealed = await seal(source);
    expect(sealed.level).toBe('B-B');
    expect(sealed.pageCount).toBe(pages + 1);
    expect(sealed.sha256).toMatch(/^[0-9a-f]{64}$/);
    const file = path.join(dir, 'sealed.pdf');
    writeFileSync(file, sealed.pdf);
    const report = pdfsig(file);
    expect(report).toContain('Signature is Valid');
    expect(report).toContain('Nora Notary');
    expect(report).toContain('ETSI.CAdES.detached');
    const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
    expect(text).toContain(remoteStatement.slice(0, 40));
    expect(text).toContain('PAdES B-B');
    expect(text).toContain(testCertificateLabel);

    // The CMS on its own: signed attributes with signing-certificate-v2, no signing-time (PAdES), the content digest right.
    const cms = path.join(dir, 'sig.der');
    writeFileSync(cms, firstSignatureCms(sealed.pdf));
    const printed = execFileSync('openssl', ['cms', '-cmsout', '-print', '-inform', 'DER', '-in', cms], { encoding: 'utf8' });
    expect(printed).toContain('id-smime-aa-signingCertificateV2');
    expect(printed).not.toContain('signingTime');
    const range = /\/ByteRange\s*\[\s*0\s+(\d+)\s+(\d+)\s+(\d+)/.exec(sealed.pdf.toString('latin1'))!;
    const content = Buffer.concat([sealed.pdf.subarray(0, Number(range[1])), sealed.pdf.subarray(Number(range[2]), Number(range[2]) + Number(range[3]))]);
    writeFileSync(path.join(dir, 'content.bin'), content);
    writeFileSync(path.join(dir, 'self.pem'), new X509Certificate(openP12(cert.p12, cert.password).certificate).toString());
    const verify = spawnSync('openssl', ['cms', '-verify', '-binary', '-inform', 'DER', '-in', cms, '-content', path.join(dir, 'content.bin'), '-CAfile', path.join(dir, 'self.pem'), '-purpose', 'any', '-out', '/dev/null'], { encoding: 'utf8' });
    expect(verify.stderr).toContain('Verification successful');

    const bad = path.join(dir, 'tampered.pdf');
    writeFileSync(bad, tamper(sealed.pdf));
    const tampered = pdfsig(bad);
    expect(tampered).not.toContain('Signature is Valid');
    expect(tampered).toMatch(/Signature is Invalid|Digest Mismatch/);
  });

  it('keeps the document’s own title; the file name carries "(notarized)", not the title', async () => {
    const titled = await PDFDocument.load(samplePdf);
    titled.setTitle('Affidavit of Support');
    const sealed = await seal({ bytes: Buffer.from(await titled.save()), contentType: 'application/pdf' });
    const reopened = await PDFDocument.load(sealed.pdf, { updateMetadata: false });
    expect(reopened.getTitle()).toBe('Affidavit of Support');
  });

  it('strips JavaScript, OpenAction, additional actions, launch and web links, and the JavaScript name tree before sealing', async () => {
    const doc = await PDFDocument.load(samplePdf);
    const { context } = doc;
    const js = context.register(context.obj({ Type: 'Action', S: 'JavaScript', JS: PDFString.of('app.alert("hi")') }));
    doc.catalog.set(PDFName.of('OpenAction'), js);
    doc.catalog.set(PDFName.of('AA'), context.obj({ WC: context.obj({ S: 'JavaScript', JS: PDFString.of('app.launchURL("x")') }) }));
    doc.catalog.set(PDFName.of('Names'), context.obj({ JavaScript: context.obj({ Names: [PDFString.of('init'), js] }) }));
    const page = doc.getPage(0);
    page.node.set(PDFName.of('AA'), context.obj({ O: js }));
    const launch = context.obj({ Type: 'Annot', Subtype: 'Link', Rect: [0, 0, 10, 10], A: context.obj({ S: 'Launch', F: PDFString.of('calc.exe') }) });
    const uri = context.obj({ Type: 'Annot', Subtype: 'Link', Rect: [0, 20, 10, 30], A: context.obj({ S: 'URI', URI: PDFString.of('https://evil.example/') }) });
    page.node.set(PDFName.of('Annots'), context.obj([context.register(launch), context.register(uri)]));
    const hostile = Buffer.from(await doc.save({ useObjectStreams: false }));
    for (const needle of ['/JavaScript', '/OpenAction', '/Launch', '/URI', 'evil.example', 'app.alert']) expect(hostile.includes(needle), needle).toBe(true);

    const sealed = await seal({ bytes: hostile, contentType: 'application/pdf' });
    for (const needle of ['/JavaScript', '/JS', '/OpenAction', '/AA', '/Launch', '/URI', 'evil.example', 'calc.exe', 'app.alert']) expect(sealed.pdf.includes(needle), needle).toBe(false);
    const file = path.join(dir, 'stripped.pdf');
    writeFileSync(file, sealed.pdf);
    expect(pdfsig(file)).toContain('Signature is Valid');
  });

  /** What poppler reads of a sealed file: the signature's report, the page count, a page's text — and whether it had to repair the cross-reference data. */
  function readBack(name: string, pdf: Buffer) {
    const file = path.join(dir, `${name}.pdf`);
    writeFileSync(file, pdf);
    const info = spawnSync('pdfinfo', [file], { encoding: 'utf8' });
    return {
      signature: pdfsig(file),
      pages: Number(/Pages:\s+(\d+)/.exec(info.stdout)?.[1]),
      complaints: info.stderr,
      text: (page: number) => execFileSync('pdftotext', ['-f', String(page), '-l', String(page), file, '-'], { encoding: 'utf8' }),
    };
  }

  const dateField = { kind: 'date' as const, page: 1, box: { x: 0.1, y: 0.1, width: 0.3, height: 0.04 }, text: '11/26/2026' };

  it('appends the seal to the customer’s own bytes, with a cross-reference table or stream as the file has (decision 139)', async () => {
    const xrefStream = Buffer.from(await (await PDFDocument.load(samplePdf)).save({ useObjectStreams: true }));
    for (const [kind, original] of [['table', samplePdf], ['stream', xrefStream]] as const) {
      expect(readCrossReferences(original)?.kind).toBe(kind);
      const sealed = await seal({ bytes: original, contentType: 'application/pdf' }, { fields: [dateField] });
      // The customer's file, byte for byte, then the update.
      expect(sealed.pdf.subarray(0, original.length).equals(original), kind).toBe(true);
      const references = readCrossReferences(sealed.pdf);
      expect(references?.kind, kind).toBe(kind);
      expect(references?.startxref, kind).toBeGreaterThan(original.length);
      const read = readBack(`incremental-${kind}`, sealed.pdf);
      expect(read.signature, kind).toContain('Signature is Valid');
      expect(read.signature, kind).toContain('Total document signed');
      expect(read.complaints, kind).toBe('');
      expect(read.pages, kind).toBe(2);
      expect(read.text(1), kind).toContain('11/26/2026');
      expect(read.text(2), kind).toContain('NOTARIAL CERTIFICATE');
      expect((await PDFDocument.load(sealed.pdf, { updateMetadata: false })).getPageCount(), kind).toBe(2);
    }
  });

  /**
   * Files other writers made, committed as they came out: chromium-print.pdf is
   * Chromium 156's print to PDF of a two-page page (a cross-reference table);
   * chromium-print-object-streams.pdf the same through `qpdf --object-streams=generate`
   * (object streams, an xref stream); chromium-print-linearized.pdf through
   * `qpdf --linearize` (its last startxref near the start, the rest by /Prev);
   * cairo-object-streams.pdf poppler's `pdftocairo -pdf` of a Chromium print,
   * through qpdf's object streams. qpdf is a reader of its own: its check of
   * the result is not ours.
   */
  it('extends files other writers made — Chromium, with object streams, linearized, cairo — and qpdf finds no fault in the result (decision 139)', async () => {
    for (const name of ['chromium-print.pdf', 'chromium-print-object-streams.pdf', 'chromium-print-linearized.pdf', 'cairo-object-streams.pdf']) {
      const original = readFileSync(new URL(name, fixtures));
      const sealed = await seal({ bytes: original, contentType: 'application/pdf' }, { fields: [dateField] });
      expect(sealed.pdf.subarray(0, original.length).equals(original), name).toBe(true);
      const read = readBack(`writer-${name}`, sealed.pdf);
      expect(read.signature, name).toContain('Signature is Valid');
      expect(read.signature, name).toContain('Total document signed');
      expect(read.complaints, name).toBe('');
      expect(read.text(1), name).toContain('11/26/2026');
      const check = spawnSync('qpdf', ['--check', path.join(dir, `writer-${name}.pdf`)], { encoding: 'utf8' });
      expect(check.status, `${name}: ${check.stdout}${check.stderr}`).toBe(0);
      expect(check.stdout, name).toContain('No syntax or stream encoding errors found');
    }
  });

  it('rewrites the whole file when it removed active content: none survives in the bytes (decision 139)', async () => {
    const clean = await PDFDocument.load(samplePdf);
    const hostile = await PDFDocument.load(samplePdf);
    hostile.catalog.set(PDFName.of('OpenAction'), hostile.context.register(hostile.context.obj({ Type: 'Action', S: 'JavaScript', JS: PDFString.of('app.alert("hi")') })));
    for (const useObjectStreams of [false, true]) {
      const cleanBytes = Buffer.from(await clean.save({ useObjectStreams }));
      const hostileBytes = Buffer.from(await hostile.save({ useObjectStreams }));
      expect(hostileBytes.includes('/JavaScript') || useObjectStreams).toBe(true);
      // The same document without the script is extended; with it, rewritten.
      const kept = await seal({ bytes: cleanBytes, contentType: 'application/pdf' });
      expect(kept.pdf.subarray(0, cleanBytes.length).equals(cleanBytes)).toBe(true);
      const sealed = await seal({ bytes: hostileBytes, contentType: 'application/pdf' });
      expect(sealed.pdf.subarray(0, hostileBytes.length).equals(hostileBytes)).toBe(false);
      for (const needle of ['/JavaScript', '/OpenAction', 'app.alert']) expect(sealed.pdf.includes(needle), needle).toBe(false);
      expect(readCrossReferences(sealed.pdf)?.startxref).toBeLessThan(sealed.pdf.length);
      expect(readBack(`rewritten-${useObjectStreams}`, sealed.pdf).signature).toContain('Signature is Valid');
    }
  });

  it('extends a file with bytes after its %%EOF, and rewrites one whose startxref points nowhere or at an earlier version of an object (decision 139)', async () => {
    // A blank line and a stray byte after %%EOF, as some writers leave: still extended.
    const trailing = Buffer.concat([samplePdf, Buffer.from('\r\n\n\0')]);
    const extended = await seal({ bytes: trailing, contentType: 'application/pdf' });
    expect(extended.pdf.subarray(0, trailing.length).equals(trailing)).toBe(true);
    expect(readBack('trailing', extended.pdf).signature).toContain('Signature is Valid');

    const text = samplePdf.toString('latin1');
    const startxref = /startxref\s+(\d+)/.exec(text.slice(-64))!;
    const broken: Buffer[] = [
      // startxref at the header instead of the xref table.
      Buffer.from(text.slice(0, text.lastIndexOf('startxref')) + text.slice(text.lastIndexOf('startxref')).replace(startxref[1]!, '9'), 'latin1'),
      // No startxref at all.
      Buffer.from(text.slice(0, text.lastIndexOf('startxref')) + '%%EOF\n', 'latin1'),
    ];
    // An earlier revision whose catalog an update replaced: the earlier one stays in the bytes.
    const updated = await PDFDocument.load(samplePdf);
    const root = updated.context.trailerInfo.Root as PDFRef;
    broken.push(appendIncrementalUpdate(updated, Buffer.from(samplePdf), [root]));
    expect(readCrossReferences(broken[2]!)?.superseded).toBe(true);
    for (const [index, bytes] of broken.entries()) {
      const sealed = await seal({ bytes, contentType: 'application/pdf' });
      expect(sealed.pdf.subarray(0, bytes.length).equals(bytes), `case ${index}`).toBe(false);
      const read = readBack(`fallback-${index}`, sealed.pdf);
      expect(read.signature, `case ${index}`).toContain('Signature is Valid');
      expect(read.pages, `case ${index}`).toBe(2);
    }
  });

  it('reads no cross-reference stream past what its /Size could hold: one that inflates to 16 MB is doubt, not a table (decision 139)', () => {
    const bomb = deflateSync(Buffer.alloc(16 * 1024 * 1024));
    const head = Buffer.from(`%PDF-1.7\n1 0 obj\n<< /Type /XRef /Size 2 /W [ 1 4 2 ] /Filter /FlateDecode /Length ${bomb.length} >>\nstream\n`, 'latin1');
    const file = Buffer.concat([head, bomb, Buffer.from(`\nendstream\nendobj\nstartxref\n9\n%%EOF\n`, 'latin1')]);
    expect(readCrossReferences(file)).toBeNull();
  });

  it('turns an uploaded image into a page of its own', async () => {
    const sealed = await seal({ bytes: readFileSync(new URL('sample.jpg', fixtures)), contentType: 'image/jpeg' }, { act: { ...act, type: 'jurat' }, fields: [{ kind: 'signature', page: 1, box: { x: 0.35, y: 0.87, width: 0.3, height: 0.06 }, png: signaturePng }] });
    expect(sealed.pageCount).toBe(2);
    const file = path.join(dir, 'image.pdf');
    writeFileSync(file, sealed.pdf);
    expect(pdfsig(file)).toContain('Signature is Valid');
    expect(execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' })).toContain('Signed and sworn to (or affirmed) before me');
  });

  it('certifies in the commissioning state\'s zone in US formats, with the communication-technology statement, for every act type', async () => {
    // 16:30 UTC on March 4 is 10:30 AM in Iowa (Central); an Eastern console would have said 11:30 AM.
    for (const type of actTypes) {
      const sealed = await seal({ bytes: samplePdf, contentType: 'application/pdf' }, { act: { ...act, type } });
      const file = path.join(dir, `certificate-${type}.pdf`);
      writeFileSync(file, sealed.pdf);
      const page = String(sealed.pageCount);
      const text = execFileSync('pdftotext', ['-f', page, '-l', page, file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
      expect(text, type).toContain(communicationTechnologyStatement);
      expect(text, type).toContain('March 4, 2026');
      expect(text, type).toContain('Performed March 4, 2026 at 10:30 AM CST');
      expect(text, type).toContain('My commission expires: December 31, 2028');
      expect(text, type).toContain('My commission expires December 31, 2028');
      expect(text, type).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    }
  });

  it('stamps every field at its place and size on its page: a signature on page 3 of a 3-page affidavit, the date in its box', async () => {
    // The affidavit's "Signature: ____" line is at 300 pt from the bottom of page 3 (492 from the top), "Date: ____" at 260.
    const signatureBox = { x: 130 / 612, y: 462 / 792, width: 180 / 612, height: 36 / 792 };
    const dateBox = { x: 110 / 612, y: 512 / 792, width: 120 / 612, height: 24 / 792 };
    const sealed = await seal(
      { bytes: readFileSync(new URL('affidavit-3-pages.pdf', fixtures)), contentType: 'application/pdf' },
      {
        fields: [
          { kind: 'signature', page: 3, box: signatureBox, png: signaturePng },
          { kind: 'date', page: 3, box: dateBox, text: '11/26/2026' },
          { kind: 'text', page: 1, box: { x: 0.1, y: 0.45, width: 0.4, height: 0.03 }, text: 'Apt. 4B' },
        ],
      },
    );
    expect(sealed.pageCount).toBe(4);
    const file = path.join(dir, 'fields.pdf');
    writeFileSync(file, sealed.pdf);
    expect(pdfsig(file)).toContain('Signature is Valid');
    // The date sits on page 3 inside its box (pdftotext's boxes are in points from the top left).
    const words = execFileSync('pdftotext', ['-bbox', '-f', '3', '-l', '3', file, '-'], { encoding: 'utf8' });
    const date = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">11\/26\/2026<\/word>/.exec(words);
    expect(date, words).not.toBeNull();
    const [xMin, yMin, xMax, yMax] = date!.slice(1).map(Number) as [number, number, number, number];
    expect(xMin).toBeGreaterThanOrEqual(dateBox.x * 612 - 0.5);
    expect(xMax).toBeLessThanOrEqual((dateBox.x + dateBox.width) * 612 + 0.5);
    expect(yMin).toBeGreaterThanOrEqual(dateBox.y * 792 - 1);
    expect(yMax).toBeLessThanOrEqual((dateBox.y + dateBox.height) * 792 + 1);
    expect(execFileSync('pdftotext', ['-f', '1', '-l', '1', file, '-'], { encoding: 'utf8' })).toContain('Apt. 4B');
    expect(execFileSync('pdftotext', ['-f', '2', '-l', '2', file, '-'], { encoding: 'utf8' })).not.toMatch(/11\/26\/2026|Apt/);
    // The signature (a solid blue square) fills the middle of its box on page 3, nothing above the box.
    const image = path.join(dir, 'fields-page3');
    execFileSync('pdftoppm', ['-f', '3', '-l', '3', '-r', '72', '-singlefile', '-png', file, image]);
    const { data, info } = await sharp(`${image}.png`).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => Array.from(data.subarray((Math.round(y) * info.width + Math.round(x)) * info.channels, (Math.round(y) * info.width + Math.round(x)) * info.channels + 3));
    const centre = { x: (signatureBox.x + signatureBox.width / 2) * 612, y: (signatureBox.y + signatureBox.height / 2) * 792 };
    const [r, g, b] = pixel(centre.x, centre.y) as [number, number, number];
    expect(b).toBeGreaterThan(150);
    expect(r).toBeLessThan(80);
    expect(g).toBeLessThan(130);
    expect(pixel(centre.x, signatureBox.y * 792 - 6)).toEqual([255, 255, 255]);
    // Pages 1 and 2 carry no image.
    const images = execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' }).split('\n').slice(2).filter(Boolean).map((line) => Number(line.trim().split(/\s+/)[0]));
    expect(images).toContain(3);
    expect(images).not.toContain(1);
    expect(images).not.toContain(2);
  });

  it('stamps a field where the signer saw it on a page turned by /Rotate 0, 90, 180 and 270, upright as shown', async () => {
    // One US Letter page per rotation; the viewer shows each turned, and the boxes are fractions of the page as shown.
    const rotations = [0, 90, 180, 270] as const;
    const source = await PDFDocument.create();
    for (const rotation of rotations) source.addPage([612, 792]).setRotation(degrees(rotation));
    // Near the top left as shown: any rotation applied the wrong way moves it to another corner.
    const dateBox = { x: 0.1, y: 0.08, width: 0.3, height: 0.04 };
    const signatureBox = { x: 0.1, y: 0.2, width: 0.25, height: 0.08 };
    const sealed = await seal(
      { bytes: await source.save(), contentType: 'application/pdf' },
      { fields: rotations.flatMap((_, index) => [
        { kind: 'date' as const, page: index + 1, box: dateBox, text: '11/26/2026' },
        { kind: 'signature' as const, page: index + 1, box: signatureBox, png: signaturePng },
      ]) },
    );
    const file = path.join(dir, 'rotated.pdf');
    writeFileSync(file, sealed.pdf);
    for (const [index, rotation] of rotations.entries()) {
      const page = index + 1;
      const shown = rotation % 180 === 0 ? { width: 612, height: 792 } : { width: 792, height: 612 };
      // pdftotext's boxes are in points from the top left of the page as shown; the date reads left to right there.
      const words = execFileSync('pdftotext', ['-bbox', '-f', String(page), '-l', String(page), file, '-'], { encoding: 'utf8' });
      const date = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">11\/26\/2026<\/word>/.exec(words);
      expect(date, `/Rotate ${rotation}: ${words}`).not.toBeNull();
      const [xMin, yMin, xMax, yMax] = date!.slice(1).map(Number) as [number, number, number, number];
      expect(xMin, `/Rotate ${rotation}`).toBeGreaterThanOrEqual(dateBox.x * shown.width - 0.5);
      expect(xMax, `/Rotate ${rotation}`).toBeLessThanOrEqual((dateBox.x + dateBox.width) * shown.width + 0.5);
      expect(yMin, `/Rotate ${rotation}`).toBeGreaterThanOrEqual(dateBox.y * shown.height - 1);
      expect(yMax, `/Rotate ${rotation}`).toBeLessThanOrEqual((dateBox.y + dateBox.height) * shown.height + 1);
      // Upright: wider than tall as shown (turned text would stand on its side).
      expect(xMax - xMin, `/Rotate ${rotation}`).toBeGreaterThan(yMax - yMin);
      // The signature (a solid blue square) fills the middle of its box as rendered; white just above the box.
      const image = path.join(dir, `rotated-${rotation}`);
      execFileSync('pdftoppm', ['-f', String(page), '-l', String(page), '-r', '72', '-singlefile', '-png', file, image]);
      const { data, info } = await sharp(`${image}.png`).raw().toBuffer({ resolveWithObject: true });
      expect({ width: info.width, height: info.height }).toEqual(shown);
      const pixel = (x: number, y: number) => Array.from(data.subarray((Math.round(y) * info.width + Math.round(x)) * info.channels, (Math.round(y) * info.width + Math.round(x)) * info.channels + 3));
      const centre = { x: (signatureBox.x + signatureBox.width / 2) * shown.width, y: (signatureBox.y + signatureBox.height / 2) * shown.height };
      const [r, g, b] = pixel(centre.x, centre.y) as [number, number, number];
      expect({ rotation, blue: b > 150 && r < 80 && g < 130 }).toEqual({ rotation, blue: true });
      expect(pixel(centre.x, signatureBox.y * shown.height - 6), `/Rotate ${rotation}`).toEqual([255, 255, 255]);
    }
  });

  it('refuses a field on a page the document does not have', async () => {
    await expect(seal({ bytes: readFileSync(new URL('sample.jpg', fixtures)), contentType: 'image/jpeg' }, { fields: [{ kind: 'date', page: 3, box: { x: 0.5, y: 0.9, width: 0.2, height: 0.04 }, text: '11/26/2026' }] })).rejects.toThrow(RangeError);
  });

  it('says what is wrong with a file it cannot seal: encrypted, damaged, an image bomb, a signature bomb — each at once', async () => {
    const started = Date.now();
    const encrypted = Buffer.from(samplePdf.toString('latin1').replace('trailer\n<<', 'trailer\n<< /Encrypt << /Filter /Standard /V 1 /R 2 /O <00> /U <00> /P -4 >>'), 'latin1');
    await expect(inspectDocument({ bytes: encrypted, contentType: 'application/pdf' })).rejects.toThrow(new NotNotarizableError(documentProblems.encrypted));
    await expect(inspectDocument({ bytes: Buffer.from('%PDF-1.7\n%%EOF\n'), contentType: 'application/pdf' })).rejects.toThrow(new NotNotarizableError(documentProblems.malformed));
    await expect(seal({ bytes: pngBomb(12_000, 12_000), contentType: 'image/png' })).rejects.toThrow(new NotNotarizableError(documentProblems.imageTooLarge));
    await expect(seal({ bytes: samplePdf, contentType: 'application/pdf' }, { fields: [{ kind: 'signature', page: 1, box: { x: 0.5, y: 0.5, width: 0.3, height: 0.06 }, png: pngBomb(12_000, 12_000) }] })).rejects.toThrow(new NotNotarizableError(documentProblems.signatureUnreadable));
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('refuses an expired certificate', async () => {
    const old = generateTestCertificate('Old Notary', new Date('2020-01-01T00:00:00Z'));
    await expect(seal({ bytes: samplePdf, contentType: 'application/pdf' }, { certificate: { p12: old.p12, password: old.password } })).rejects.toThrow(new CertificateError(certificateMessages.sealExpired));
  });
});

describe('PKCS#12 limits', () => {
  /** OpenSSL's own export with a given MAC and PBKDF2 iteration count. */
  function p12With(iterations: number): { p12: Buffer; password: string } {
    const key = path.join(dir, 'k.pem');
    const crt = path.join(dir, 'c.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', crt, '-days', '30', '-subj', '/CN=Iteration Test'], { stdio: 'ignore' });
    const out = path.join(dir, `i${iterations}.p12`);
    execFileSync('openssl', ['pkcs12', '-export', '-inkey', key, '-in', crt, '-passout', 'pass:pw', '-iter', String(iterations), '-maciter', '-out', out], { stdio: 'ignore' });
    return { p12: readFileSync(out), password: 'pw' };
  }

  it('derives PKCS#12 keys with node:crypto exactly as forge does (RFC 7292 B.2)', () => {
    for (const [digest, id, length] of [['sha1', 1, 24], ['sha1', 2, 8], ['sha256', 3, 32], ['sha512', 1, 70]] as const) {
      const salt = Buffer.from('0011223344556677', 'hex');
      const expected = (forgePkcs12Kdf as (...args: unknown[]) => forge.util.ByteStringBuffer)('pässwörd', forge.util.createBuffer(salt.toString('binary')), id, 2048, length, forge.md[digest].create());
      expect(pkcs12Kdf('pässwörd', salt, id, 2048, length, digest).toString('hex')).toBe(forge.util.bytesToHex(expected.bytes()));
    }
  });

  it('reads the MAC and PBKDF2 iteration counts of an OpenSSL bundle and opens it', () => {
    const bundle = p12With(2048);
    expect(pkcs12IterationCounts(bundle.p12).map(Number)).toEqual(expect.arrayContaining([2048]));
    expect(readP12(bundle.p12, bundle.password).commonName).toBe('Iteration Test');
  });

  it('refuses a bundle asking for 2^31 iterations at once, before any key derivation', () => {
    const bundle = p12With(2048);
    // The same file with every count (the 2-byte INTEGER 0x0800) rewritten to 0x7fffffff (4 bytes): lengths fixed up by re-encoding.
    const hostile = rewriteIterations(bundle.p12, 2 ** 31 - 1);
    expect(pkcs12IterationCounts(hostile).map(Number)).toContain(2 ** 31 - 1);
    const started = Date.now();
    expect(() => readP12(hostile, bundle.password)).toThrow(certificateMessages.tooManyIterations);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
