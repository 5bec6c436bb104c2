import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { CertificateInfo } from './certificates.ts';
import type { SealInput, SealResult } from './pdf.ts';

/**
 * The request thread's side of the seal worker (docs/decisions/061): jobs go
 * to at most two worker threads, each with a V8 heap cap, and a job that
 * runs past its time is ended with its thread. The request thread only waits:
 * `/healthz` and every other request keep answering while seals run
 * (issue 24 finding 1, issue 31). Threads start with the first job, stay for
 * 30 s of idleness and never keep the process alive.
 */
export type SealJob =
  | { kind: 'inspect'; input: { source: SealInput['source'] } }
  | { kind: 'seal'; input: SealInput }
  | { kind: 'readCertificate'; input: { p12: Uint8Array; password: string } }
  | { kind: 'generateTestCertificate'; input: { name: string; now: Date } };

export interface SealJobResults {
  inspect: { pageCount: number };
  seal: SealResult;
  readCertificate: CertificateInfo;
  generateTestCertificate: { p12: Uint8Array; password: string; info: CertificateInfo };
}

/** A refusal or failure from the worker, by the name of the error it threw there. */
export class SealJobError extends Error {
  readonly kind: string;
  constructor(kind: string, message: string) {
    super(message);
    this.name = 'SealJobError';
    this.kind = kind;
  }
}

const workerScript = new URL('./seal-worker.ts', import.meta.url);
/** Leave a core to the event loop on small machines; two seals at once at most. */
const maxWorkers = Math.max(1, Math.min(2, availableParallelism() - 1));
const idleMs = 30_000;
/** Heap per thread: a 10 MB scan needs ~300 MB in pdf-lib; a decoded 50 MP image ~200 MB more. */
export const sealWorkerLimits = { maxOldGenerationSizeMb: 1024, maxYoungGenerationSizeMb: 64 };
const defaultTimeoutMs = 120_000;

interface Slot {
  worker: Worker;
  busy: boolean;
  idleTimer: NodeJS.Timeout | null;
}

const slots = new Set<Slot>();
const waiting: (() => void)[] = [];
let nextId = 1;

function startSlot(): Slot {
  const worker = new Worker(workerScript, { resourceLimits: sealWorkerLimits });
  worker.unref();
  const slot: Slot = { worker, busy: false, idleTimer: null };
  worker.on('exit', () => slots.delete(slot));
  slots.add(slot);
  return slot;
}

async function acquire(): Promise<Slot> {
  for (;;) {
    const idle = [...slots].find((s) => !s.busy);
    if (idle) {
      if (idle.idleTimer) clearTimeout(idle.idleTimer);
      idle.busy = true;
      return idle;
    }
    if (slots.size < maxWorkers) {
      const slot = startSlot();
      slot.busy = true;
      return slot;
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
}

function release(slot: Slot, healthy: boolean) {
  slot.busy = false;
  if (!healthy) {
    slots.delete(slot);
    void slot.worker.terminate();
  } else {
    slot.idleTimer = setTimeout(() => {
      slots.delete(slot);
      void slot.worker.terminate();
    }, idleMs);
    slot.idleTimer.unref();
  }
  waiting.shift()?.();
}

/**
 * Runs one job in a seal worker; rejects with SealJobError (the worker's error) or on timeout or crash.
 * `transfer`: ArrayBuffers of `input` moved to the worker instead of copied (structured clone
 * copies every byte twice); each is detached here once the job is posted, whatever its outcome.
 */
export async function runSealJob<K extends SealJob['kind']>(
  kind: K,
  input: Extract<SealJob, { kind: K }>['input'],
  options: { timeoutMs?: number; transfer?: ArrayBuffer[] } = {},
): Promise<SealJobResults[K]> {
  const slot = await acquire();
  const id = nextId++;
  return new Promise<SealJobResults[K]>((resolve, reject) => {
    let settled = false;
    const finish = (healthy: boolean, outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      slot.worker.off('message', onMessage);
      slot.worker.off('error', onError);
      slot.worker.off('exit', onExit);
      release(slot, healthy);
      outcome();
    };
    const onMessage = (message: { id: number; ok: boolean; result?: SealJobResults[K]; error?: { name: string; message: string } }) => {
      if (message.id !== id) return;
      finish(true, () => (message.ok ? resolve(message.result!) : reject(new SealJobError(message.error!.name, message.error!.message))));
    };
    // Out of memory (ERR_WORKER_OUT_OF_MEMORY) or any crash: this job fails, the thread is replaced.
    const onError = (error: Error) => finish(false, () => reject(new SealJobError('WorkerCrashed', error.message)));
    const onExit = () => finish(false, () => reject(new SealJobError('WorkerCrashed', 'the seal worker stopped')));
    const timer = setTimeout(() => finish(false, () => reject(new SealJobError('Timeout', `the ${kind} job ran past its time`))), options.timeoutMs ?? defaultTimeoutMs);
    slot.worker.on('message', onMessage);
    slot.worker.on('error', onError);
    slot.worker.on('exit', onExit);
    try {
      slot.worker.postMessage({ id, job: { kind, input } }, options.transfer ?? []);
    } catch (error) {
      // Not sent (a buffer that cannot be moved or cloned): the thread is untouched.
      finish(true, () => reject(error as Error));
    }
  });
}

/** Ends every seal thread (tests; the process's exit does it otherwise). */
export async function closeSealWorkers(): Promise<void> {
  await Promise.all([...slots].map((slot) => slot.worker.terminate()));
  slots.clear();
}
