import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Deps } from '../../deps.ts';
import { writeAudit } from '../audit.ts';
import * as repo from './repository.ts';
import type { AssemblyClaim } from './repository.ts';
import { repeat } from '../../repeat.ts';
import { durationsMs, indexWebm, NotWebmError, seekableWebm, type WebmIndex } from './webm.ts';

/**
 * Recording assembly as a background job (issue 24 finding 7, issue 31;
 * docs/decisions/072-recording-assembly-job.md). The notary's Stop only
 * queues the recording (`assembling`); any node's worker claims it with
 * `FOR UPDATE SKIP LOCKED` and a lease it renews while joining the chunks. A
 * node killed mid-assembly leaves a lease that runs out; the next Stop, the
 * next Finish or the periodic run takes the recording over, so a recording is
 * never wedged. A failed try (storage full) is retried later with back-off.
 * The joined file is made seekable on the way (Duration and Cues, webm.ts,
 * decision 103) and its SHA-256 recorded with it.
 */

/** A claim's lifetime without renewal; renewed every third of it while the work runs. */
export const assemblyLeaseMs = 60_000;
/** The periodic run that takes over what died elsewhere. */
export const assemblyIntervalMs = 15_000;
const maxBackoffMs = 10 * 60_000;

type Stored = (deps: Deps, bookingId: string) => void;
/** How the room is told a recording was stored (session/notifier-service.ts registers it; no import cycle). */
const storedListeners = new WeakMap<Deps, Stored>();
export function onRecordingStored(deps: Deps, listener: Stored): void {
  storedListeners.set(deps, listener);
}

/** Joins the chunks 0, 1, 2… (up to the first gap) into the recording's object, then deletes them. */
async function assemble(deps: Deps, claim: AssemblyClaim): Promise<'stored' | 'failed' | 'lost'> {
  const chunks = await repo.listChunks(deps.db, claim.id);
  const contiguous = chunks.filter((c, index) => c.seq === index);
  if (contiguous.length === 0) return (await repo.finishAssembly(deps.db, claim.id, { status: 'failed', chunkCount: 0 })) ? 'failed' : 'lost';
  const storage = deps.storage;
  async function* bytes() {
    for (const chunk of contiguous) {
      const object = await storage.get(chunk.storageKey);
      for await (const piece of object.body as AsyncIterable<Buffer>) yield piece;
    }
  }
  // First pass: the structure, so the file can carry its duration and cues (decision 103).
  // Bytes that are not a WebM we can rewrite (a browser's odd output) are stored as they came.
  let index: WebmIndex | null = null;
  try {
    index = await indexWebm(bytes());
  } catch (error) {
    if (!(error instanceof NotWebmError)) throw error;
    deps.log.warn({ recordingId: claim.id, reason: error.message }, 'recording stored as received: not a WebM that can be made seekable');
  }
  // Second pass: the file as stored, hashed as it is written (its tamper-evidence).
  const hash = createHash('sha256');
  const output = index ? seekableWebm(bytes(), index) : bytes();
  async function* hashed() {
    for await (const piece of output) {
      hash.update(piece);
      yield piece;
    }
  }
  // S3: put() sends multipart parts of at least 5 MB as it goes (the last may be smaller).
  const { size } = await storage.put(claim.storageKey, Readable.from(hashed()), { contentType: claim.mimeType, upsert: true });
  const sha256 = hash.digest('hex');
  const durationMs = index ? durationsMs(index).durationMs : null;
  // Another node took the claim over meanwhile and finished first: its row stands (the bytes are the same chunks).
  if (!(await repo.finishAssembly(deps.db, claim.id, { status: 'stored', sizeBytes: size, chunkCount: contiguous.length, storedAt: deps.now(), sha256, durationMs }))) return 'lost';
  for (const chunk of chunks) await storage.delete(chunk.storageKey).catch(() => {});
  await repo.deleteChunks(deps.db, claim.id);
  await writeAudit(deps.db, {
    actorType: 'system',
    action: 'session.recording_stored',
    entityType: 'booking',
    entityId: claim.bookingId,
    data: { recordingId: claim.id, sha256, sizeBytes: size, durationMs, chunkCount: contiguous.length, seekable: index !== null, ...(index?.truncated ? { truncated: true } : {}) },
  });
  return 'stored';
}

/** Claims (a given recording, or any) and assembles; null when there was nothing to claim. */
export async function assembleNext(deps: Deps, recordingId?: string): Promise<'stored' | 'failed' | 'lost' | null> {
  const now = deps.now();
  const claim = await repo.claimAssembly(deps.db, now, new Date(now.getTime() + assemblyLeaseMs), recordingId);
  if (!claim) return null;
  const renew = setInterval(() => {
    void repo.renewAssembly(deps.db, claim.id, new Date(deps.now().getTime() + assemblyLeaseMs)).catch(() => {});
  }, assemblyLeaseMs / 3);
  renew.unref();
  try {
    const result = await assemble(deps, claim);
    if (result !== 'lost') storedListeners.get(deps)?.(deps, claim.bookingId);
    return result;
  } catch (error) {
    const backoff = Math.min(maxBackoffMs, 15_000 * 2 ** claim.attempts);
    deps.log.error({ err: error, recordingId: claim.id, attempt: claim.attempts + 1 }, 'recording assembly failed; retrying later');
    await repo.deferAssembly(deps.db, claim.id, new Date(deps.now().getTime() + backoff)).catch(() => {});
    return 'lost';
  } finally {
    clearInterval(renew);
  }
}

/** Assembles everything claimable now (one at a time per node). */
export async function runAssemblies(deps: Deps): Promise<number> {
  let done = 0;
  while ((await assembleNext(deps)) !== null) done++;
  return done;
}

const runs = new WeakMap<Deps, { done: Promise<void>; again: boolean }>();

/**
 * Starts assembling in the background on this node (Stop, Finish and the
 * periodic run call it); a run already under way goes round once more to
 * pick the new work up. Never throws; answers when this node's run ends.
 */
export function kickAssembly(deps: Deps): Promise<void> {
  const current = runs.get(deps);
  if (current) {
    current.again = true;
    return current.done;
  }
  const entry = { done: Promise.resolve(), again: true };
  runs.set(deps, entry);
  entry.done = (async () => {
    while (entry.again) {
      entry.again = false;
      try {
        await runAssemblies(deps);
      } catch (error) {
        deps.log.error({ err: error }, 'recording assembly run failed');
      }
    }
    // No await between the last check and this: a kick either saw `again` read or finds no run.
    runs.delete(deps);
  })();
  return entry.done;
}

/** Waits for this node's background assembly, if any (tests; shutdown). */
export async function assemblyIdle(deps: Deps): Promise<void> {
  while (runs.get(deps)) await runs.get(deps)!.done;
}

export interface AssemblyJob {
  stop(): Promise<void>;
}

/** Every node runs it: SKIP LOCKED shares the rows out, the lease hands over what a dead node held. */
export function startAssemblyJob(deps: Deps, options: { intervalMs?: number } = {}): AssemblyJob {
  let stopped = false;
  const tick = () => {
    if (!stopped) void kickAssembly(deps);
  };
  const cancel = repeat(tick, 1_000, options.intervalMs ?? assemblyIntervalMs);
  return {
    /** Stops starting new work. A run under way is not waited for: if the process ends first, its lease runs out and another node (or the next start) takes the recording over. */
    async stop() {
      stopped = true;
      cancel();
    },
  };
}
