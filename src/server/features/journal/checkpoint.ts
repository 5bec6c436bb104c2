import { createHash, createPrivateKey, createPublicKey, verify, type KeyObject } from 'node:crypto';
import type { CheckpointFacts } from './chain.ts';

/**
 * A journal checkpoint as a string, and its signature check (decision 090):
 * the parts of the anchor that need neither the database nor the timestamp
 * authority's CMS code, so that `npm run journal:verify` loads only what it
 * uses (decision 128). anchor.ts signs, stores and timestamps them.
 */

export interface CheckpointPayload {
  v: 1;
  /** The chain head: its seq is also the number of entries written since the first. */
  seq: number;
  hash: string;
  takenAt: string;
  keyId: string;
}

export interface DecodedCheckpoint {
  payload: CheckpointPayload;
  payloadBytes: Buffer;
  signature: Buffer;
  token: Buffer | null;
}

export interface JournalKey {
  id: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

/** Checks an RFC 3161 token over a SHA-256 digest; throws when it does not hold (crypto/timestamp-authority.ts). */
export type TokenCheck = (token: Buffer, sha256: Buffer) => unknown;

const prefix = 'njc1';
/** The platform key's name in `platform_keys`. */
export const journalKeyName = 'journal-signing';
/** Ed25519 PKCS#8 DER, before the 32-byte seed. */
const pkcs8Prefix = Buffer.from('302e020100300506032b657004220420', 'hex');

export const rawPublic = (key: KeyObject) => key.export({ format: 'der', type: 'spki' }).subarray(-32);
const keyIdOf = (publicKey: KeyObject) => createHash('sha256').update(rawPublic(publicKey)).digest('hex').slice(0, 16);

export function keyFromSeed(seed: Buffer): JournalKey {
  const privateKey = createPrivateKey({ key: Buffer.concat([pkcs8Prefix, seed]), format: 'der', type: 'pkcs8' });
  const publicKey = createPublicKey(privateKey);
  return { id: keyIdOf(publicKey), privateKey, publicKey };
}

export function encodeCheckpoint(payloadBytes: Buffer, signature: Buffer, token: Buffer | null): string {
  return [prefix, payloadBytes.toString('base64url'), signature.toString('base64url'), token?.toString('base64url') ?? ''].join('.');
}

/** Reads a checkpoint string (or the first one found in a text, e.g. an export or an email). */
export function decodeCheckpoint(text: string): DecodedCheckpoint | null {
  const match = /njc1\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]*)/.exec(text);
  if (!match) return null;
  const payloadBytes = Buffer.from(match[1]!, 'base64url');
  try {
    const payload = JSON.parse(payloadBytes.toString('utf8')) as CheckpointPayload;
    if (payload.v !== 1 || !Number.isInteger(payload.seq) || typeof payload.hash !== 'string' || typeof payload.takenAt !== 'string') return null;
    return { payload, payloadBytes, signature: Buffer.from(match[2]!, 'base64url'), token: match[3] ? Buffer.from(match[3], 'base64url') : null };
  } catch {
    return null;
  }
}

/**
 * Whether the checkpoint is signed by `key` (none: nothing is), and its
 * timestamp token (if any) is a valid RFC 3161 token over this payload's
 * SHA-256, signed by the certificate it carries (whether that TSA is trusted:
 * `openssl ts -verify` with its CA, decision 090).
 */
export function isSignedBy(decoded: DecodedCheckpoint, key: JournalKey | null, checkToken: TokenCheck): boolean {
  if (!key || decoded.payload.keyId !== key.id) return false;
  if (!verify(null, decoded.payloadBytes, key.publicKey, decoded.signature)) return false;
  if (!decoded.token) return true;
  try {
    checkToken(decoded.token, createHash('sha256').update(decoded.payloadBytes).digest());
    return true;
  } catch {
    return false;
  }
}

export function factsOf(decoded: DecodedCheckpoint, key: JournalKey | null, source: string, checkToken: TokenCheck): CheckpointFacts {
  return { seq: decoded.payload.seq, hash: decoded.payload.hash, takenAt: new Date(decoded.payload.takenAt), signed: isSignedBy(decoded, key, checkToken), source };
}
