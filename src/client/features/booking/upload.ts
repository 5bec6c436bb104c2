import type { UploadResult } from '../../../shared/booking.ts';
import { acceptedFileExtensions, fileTooLargeMessage, maxFileBytes, unsupportedFileMessage } from '../../../shared/booking-rules.ts';

/**
 * Uploading one document: ask the server for a one-time URL, then PUT the raw
 * bytes with XMLHttpRequest (fetch cannot report upload progress). Up to two
 * attempts with a 500 ms pause (docs/product.md §4.2); a refusal the server gives a
 * reason for (too large, wrong type, booking paid) is not retried.
 */

export const uploadFailedMessage = 'Failed to upload documents. Please try again.';

/** Progress markers (docs/product.md §4.2): 10 at start, 25 on attempt 1, 50 on attempt 2, 100 when done. */
export const progressMarks = { start: 10, attempt: [25, 50] as const, done: 100 };
export const maxAttempts = 2;
export const retryPauseMs = 500;

export class UploadError extends Error {
  /** False when the server refused the file for a reason retrying cannot fix. */
  retryable: boolean;
  constructor(message: string, retryable: boolean) {
    super(message);
    this.retryable = retryable;
  }
}

/** Client-side pre-check, the same rules the server applies again to the bytes. */
export function precheckFile(file: { name: string; size: number }): string | null {
  const dot = file.name.lastIndexOf('.');
  const extension = dot >= 0 ? file.name.slice(dot).toLowerCase() : '';
  if (!(acceptedFileExtensions as readonly string[]).includes(extension)) return unsupportedFileMessage(file.name);
  if (file.size > maxFileBytes) return fileTooLargeMessage(file.name);
  return null;
}

/** PUT the bytes; `onProgress` gets the fraction sent (0–1). */
export function putFile(url: string, file: Blob, onProgress: (fraction: number) => void): Promise<UploadResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    xhr.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: { error?: string } & Partial<UploadResult> = {};
      try {
        body = JSON.parse(xhr.responseText || '{}');
      } catch {
        // not JSON: judged by the status below
      }
      if (xhr.status === 201 || xhr.status === 200) {
        if (body.document) return resolve(body as UploadResult);
        return reject(new UploadError(uploadFailedMessage, true));
      }
      // 4xx with a reason (size, type, empty, paid) is final; anything else may pass on a second try.
      const final = xhr.status >= 400 && xhr.status < 500 && xhr.status !== 408 && xhr.status !== 429 && !!body.error;
      reject(new UploadError(body.error ?? uploadFailedMessage, !final));
    };
    xhr.onerror = () => reject(new UploadError(uploadFailedMessage, true));
    xhr.ontimeout = () => reject(new UploadError(uploadFailedMessage, true));
    xhr.send(file);
  });
}

export interface UploadAttemptDeps {
  /** Asks the server for a fresh one-time upload URL. */
  createTarget: () => Promise<{ uploadUrl: string }>;
  put: (url: string, onProgress: (fraction: number) => void) => Promise<UploadResult>;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * One file, up to two attempts. Progress never goes below the attempt's
 * marker and real upload progress fills the space up to 99 until the server
 * has stored and checked the file.
 */
export async function uploadWithRetry(deps: UploadAttemptDeps, onProgress: (percent: number) => void): Promise<UploadResult> {
  const sleep = deps.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  onProgress(progressMarks.start);
  let lastError: unknown;
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    const floor = progressMarks.attempt[attempt]!;
    onProgress(floor);
    try {
      const target = await deps.createTarget();
      const result = await deps.put(target.uploadUrl, (fraction) => {
        onProgress(Math.max(floor, Math.min(99, Math.round(floor + fraction * (99 - floor)))));
      });
      onProgress(progressMarks.done);
      return result;
    } catch (error) {
      lastError = error;
      if (error instanceof UploadError && !error.retryable) throw error;
      if (attempt < maxAttempts - 1) await sleep(retryPauseMs);
    }
  }
  throw lastError instanceof UploadError ? lastError : new UploadError(uploadFailedMessage, true);
}
