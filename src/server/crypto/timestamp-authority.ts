import { X509Certificate, randomBytes } from 'node:crypto';
import { CmsError, readSignedData, verifySignedData } from './cms.ts';
import { algorithm, bigintOf, bool, bytesOf, children, fromDer, int, isUniversal, octets, oidOf, oids, seq, timeOf, toDer, types, uint, type Node } from './der.ts';

/**
 * An RFC 3161 timestamp authority client: send a SHA-256 digest, get back a
 * token (a CMS SignedData over a TSTInfo) that proves the digest existed at
 * the TSA's time. Used by the seal (PAdES B-T and the B-LTA document
 * timestamp) and by the journal checkpoint. The token is checked before it is
 * returned: status granted, our digest and nonce in it, signed by the
 * certificate it carries, and that certificate is a timestamping one.
 *
 *   const tsa = { url: process.env.TSA_URL, username, password };
 *   const stamp = await requestTimestamp(tsa, sha256(bytes));
 *   stamp.token   // DER, to store or embed
 *   verifyTimestampToken(stamp.token, sha256(bytes)).genTime
 */
export interface TimestampAuthority {
  url: string;
  username?: string;
  password?: string;
  /** Per request; 10 s by default. */
  timeoutMs?: number;
}

export interface Timestamp {
  /** The TimeStampToken (a CMS ContentInfo), DER. */
  token: Buffer;
  genTime: Date;
  serialNumber: string;
  policy: string;
  /** The SHA-256 digest the token covers. */
  digest: Buffer;
  /** The TSA's signing certificate, DER (and any others the token carries). */
  signerCertificate: Buffer;
  certificates: Buffer[];
}

export class TimestampError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'TimestampError';
  }
}

/** A timestamp reply is a few KB; anything past this is not one. */
const maxReplyBytes = 256 * 1024;

/** The DER TimeStampReq for a SHA-256 digest, asking for the TSA's certificate. */
export function timestampRequest(digest: Buffer, nonce: Buffer): Buffer {
  if (digest.length !== 32) throw new TimestampError('A SHA-256 digest is 32 bytes.');
  return toDer(seq(int(1), seq(algorithm(oids.sha256), octets(digest)), uint(nonce), bool(true)));
}

async function readCapped(response: Response): Promise<Buffer> {
  const reader = response.body?.getReader();
  if (!reader) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > maxReplyBytes) {
      await reader.cancel();
      throw new TimestampError('The timestamp authority answered with more than a timestamp reply.');
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks);
}

/** Asks `tsa` to timestamp `digest` (SHA-256); the checked token, or a TimestampError saying why not. */
export async function requestTimestamp(tsa: TimestampAuthority, digest: Buffer): Promise<Timestamp> {
  const nonce = randomBytes(8);
  const headers: Record<string, string> = { 'Content-Type': 'application/timestamp-query', Accept: 'application/timestamp-reply' };
  if (tsa.username) headers.Authorization = `Basic ${Buffer.from(`${tsa.username}:${tsa.password ?? ''}`).toString('base64')}`;
  let reply: Buffer;
  try {
    const response = await fetch(tsa.url, { method: 'POST', headers, body: new Uint8Array(timestampRequest(digest, nonce)), signal: AbortSignal.timeout(tsa.timeoutMs ?? 10_000), redirect: 'error' });
    if (!response.ok) throw new TimestampError(`The timestamp authority answered HTTP ${response.status}.`);
    reply = await readCapped(response);
  } catch (error) {
    if (error instanceof TimestampError) throw error;
    throw new TimestampError(`The timestamp authority could not be reached (${(error as Error).name}).`, { cause: error });
  }
  return readTimestampReply(reply, digest, nonce);
}

/** A TimeStampResp: granted (0) or granted with modifications (1), with a token for our digest and nonce. */
export function readTimestampReply(reply: Buffer, digest: Buffer, nonce: Buffer | null): Timestamp {
  let fields: Node[];
  try {
    fields = children(fromDer(reply));
  } catch {
    throw new TimestampError('The timestamp authority’s answer is not a timestamp reply.');
  }
  const status = Number(bigintOf(children(fields[0])[0]));
  if ((status !== 0 && status !== 1) || !fields[1]) throw new TimestampError(`The timestamp authority refused the request (status ${status}).`);
  const stamp = verifyTimestampToken(toDer(fields[1]), digest);
  if (nonce) {
    const tst = children(fromDer(readSignedData(stamp.token).eContent!));
    const sent = bigintOf(uint(nonce));
    const echoed = tst.find((n, i) => i > 4 && isUniversal(n, types.INTEGER));
    if (!echoed || bigintOf(echoed) !== sent) throw new TimestampError('The timestamp reply does not carry our nonce.');
  }
  return stamp;
}

/**
 * Checks a TimeStampToken on its own: a TSTInfo whose message imprint is
 * `digest`, signed by the certificate the token carries, which must be for
 * timestamping (extended key usage id-kp-timeStamping). Whether that
 * certificate is trusted (its chain, its revocation) is the caller's question.
 */
export function verifyTimestampToken(token: Buffer, digest: Buffer): Timestamp {
  try {
    const view = readSignedData(token);
    if (view.eContentType !== oids.tstInfo || !view.eContent) throw new TimestampError('The token does not hold a TSTInfo.');
    const tst = children(fromDer(view.eContent));
    const [, policy, imprint, serial, genTime] = tst;
    const [hashAlg, hashed] = children(imprint);
    if (oidOf(children(hashAlg)[0]) !== oids.sha256 || !bytesOf(hashed).equals(digest)) throw new TimestampError('The timestamp is for other data.');
    const { certificate } = verifySignedData(view);
    if (!isTimestampingCertificate(certificate)) throw new TimestampError('The token is not signed by a timestamping certificate.');
    return {
      token,
      genTime: timeOf(genTime),
      serialNumber: bigintOf(serial).toString(16),
      policy: oidOf(policy),
      digest,
      signerCertificate: Buffer.from(certificate.raw),
      certificates: view.certificates,
    };
  } catch (error) {
    if (error instanceof TimestampError) throw error;
    if (error instanceof CmsError) throw new TimestampError(`The timestamp token does not verify: ${error.message}`, { cause: error });
    throw new TimestampError('The timestamp token is malformed.', { cause: error });
  }
}

function isTimestampingCertificate(cert: X509Certificate): boolean {
  const usage = cert.keyUsage;
  return Array.isArray(usage) && usage.includes(oids.timeStamping);
}
