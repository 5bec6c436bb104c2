import { X509Certificate, createHash, verify } from 'node:crypto';
import { certificateParts, extensionValue } from './cms.ts';
import { algorithm, bigintOf, bytesOf, children, digestOfOid, fromDer, isContext, isUniversal, octets, oidOf, oids, seq, timeOf, toDer, types, type Node } from './der.ts';

/**
 * Is a certificate revoked? Asked where the certificate itself says: its
 * Authority Information Access OCSP responder first, then its CRL
 * distribution points (RFC 6960, RFC 5280). Answers are checked (signed by
 * the issuer or a responder it delegated to, about this serial) and kept as
 * DER for a PDF's DSS (PAdES B-LT).
 */
export type RevocationStatus = 'good' | 'revoked';
export interface RevocationAnswer {
  status: RevocationStatus;
  /** The OCSPResponse that answered, DER. */
  ocsp?: Buffer;
  /** The CRL that answered, DER. */
  crl?: Buffer;
}

export class RevocationError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'RevocationError';
  }
}

const maxAnswerBytes = 8 * 1024 * 1024;

/** URIs of a GeneralNames sequence ([6] uniformResourceIdentifier). */
const uris = (names: Node[]) => names.filter((n) => isContext(n, 6)).map((n) => bytesOf(n).toString('latin1'));

function accessUrls(der: Buffer, method: string): string[] {
  const aia = extensionValue(der, oids.authorityInfoAccess);
  return children(aia)
    .filter((desc) => oidOf(children(desc)[0]) === method)
    .flatMap((desc) => uris([children(desc)[1]!]))
    .filter((url) => /^https?:\/\//.test(url));
}

export const ocspUrls = (der: Buffer) => accessUrls(der, oids.accessOcsp);
export const caIssuerUrls = (der: Buffer) => accessUrls(der, oids.accessCaIssuers);

export function crlUrls(der: Buffer): string[] {
  const points = extensionValue(der, oids.crlDistributionPoints);
  return children(points)
    .flatMap((point) => {
      const name = children(point).find((n) => isContext(n, 0));
      const fullName = children(name).find((n) => isContext(n, 0));
      return uris(children(fullName));
    })
    .filter((url) => /^https?:\/\//.test(url));
}

/** Its own issuer, signed by its own key (a root, or a TEST MODE certificate, which lacks keyCertSign). */
export const isSelfIssued = (der: Buffer) => {
  const cert = new X509Certificate(der);
  return cert.subject === cert.issuer && cert.verify(cert.publicKey);
};

/** The certificate among `candidates` that issued `der` (name and signature), or null. */
export function findIssuer(der: Buffer, candidates: Buffer[]): Buffer | null {
  const cert = new X509Certificate(der);
  return candidates.find((c) => !c.equals(der) && cert.checkIssued(new X509Certificate(c)) && cert.verify(new X509Certificate(c).publicKey)) ?? null;
}

async function fetchBytes(url: string, init: RequestInit = {}): Promise<Buffer> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000), redirect: 'follow' });
  if (!response.ok) throw new RevocationError(`${new URL(url).host} answered HTTP ${response.status}.`);
  const length = Number(response.headers.get('content-length') ?? 0);
  if (length > maxAnswerBytes) throw new RevocationError(`${new URL(url).host} answered with too much.`);
  const bytes = Buffer.from(await response.arrayBuffer());
  if (bytes.length > maxAnswerBytes) throw new RevocationError(`${new URL(url).host} answered with too much.`);
  return bytes;
}

/** The issuer of `der`: from `chain`, else fetched from its caIssuers address. */
export async function issuerOf(der: Buffer, chain: Buffer[]): Promise<Buffer | null> {
  const known = findIssuer(der, chain);
  if (known) return known;
  for (const url of caIssuerUrls(der)) {
    try {
      const fetched = await fetchBytes(url);
      if (findIssuer(der, [fetched])) return fetched;
    } catch {
      // The next address, if any.
    }
  }
  return null;
}

// ---- OCSP ---------------------------------------------------------------------------

function certId(der: Buffer, issuerDer: Buffer): Node {
  const parts = certificateParts(der);
  const issuerTbs = children(children(fromDer(issuerDer))[0]);
  const offset = isContext(issuerTbs[0], 0) ? 1 : 0;
  // The issuer's public key: the BIT STRING's bytes after its unused-bits count.
  const issuerKey = bytesOf(children(issuerTbs[offset + 5])[1]).subarray(1);
  return seq(
    algorithm(oids.sha1),
    octets(createHash('sha1').update(toDer(parts.issuer)).digest()),
    octets(createHash('sha1').update(issuerKey).digest()),
    parts.serial,
  );
}

export function ocspRequest(der: Buffer, issuerDer: Buffer): Buffer {
  return toDer(seq(seq(seq(seq(certId(der, issuerDer))))));
}

/** Reads an OCSPResponse about `der`: its status, once its signature is checked. */
export function ocspStatus(response: Buffer, der: Buffer, issuerDer: Buffer): RevocationStatus {
  const [status, wrapped] = children(fromDer(response));
  if (Number(bigintOf(status)) !== 0 || !wrapped) throw new RevocationError(`The OCSP responder refused (status ${Number(bigintOf(status))}).`);
  const [type, body] = children(children(wrapped)[0]);
  if (oidOf(type) !== oids.ocspBasic) throw new RevocationError('The OCSP answer is not a basic response.');
  const basic = children(fromDer(bytesOf(body)));
  const [tbs, signatureAlgorithm, signature, certs] = basic;
  const digest = digestOfOid[oidOf(children(signatureAlgorithm)[0])];
  if (!digest) throw new RevocationError('The OCSP answer uses an unsupported signature algorithm.');
  const issuer = new X509Certificate(issuerDer);
  // Signed by the issuer itself, or by a responder certificate the issuer issued for OCSP signing.
  const signers = [issuer, ...children(children(certs)[0]).map((c) => new X509Certificate(toDer(c))).filter((c) => c.checkIssued(issuer) && c.verify(issuer.publicKey) && (c.keyUsage ?? []).includes('1.3.6.1.5.5.7.3.9'))];
  const signed = toDer(tbs!);
  if (!signers.some((s) => verify(digest, signed, s.publicKey, bytesOf(signature).subarray(1)))) throw new RevocationError('The OCSP answer is not signed by the issuer.');
  const fields = children(tbs);
  // [0] version?, responderID, producedAt, responses, [1] extensions?
  const responses = fields[fields.findIndex((n) => isUniversal(n, types.GENERALIZEDTIME)) + 1];
  const serial = toDer(certificateParts(der).serial);
  for (const single of children(responses)) {
    const [id, certStatus, thisUpdate] = children(single);
    if (!toDer(children(id)[3]!).equals(serial)) continue;
    if (timeOf(thisUpdate).getTime() > Date.now() + 5 * 60_000) throw new RevocationError('The OCSP answer is from the future.');
    if (isContext(certStatus, 0)) return 'good';
    if (isContext(certStatus, 1)) return 'revoked';
    throw new RevocationError('The OCSP responder does not know this certificate.');
  }
  throw new RevocationError('The OCSP answer is about another certificate.');
}

// ---- CRL -----------------------------------------------------------------------------

export function crlStatus(crl: Buffer, der: Buffer, issuerDer: Buffer): RevocationStatus {
  const [tbs, signatureAlgorithm, signature] = children(fromDer(crl));
  const digest = digestOfOid[oidOf(children(signatureAlgorithm)[0])];
  if (!digest || !verify(digest, toDer(tbs!), new X509Certificate(issuerDer).publicKey, bytesOf(signature).subarray(1))) throw new RevocationError('The CRL is not signed by the issuer.');
  const fields = children(tbs);
  const offset = isUniversal(fields[0], types.INTEGER) ? 1 : 0;
  const isTime = (n: Node | undefined) => isUniversal(n, types.UTCTIME) || isUniversal(n, types.GENERALIZEDTIME);
  const next = isTime(fields[offset + 3]) ? offset + 4 : offset + 3;
  const nextUpdate = isTime(fields[offset + 3]) ? timeOf(fields[offset + 3]) : null;
  if (nextUpdate && nextUpdate.getTime() < Date.now()) throw new RevocationError('The CRL is out of date.');
  const revoked = isUniversal(fields[next], types.SEQUENCE) ? children(fields[next]) : [];
  const serial = toDer(certificateParts(der).serial);
  return revoked.some((entry) => toDer(children(entry)[0]!).equals(serial)) ? 'revoked' : 'good';
}

/**
 * The revocation status of `der` (issued by `issuerDer`): OCSP at each AIA
 * address, then each CRL distribution point. Throws RevocationError when no
 * address gave a usable answer.
 */
export async function revocationStatus(der: Buffer, issuerDer: Buffer): Promise<RevocationAnswer> {
  const problems: string[] = [];
  for (const url of ocspUrls(der)) {
    try {
      const response = await fetchBytes(url, { method: 'POST', headers: { 'Content-Type': 'application/ocsp-request' }, body: new Uint8Array(ocspRequest(der, issuerDer)) });
      return { status: ocspStatus(response, der, issuerDer), ocsp: response };
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  for (const url of crlUrls(der)) {
    try {
      const crl = await fetchBytes(url);
      return { status: crlStatus(crl, der, issuerDer), crl };
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  throw new RevocationError(problems.length ? `No revocation answer: ${problems.join('; ')}` : 'The certificate names no OCSP responder or CRL.');
}
