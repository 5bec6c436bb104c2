import { isMarkedAsUntransferable } from 'node:worker_threads';
import { DomainError } from '../../errors.ts';
import type { Config } from '../../config.ts';
import type { TimestampAuthority } from '../../crypto/timestamp-authority.ts';
import { actMessages } from '../../../shared/notarial-act.ts';
import type { SealInput } from './pdf.ts';
import { SealJobError, runSealJob } from './seal-pool.ts';
import { documentProblems } from './seal-errors.ts';

/**
 * What the act's service calls for every heavy step: each runs in the seal
 * worker (seal-pool.ts) and its refusals come back as the DomainError the
 * notary or admin reads. Nothing here loads pdf-lib or forge.
 */

/**
 * A customer's file the seal cannot use (encrypted, damaged, an image too
 * large or unreadable): the notary reads why and may mark the document as not
 * notarizable. `reason` is the code clients branch on (decision 045: a finer
 * code as a property of the category).
 */
export class DocumentNotNotarizableError extends DomainError {
  readonly reason = 'DOCUMENT_NOT_NOTARIZABLE' as const;
  constructor(why: string) {
    super('UNPROCESSABLE_CONTENT', actMessages.documentNotNotarizable(why));
  }
}

/** The timestamp authority from the configuration, or null (seals are then PAdES B-B). */
export function timestampAuthorityOf(config: Pick<Config, 'TSA_URL' | 'TSA_USERNAME' | 'TSA_PASSWORD'>): TimestampAuthority | null {
  if (!config.TSA_URL) return null;
  return { url: config.TSA_URL, username: config.TSA_USERNAME, password: config.TSA_PASSWORD };
}

function refusal(error: unknown, documentJob: boolean): unknown {
  if (!(error instanceof SealJobError)) return error;
  switch (error.kind) {
    case 'NotNotarizableError':
      return new DocumentNotNotarizableError(error.message);
    case 'CertificateError':
      return new DomainError(documentJob ? 'PRECONDITION_FAILED' : 'BAD_REQUEST', error.message);
    case 'TimestampError':
    case 'RevocationError':
      return new DomainError('SERVICE_UNAVAILABLE', actMessages.timestampUnavailable, { cause: error });
    case 'RangeError':
      return new DomainError('BAD_REQUEST', actMessages.badPlacement);
    case 'Timeout':
    case 'WorkerCrashed':
      // Past its time or its memory: the document is what made it so.
      return documentJob ? new DocumentNotNotarizableError(documentProblems.tooLong) : new DomainError('BAD_REQUEST', error.message);
    default:
      return error;
  }
}

/**
 * Who keeps a document's bytes once they go to the seal worker (issue 31,
 * decision 136). They are never structured-cloned (which copies them twice);
 * one ArrayBuffer is moved instead:
 * - `'handOver'`: the caller gives the bytes up. When the view spans its whole
 *   ArrayBuffer, that ArrayBuffer itself moves: afterwards every view onto it
 *   here is empty (length 0). Otherwise — a small Buffer from Node's shared
 *   pool, a view into a larger buffer — the bytes are copied once and the copy
 *   moves; the caller's view is then left as it was.
 * - `'keep'`: the caller's bytes stay intact; a copy moves.
 */
export type SourceOwnership = 'handOver' | 'keep';

/** The bytes to send and the ArrayBuffer to move with them. */
export function movableBytes(bytes: Uint8Array, ownership: SourceOwnership): { bytes: Uint8Array; transfer: ArrayBuffer[] } {
  const { buffer } = bytes;
  if (ownership === 'handOver' && buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength && !isMarkedAsUntransferable(buffer)) {
    return { bytes, transfer: [buffer] };
  }
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return { bytes: copy, transfer: [copy.buffer] };
}

/** Pages of a document as it will be sealed; refuses a file that cannot be sealed. */
export async function inspectDocument(source: SealInput['source'], ownership: SourceOwnership): Promise<number> {
  const moved = movableBytes(source.bytes, ownership);
  try {
    return (await runSealJob('inspect', { source: { ...source, bytes: moved.bytes } }, { timeoutMs: 60_000, transfer: moved.transfer })).pageCount;
  } catch (error) {
    throw refusal(error, true);
  }
}

/** Seals in the worker; the sealed file comes back moved, not copied. */
export async function sealInWorker(input: SealInput, ownership: SourceOwnership) {
  const moved = movableBytes(input.source.bytes, ownership);
  try {
    const result = await runSealJob('seal', { ...input, source: { ...input.source, bytes: moved.bytes } }, { transfer: moved.transfer });
    return { ...result, pdf: Buffer.from(result.pdf.buffer, result.pdf.byteOffset, result.pdf.byteLength) };
  } catch (error) {
    throw refusal(error, true);
  }
}

export async function readCertificate(p12: Buffer, password: string) {
  try {
    return await runSealJob('readCertificate', { p12, password }, { timeoutMs: 30_000 });
  } catch (error) {
    throw refusal(error, false);
  }
}

export async function makeTestCertificate(name: string, now: Date) {
  const made = await runSealJob('generateTestCertificate', { name, now });
  return { ...made, p12: Buffer.from(made.p12) };
}
