import { Readable } from 'node:stream';
import type { Deps } from '../../deps.ts';
import { DomainError } from '../../errors.ts';
import { isUuid } from '../../../shared/ids.ts';
import { writeAudit } from '../audit.ts';
import { authorise } from '../access/service.ts';
import { storageRefusal } from '../documents/service.ts';
import type { StaffIdentity } from '../staff/session.ts';
import { maxRecordingChunkBytes, sessionMessages as messages } from '../../../shared/session.ts';
import * as repo from './repository.ts';
import { assembleNext, kickAssembly } from './assembly.ts';
import { assertOpen } from './room-service.ts';
import { notifySessionChanged } from './notifier-service.ts';

/** The console lists a booking's recordings. */
export { listRecordings } from './repository.ts';

/**
 * The recording of a session: its storage keys, the chunks the notary's
 * browser sends, stall warnings, Stop (queued for assembly, assembly.ts),
 * and playback (docs/decisions/031-session-recording.md, 103).
 */

export const recordingPrefix = 'recordings';
/** One object per recording: `recordings/{booking}/{recording}.webm`. */
export const recordingKey = (bookingId: string, recordingId: string) => `${recordingPrefix}/${bookingId}/${recordingId}.webm`;
/** Chunks wait under the recording's own prefix until assembled (then deleted). */
export const chunkKey = (bookingId: string, recordingId: string, seq: number) => `${recordingPrefix}/${bookingId}/${recordingId}.chunks/${String(seq).padStart(6, '0')}.part`;

export const maxChunkSeq = 100_000;

/**
 * The recording, if `staff` may record on its booking (the access policy) and
 * the room is open. The chunk route asks this from the request's headers,
 * before it reads a byte of the body.
 */
export async function recordingForNotary(deps: Deps, staff: StaffIdentity, recordingId: string) {
  const recording = isUuid(recordingId) ? await repo.findRecording(deps.db, recordingId) : null;
  if (!recording) throw new DomainError('NOT_FOUND', 'Recording not found');
  await authorise(deps, { staff }, 'record', { bookingId: recording.bookingId }, { refusal: messages.notAssigned });
  const booking = await repo.findSessionBooking(deps.db, recording.bookingId);
  if (!booking) throw new DomainError('NOT_FOUND', 'Recording not found');
  assertOpen(deps, booking);
  return recording;
}

/**
 * One chunk of a running recording. Idempotent: the same sequence number sent
 * again (the browser retrying after a lost answer) is accepted without storing
 * twice; a different size under the same number is refused.
 */
export async function receiveChunk(deps: Deps, staff: StaffIdentity, input: { recordingId: string; seq: number; body: Buffer }): Promise<{ stored: boolean }> {
  if (!Number.isInteger(input.seq) || input.seq < 0 || input.seq > maxChunkSeq) throw new DomainError('BAD_REQUEST', 'Invalid chunk number.');
  if (input.body.length === 0 || input.body.length > maxRecordingChunkBytes) throw new DomainError('BAD_REQUEST', 'Invalid chunk size.');
  const recording = await recordingForNotary(deps, staff, input.recordingId);
  const existing = await repo.findChunk(deps.db, recording.id, input.seq);
  if (existing) {
    if (existing.sizeBytes !== input.body.length) throw new DomainError('CONFLICT', 'A different chunk was already received under this number.');
    return { stored: false };
  }
  if (recording.status !== 'recording') throw new DomainError('CONFLICT', 'This recording has ended.');
  const key = chunkKey(recording.bookingId, recording.id, input.seq);
  try {
    await deps.storage.put(key, Readable.from([input.body]), { contentType: 'application/octet-stream', upsert: true });
  } catch (error) {
    throw storageRefusal(error, 'this part of the recording');
  }
  const inserted = await repo.insertChunk(deps.db, { recordingId: recording.id, seq: input.seq, sizeBytes: input.body.length, storageKey: key });
  // The room was told the recording had stalled: it runs again, the warning goes.
  if (inserted && (await repo.noteChunkArrived(deps.db, recording.id, deps.now()))) notifySessionChanged(deps, recording.bookingId);
  return { stored: inserted };
}

/** No chunk for RECORDING_STALL_SECONDS while the recording runs: the notary's room warns (decision 103). */
export function recordingStalled(deps: Deps, recording: { status: string; startedAt: Date; lastChunkAt: Date | null }): boolean {
  const last = recording.lastChunkAt ?? recording.startedAt;
  return recording.status === 'recording' && deps.now().getTime() - last.getTime() > deps.config.RECORDING_STALL_SECONDS * 1000;
}

/**
 * Tells the rooms of recordings that stopped receiving chunks, once per stall
 * (any node; the row says it was told); answers their bookings. The stall
 * watch (stall-watch.ts) runs it.
 */
export async function notifyStalledRecordings(deps: Deps): Promise<string[]> {
  const now = deps.now();
  const bookings = await repo.claimStalledRecordings(deps.db, new Date(now.getTime() - deps.config.RECORDING_STALL_SECONDS * 1000), now);
  for (const bookingId of bookings) notifySessionChanged(deps, bookingId);
  return bookings;
}

/**
 * The notary stopped the recording after `chunkCount` chunks: once all of them
 * are here, the recording is queued for assembly (joined in order into one
 * private object by a background worker, `assembly.ts`) and Stop answers at
 * once. Missing numbers are answered so the browser can send them again. A
 * Stop on a recording already queued whose worker died (its lease ran out)
 * sets the assembly going again here.
 */
export async function stopRecording(deps: Deps, staff: StaffIdentity, input: { recordingId: string; chunkCount: number }): Promise<{ missing: number[] }> {
  const recording = await recordingForNotary(deps, staff, input.recordingId);
  if (recording.status === 'stored' || recording.status === 'failed' || recording.status === 'deleted') return { missing: [] };
  if (recording.status === 'recording') {
    const have = new Set((await repo.listChunks(deps.db, recording.id)).map((c) => c.seq));
    const missing: number[] = [];
    for (let seq = 0; seq < input.chunkCount && missing.length < 50; seq++) if (!have.has(seq)) missing.push(seq);
    if (missing.length) return { missing };
    if (await repo.queueAssembly(deps.db, recording.id)) {
      await writeAudit(deps.db, { actorType: 'staff', actorId: staff.user.id, action: 'session.recording_stopped', entityType: 'booking', entityId: recording.bookingId, data: { recordingId: recording.id, chunkCount: input.chunkCount } });
    }
  }
  void kickAssembly(deps);
  notifySessionChanged(deps, recording.bookingId);
  return { missing: [] };
}

/**
 * Queues a recording a crashed browser left running and assembles it now, on
 * this node (retention's pass over idle recordings): 'busy' when another
 * worker holds it.
 */
export async function assembleRecording(deps: Deps, recordingId: string): Promise<'stored' | 'failed' | 'busy'> {
  await repo.queueAssembly(deps.db, recordingId);
  const result = await assembleNext(deps, recordingId);
  return result === 'stored' || result === 'failed' ? result : 'busy';
}

/** Finish waits this long for the recording to be saved before answering "Saving the recording…". */
export const finishWaitsForAssemblyMs = 20_000;

/** Until no recording of the booking is being assembled (kicking this node's worker), or the time is up. */
export async function waitForAssembly(deps: Deps, bookingId: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const recordings = await repo.listRecordings(deps.db, bookingId);
    if (!recordings.some((r) => r.status === 'assembling') || Date.now() >= deadline) return;
    await Promise.race([kickAssembly(deps), new Promise((resolve) => setTimeout(resolve, 250))]);
  }
}

/**
 * A stored recording for playback: admins, and the notary of its booking.
 * Each playback (a request from the first byte) is audited.
 */
export async function openRecording(deps: Deps, staff: StaffIdentity, input: { recordingId: string; range?: { start: number; end: number } }) {
  const recording = isUuid(input.recordingId) ? await repo.findRecording(deps.db, input.recordingId) : null;
  if (!recording || recording.status !== 'stored') throw new DomainError('NOT_FOUND', 'Recording not found');
  await authorise(deps, { staff }, 'play_recording', { bookingId: recording.bookingId }, { refusal: 'You do not have access to this recording.' });
  if (!input.range || input.range.start === 0) {
    await writeAudit(deps.db, { actorType: 'staff', actorId: staff.user.id, action: 'session.recording_played', entityType: 'booking', entityId: recording.bookingId, data: { recordingId: recording.id } });
  }
  return { recording, size: recording.sizeBytes ?? 0 };
}
