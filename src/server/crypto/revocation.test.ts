import { readFileSync } from 'node:fs';
import path from 'node:path';
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPki, type TestPki } from '../../../tests/helpers/openssl-pki.ts';
import { RevocationError, crlStatus, crlUrls, findIssuer, ocspStatus, ocspUrls, revocationStatus } from './revocation.ts';

/** Revocation answers from OpenSSL's OCSP responder and CRL, read and checked. */
describe('revocation', () => {
  let pki: TestPki;
  beforeAll(async () => {
    pki = await startTestPki();
  }, 60_000);
  afterAll(() => pki?.stop());

  const der = (pem: string) => Buffer.from(new X509Certificate(pem).raw);

  it('finds the addresses in the certificate, asks OCSP first, and reads the CRL when asked; a revocation shows in both', async () => {
    const notary = pki.issueNotary('Cora Crl');
    const cert = der(notary.pem);
    const root = der(readFileSync(pki.rootPem, 'utf8'));
    expect(ocspUrls(cert)).toEqual([pki.ocspUrl]);
    expect(crlUrls(cert)).toEqual([pki.crlUrl]);
    expect(findIssuer(cert, [root])).toEqual(root);
    const answer = await revocationStatus(cert, root);
    expect(answer.status).toBe('good');
    expect(ocspStatus(answer.ocsp!, cert, root)).toBe('good');
    const crl = Buffer.from(await (await fetch(pki.crlUrl)).arrayBuffer());
    expect(crlStatus(crl, cert, root)).toBe('good');

    pki.revoke(notary);
    expect((await revocationStatus(cert, root)).status).toBe('revoked');
    const newCrl = Buffer.from(await (await fetch(pki.crlUrl)).arrayBuffer());
    expect(crlStatus(newCrl, cert, root)).toBe('revoked');
  });

  it('refuses answers not signed by the issuer', async () => {
    const notary = pki.issueNotary('Otto Other');
    const cert = der(notary.pem);
    const root = der(readFileSync(pki.rootPem, 'utf8'));
    const tsa = der(readFileSync(path.join(pki.dir, 'tsa.pem'), 'utf8'));
    const answer = await revocationStatus(cert, root);
    // Checked against a certificate that did not sign them.
    expect(() => ocspStatus(answer.ocsp!, cert, tsa)).toThrow(RevocationError);
    const crl = Buffer.from(await (await fetch(pki.crlUrl)).arrayBuffer());
    expect(() => crlStatus(crl, cert, tsa)).toThrow(RevocationError);
  });
});
