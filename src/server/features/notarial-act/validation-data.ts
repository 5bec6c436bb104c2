import { readSignedData } from '../../crypto/cms.ts';
import { RevocationError, isSelfIssued, issuerOf, revocationStatus, type RevocationAnswer } from '../../crypto/revocation.ts';
import { CertificateError, certificateMessages } from './seal-errors.ts';

/**
 * Revocation for the seal: the notary's certificate is asked about before
 * anything is signed (a revoked or unanswerable one cannot seal), and the
 * answers for it and for the timestamp authority's certificate are gathered
 * for the PDF's DSS (PAdES B-LT).
 */
export interface CheckedCertificate {
  certificate: Buffer;
  chain: Buffer[];
  /** The answer already obtained for `certificate`, or null for a self-signed one. */
  revocation: (RevocationAnswer & { issuer: Buffer }) | null;
}

export async function checkNotRevoked(certificate: Buffer, chain: Buffer[]): Promise<RevocationAnswer & { issuer: Buffer }> {
  const issuer = await issuerOf(certificate, chain);
  if (!issuer) throw new CertificateError(certificateMessages.revocationUnknown);
  let answer: RevocationAnswer;
  try {
    answer = await revocationStatus(certificate, issuer);
  } catch (error) {
    if (error instanceof RevocationError) throw new CertificateError(certificateMessages.revocationUnknown);
    throw error;
  }
  if (answer.status === 'revoked') throw new CertificateError(certificateMessages.sealRevoked);
  return { ...answer, issuer };
}

const unique = (items: Buffer[]) => items.filter((item, i) => items.findIndex((other) => other.equals(item)) === i);

/** Certificates, OCSP responses and CRLs for a DSS: the signer's and every timestamp's chain, each non-root one with its answer. */
export async function collectValidationData(signers: CheckedCertificate[], timestampTokens: Buffer[]): Promise<{ certificates: Buffer[]; ocsps: Buffer[]; crls: Buffer[] }> {
  const tsaCertificates = timestampTokens.flatMap((token) => readSignedData(token).certificates);
  const certificates = unique([...signers.flatMap((s) => [s.certificate, ...s.chain]), ...tsaCertificates]);
  const ocsps: Buffer[] = [];
  const crls: Buffer[] = [];
  const keep = (answer: RevocationAnswer) => {
    if (answer.ocsp) ocsps.push(answer.ocsp);
    if (answer.crl) crls.push(answer.crl);
  };
  for (const signer of signers) if (signer.revocation) keep(signer.revocation);
  const answered = signers.filter((s) => s.revocation).map((s) => s.certificate);
  // An issuer found on the way is added to `certificates`, not asked about again here (a root, in practice).
  const toCheck = certificates.slice();
  for (const certificate of toCheck) {
    if (answered.some((a) => a.equals(certificate)) || isSelfIssued(certificate)) continue;
    const issuer = await issuerOf(certificate, certificates);
    if (!issuer) continue;
    if (!certificates.some((c) => c.equals(issuer))) certificates.push(issuer);
    const answer = await revocationStatus(certificate, issuer);
    if (answer.status === 'revoked') throw new RevocationError('The timestamp authority’s certificate has been revoked.');
    keep(answer);
  }
  return { certificates, ocsps, crls };
}
