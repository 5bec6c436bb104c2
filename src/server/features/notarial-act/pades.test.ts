import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PDFArray, PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPki, type NotaryCertificate, type TestPki } from '../../../../tests/helpers/openssl-pki.ts';
import { readSignedData, signerInfoParts } from '../../crypto/cms.ts';
import { oids, toDer } from '../../crypto/der.ts';
import { readCrossReferences } from './incremental-update.ts';
import { buildSealedPdf, type SealInput } from './pdf.ts';
import { CertificateError, certificateMessages } from './seal-errors.ts';

/**
 * PAdES levels against real peers: a CA made with OpenSSL issues the
 * notary's certificate, OpenSSL's TSA timestamps, OpenSSL's OCSP responder
 * and the CRL answer for revocation (tests/helpers/openssl-pki.ts). Each
 * result is checked by independent tools — poppler's pdfsig, `openssl cms
 * -verify` with the CA as the only trust anchor, `openssl ts -verify` on each
 * token — and the DSS read back; one changed byte fails them all.
 */
const fixtures = new URL('../../../../tests/fixtures/', import.meta.url);

interface Signature {
  byteRange: [number, number, number, number];
  contents: Buffer;
  signedBytes: Buffer;
}

/** Every signature of a file, in file order: its byte range, its CMS (unpadded) and the bytes it covers. */
function signaturesOf(pdf: Buffer): Signature[] {
  const found: Signature[] = [];
  for (const match of pdf.toString('latin1').matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)) {
    const byteRange = match.slice(1, 5).map(Number) as Signature['byteRange'];
    const hex = pdf.subarray(byteRange[1] + 1, byteRange[2] - 1).toString('latin1');
    const der = Buffer.from(hex, 'hex');
    const contents = der.subarray(0, 4 + der.readUInt16BE(2));
    const signedBytes = Buffer.concat([pdf.subarray(0, byteRange[1]), pdf.subarray(byteRange[2], byteRange[2] + byteRange[3])]);
    found.push({ byteRange, contents, signedBytes });
  }
  return found;
}

const run = (args: string[]) => {
  const result = spawnSync(args[0]!, args.slice(1), { encoding: 'utf8' });
  return `${result.stdout}${result.stderr}`;
};

describe('PAdES levels with OpenSSL’s TSA, OCSP responder and CRL', () => {
  let pki: TestPki;
  let notary: NotaryCertificate;
  beforeAll(async () => {
    pki = await startTestPki();
    notary = pki.issueNotary('Nora CA Notary');
  }, 60_000);
  afterAll(() => pki?.stop());

  const input = (certificate: NotaryCertificate, tsa: boolean): SealInput => ({
    source: { bytes: readFileSync(new URL('sample.pdf', fixtures)), contentType: 'application/pdf' },
    fields: [{ kind: 'signature', page: 1, box: { x: 0.45, y: 0.77, width: 0.3, height: 0.06 }, png: readFileSync(new URL('sample.png', fixtures)) }],
    act: {
      type: 'acknowledgment',
      performedAt: new Date(),
      timeZone: 'America/Chicago',
      signerName: 'Grace Hopper',
      documentTitle: 'deed.pdf',
      notaryName: 'Nora CA Notary',
      commissionNumber: 'IA-1',
      commissionExpiresOn: '2030-01-01',
      commissionState: 'Iowa',
      county: 'Polk',
    },
    certificate: { p12: certificate.p12, password: certificate.password },
    tsa: tsa ? { url: pki.tsaUrl } : null,
  });

  it('B-B without a TSA: the CA-issued signature verifies with the CA as trust anchor (its revocation asked first)', async () => {
    const ocspBefore = pki.hits.ocsp;
    const sealed = await buildSealedPdf(input(notary, false));
    expect(sealed.level).toBe('B-B');
    expect(pki.hits.ocsp).toBe(ocspBefore + 1);
    const file = path.join(pki.dir, 'bb.pdf');
    writeFileSync(file, sealed.pdf);
    expect(run(['pdfsig', file])).toContain('Signature is Valid');
    const [signature] = signaturesOf(sealed.pdf);
    writeFileSync(path.join(pki.dir, 'bb.cms'), signature!.contents);
    writeFileSync(path.join(pki.dir, 'bb.content'), signature!.signedBytes);
    expect(run(['openssl', 'cms', '-verify', '-binary', '-inform', 'DER', '-in', path.join(pki.dir, 'bb.cms'), '-content', path.join(pki.dir, 'bb.content'), '-CAfile', pki.rootPem, '-purpose', 'any', '-out', '/dev/null'])).toContain('Verification successful');
  });

  it('B-LTA with a TSA: signature timestamp, DSS with chain and OCSP answers, document timestamp — each verified; one byte changed fails them all', async () => {
    const sealed = await buildSealedPdf(input(notary, true));
    expect(sealed.level).toBe('B-LTA');
    const file = path.join(pki.dir, 'lta.pdf');
    writeFileSync(file, sealed.pdf);
    const report = run(['pdfsig', file]);
    expect(report).toContain('Signature #1');
    expect(report).toContain('Signature #2');
    expect(report).toContain('ETSI.CAdES.detached');
    // poppler validates the CAdES signature; it reads the document timestamp but does not validate RFC 3161 (OpenSSL does, below).
    expect(report).toMatch(/Signature #1:[\s\S]*Signature is Valid[\s\S]*Signature #2:/);
    expect(report).toMatch(/Signature #2:[\s\S]*DocumentTimestamp[\s\S]*NotaryOnline Test TSA[\s\S]*Total document signed/);

    const [signature, documentTimestamp] = signaturesOf(sealed.pdf);
    // The CMS signature with the CA as the only trust anchor.
    writeFileSync(path.join(pki.dir, 'lta.cms'), signature!.contents);
    writeFileSync(path.join(pki.dir, 'lta.content'), signature!.signedBytes);
    const cmsArgs = ['openssl', 'cms', '-verify', '-binary', '-inform', 'DER', '-in', path.join(pki.dir, 'lta.cms'), '-content', path.join(pki.dir, 'lta.content'), '-CAfile', pki.rootPem, '-purpose', 'any', '-out', '/dev/null'];
    expect(run(cmsArgs)).toContain('Verification successful');

    // B-T: the signature timestamp token (unsigned attribute) is over the signature value.
    const parts = signerInfoParts(readSignedData(signature!.contents).signerInfos[0]!);
    const token = parts.unsignedAttributes.get(oids.signatureTimeStampToken);
    expect(token).toBeDefined();
    writeFileSync(path.join(pki.dir, 'sig.tst'), toDer(token!));
    writeFileSync(path.join(pki.dir, 'sig.value'), parts.signature);
    const tsArgs = (tokenFile: string, dataFile: string) => ['openssl', 'ts', '-verify', '-token_in', '-in', tokenFile, '-data', dataFile, '-CAfile', pki.rootPem, '-untrusted', path.join(pki.dir, 'tsa.pem')];
    expect(run(tsArgs(path.join(pki.dir, 'sig.tst'), path.join(pki.dir, 'sig.value')))).toContain('Verification: OK');

    // B-LT: the DSS holds the notary's, the CA's and the TSA's certificates and OCSP answers for notary and TSA.
    const doc = await PDFDocument.load(sealed.pdf, { updateMetadata: false });
    const dss = doc.catalog.lookup(PDFName.of('DSS'), PDFDict);
    const count = (key: string) => dss.lookup(PDFName.of(key), PDFArray).size();
    expect(count('Certs')).toBe(3);
    expect(count('OCSPs')).toBe(2);

    // B-LTA: the document timestamp covers everything before it, the DSS included.
    expect(documentTimestamp!.byteRange[1]).toBeGreaterThan(sealed.pdf.indexOf('/DSS'));
    writeFileSync(path.join(pki.dir, 'doc.tst'), documentTimestamp!.contents);
    writeFileSync(path.join(pki.dir, 'doc.data'), documentTimestamp!.signedBytes);
    expect(run(tsArgs(path.join(pki.dir, 'doc.tst'), path.join(pki.dir, 'doc.data')))).toContain('Verification: OK');

    // One changed byte in the page content: every check fails.
    const changed = Buffer.from(sealed.pdf);
    const at = changed.indexOf('NOTARIAL CERTIFICATE') + 2;
    changed[at] = changed[at]! ^ 1;
    const bad = path.join(pki.dir, 'lta-changed.pdf');
    writeFileSync(bad, changed);
    expect(run(['pdfsig', bad])).not.toContain('Signature is Valid');
    const [badSignature, badTimestamp] = signaturesOf(changed);
    writeFileSync(path.join(pki.dir, 'lta.content'), badSignature!.signedBytes);
    expect(run(cmsArgs)).not.toContain('Verification successful');
    writeFileSync(path.join(pki.dir, 'doc.data'), badTimestamp!.signedBytes);
    expect(run(tsArgs(path.join(pki.dir, 'doc.tst'), path.join(pki.dir, 'doc.data')))).not.toContain('Verification: OK');
    expect(createHash('sha256').update(sealed.pdf).digest('hex')).toBe(sealed.sha256);
  });

  it('B-LTA on the customer’s own bytes: the seal, the DSS and the document timestamp appended, each with an xref stream as the file has (decision 139)', async () => {
    const original = Buffer.from(await (await PDFDocument.load(readFileSync(new URL('sample.pdf', fixtures)))).save({ useObjectStreams: true }));
    const sealed = await buildSealedPdf({ ...input(notary, true), source: { bytes: original, contentType: 'application/pdf' } });
    expect(sealed.level).toBe('B-LTA');
    expect(sealed.pdf.subarray(0, original.length).equals(original)).toBe(true);
    expect(readCrossReferences(sealed.pdf)?.kind).toBe('stream');
    const file = path.join(pki.dir, 'lta-incremental.pdf');
    writeFileSync(file, sealed.pdf);
    const report = run(['pdfsig', file]);
    expect(report).not.toMatch(/Error/);
    expect(report).toMatch(/Signature #1:[\s\S]*Signature is Valid[\s\S]*Signature #2:/);
    expect(report).toMatch(/Signature #2:[\s\S]*DocumentTimestamp[\s\S]*Total document signed/);
    const [signature, documentTimestamp] = signaturesOf(sealed.pdf);
    expect(signature!.byteRange[0]).toBe(0);
    writeFileSync(path.join(pki.dir, 'inc.cms'), signature!.contents);
    writeFileSync(path.join(pki.dir, 'inc.content'), signature!.signedBytes);
    expect(run(['openssl', 'cms', '-verify', '-binary', '-inform', 'DER', '-in', path.join(pki.dir, 'inc.cms'), '-content', path.join(pki.dir, 'inc.content'), '-CAfile', pki.rootPem, '-purpose', 'any', '-out', '/dev/null'])).toContain('Verification successful');
    writeFileSync(path.join(pki.dir, 'inc-doc.tst'), documentTimestamp!.contents);
    writeFileSync(path.join(pki.dir, 'inc-doc.data'), documentTimestamp!.signedBytes);
    expect(run(['openssl', 'ts', '-verify', '-token_in', '-in', path.join(pki.dir, 'inc-doc.tst'), '-data', path.join(pki.dir, 'inc-doc.data'), '-CAfile', pki.rootPem, '-untrusted', path.join(pki.dir, 'tsa.pem')])).toContain('Verification: OK');
    const doc = await PDFDocument.load(sealed.pdf, { updateMetadata: false });
    expect(doc.getPageCount()).toBe(2);
    expect(doc.catalog.lookup(PDFName.of('DSS'), PDFDict).lookup(PDFName.of('Certs'), PDFArray).size()).toBe(3);
  });

  it('refuses to seal with a revoked certificate or an expired one', async () => {
    const revoked = pki.issueNotary('Rita Revoked');
    await expect(buildSealedPdf(input(revoked, true))).resolves.toMatchObject({ level: 'B-LTA' });
    pki.revoke(revoked);
    await expect(buildSealedPdf(input(revoked, false))).rejects.toThrow(new CertificateError(certificateMessages.sealRevoked));
    const expired = pki.issueNotary('Eddie Expired', { expired: true });
    await expect(buildSealedPdf(input(expired, false))).rejects.toThrow(new CertificateError(certificateMessages.sealExpired));
  });
});
