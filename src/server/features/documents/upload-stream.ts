import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';

/**
 * The stream plumbing of an upload, apart from its rules: reading the first
 * bytes of a request body, then counting the rest on its way to storage.
 * Knows no messages: every way a body can stop is named (`BodyStop`) and the
 * caller turns it into the refusal the visitor reads (documents/service.ts).
 */

/** A request body as Node gives it (an IncomingMessage), or any readable in tests. */
export type RequestBody = Readable & { complete?: boolean };

/** Why a body stopped before it was all stored. */
export type BodyStop = 'aborted' | 'too-large' | 'too-slow' | 'shutting-down';

/**
 * Reads until at least `bytes` have arrived (or the body ended) and leaves the
 * stream paused, so the rest can be piped on. Rejects with `stop('aborted')`
 * when the client goes away first.
 */
export function readHead(body: RequestBody, bytes: number, stop: (why: BodyStop) => Error): Promise<{ head: Buffer; ended: boolean }> {
  return new Promise((resolve, reject) => {
    // The client may have gone while we were looking up the token: 'close' has already fired.
    if (body.destroyed && !body.readableEnded) return reject(stop('aborted'));
    const chunks: Buffer[] = [];
    let length = 0;
    const cleanup = () => {
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onAbort);
      body.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= bytes) {
        body.pause();
        cleanup();
        resolve({ head: Buffer.concat(chunks, length), ended: false });
      }
    };
    const onEnd = () => {
      cleanup();
      resolve({ head: Buffer.concat(chunks, length), ended: true });
    };
    const onAbort = () => {
      cleanup();
      reject(stop('aborted'));
    };
    const onClose = () => {
      if (!body.readableEnded) onAbort();
    };
    body.on('data', onData);
    body.on('end', onEnd);
    body.on('error', onAbort);
    body.on('close', onClose);
  });
}

export interface CountedBody {
  /** `head` then the rest of the body; fails with `stop(why)` when the body stops early. */
  stream: Readable;
  /** Bytes passed so far (all of them once `stream` has been consumed). */
  size(): number;
  /** Detaches from the body and the deadline; call once `stream` is consumed or abandoned. */
  release(): void;
}

/**
 * The rest of a body after `readHead`, counted on its way through: past
 * `maxBytes` it fails ('too-large'), as it does when the client aborts, when
 * `timeoutMs` pass, or when `deadline` fires (the node is shutting down,
 * docs/decisions/028).
 */
export function countedBody(
  body: RequestBody,
  { head, ended }: { head: Buffer; ended: boolean },
  options: { maxBytes: number; timeoutMs: number; deadline?: AbortSignal; stop: (why: BodyStop) => Error },
): CountedBody {
  const { maxBytes, deadline, stop } = options;
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > maxBytes) callback(stop('too-large'));
      else callback(null, chunk);
    },
  });
  const onAbort = () => counter.destroy(stop('aborted'));
  const onClose = () => {
    if (!body.readableEnded) onAbort();
  };
  const onDeadline = () => counter.destroy(stop('shutting-down'));
  const tooSlow = setTimeout(() => counter.destroy(stop('too-slow')), options.timeoutMs);
  tooSlow.unref();
  body.on('error', onAbort);
  body.on('close', onClose);
  if (deadline?.aborted) onDeadline();
  else deadline?.addEventListener('abort', onDeadline, { once: true });
  counter.write(head);
  if (ended) counter.end();
  else body.pipe(counter);
  return {
    stream: counter,
    size: () => size,
    release() {
      body.unpipe(counter);
      body.off('error', onAbort);
      body.off('close', onClose);
      deadline?.removeEventListener('abort', onDeadline);
      clearTimeout(tooSlow);
    },
  };
}
