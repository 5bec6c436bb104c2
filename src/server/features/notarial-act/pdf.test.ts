import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateTestCertificate, readP12, testCertificateLabel } from './certificates.ts';
import { buildSealedPdf, pageCountOf, remoteStatement } from './pdf.ts';

/**
 * The sealed PDF as any reader sees it: poppler's `pdfsig` checks the digital
 * signature and names the signer; one changed byte of content makes it invalid.
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
  const cert = generateTestCertificate('Nora Notary', new Date());

  it('generates a self-signed test certificate labelled as such', () => {
    expect(cert.info.commonName).toBe(`Nora Notary (${testCertificateLabel})`);
    expect(readP12(cert.p12, cert.password).commonName).toBe(cert.info.commonName);
    expect(() => readP12(cert.p12, 'wrong')).toThrow(/password is wrong/);
  });

  it('seals a PDF: pdfsig says the signature is valid and names the notary; one byte changed → invalid', async () => {
    const source = { bytes: readFileSync(new URL('sample.pdf', fixtures)), contentType: 'application/pdf' };
    const pages = await pageCountOf(source);
    const sealed = await buildSealedPdf({
      source,
      placement: { page: 1, xPercent: 70, yPercent: 85 },
      signaturePng: readFileSync(new URL('sample.png', fixtures)),
      act,
      certificate: { p12: cert.p12, password: cert.password },
    });
    expect(sealed.pageCount).toBe(pages + 1);
    expect(sealed.sha256).toMatch(/^[0-9a-f]{64}$/);
    const file = path.join(dir, 'sealed.pdf');
    writeFileSync(file, sealed.pdf);
    const report = pdfsig(file);
    expect(report).toContain('Signature is Valid');
    expect(report).toContain('Nora Notary');
    expect(execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' })).toContain(remoteStatement.slice(0, 40));

    const bad = path.join(dir, 'tampered.pdf');
    writeFileSync(bad, tamper(sealed.pdf));
    const tampered = pdfsig(bad);
    expect(tampered).not.toContain('Signature is Valid');
    expect(tampered).toMatch(/Signature is Invalid|Digest Mismatch/);
  });

  it('turns an uploaded image into a page of its own', async () => {
    const sealed = await buildSealedPdf({
      source: { bytes: readFileSync(new URL('sample.jpg', fixtures)), contentType: 'image/jpeg' },
      placement: { page: 1, xPercent: 50, yPercent: 90 },
      signaturePng: readFileSync(new URL('sample.png', fixtures)),
      act: { ...act, type: 'jurat' },
      certificate: { p12: cert.p12, password: cert.password },
    });
    expect(sealed.pageCount).toBe(2);
    const file = path.join(dir, 'image.pdf');
    writeFileSync(file, sealed.pdf);
    expect(pdfsig(file)).toContain('Signature is Valid');
    expect(execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' })).toContain('Signed and sworn to (or affirmed) before me');
  });

  it('refuses a placement on a page the document does not have', async () => {
    await expect(
      buildSealedPdf({
        source: { bytes: readFileSync(new URL('sample.jpg', fixtures)), contentType: 'image/jpeg' },
        placement: { page: 3, xPercent: 50, yPercent: 90 },
        signaturePng: readFileSync(new URL('sample.png', fixtures)),
        act,
        certificate: { p12: cert.p12, password: cert.password },
      }),
    ).rejects.toThrow(RangeError);
  });
});
