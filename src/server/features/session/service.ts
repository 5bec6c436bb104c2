import { Readable } from 'node:stream';
import type { Deps } from '../../deps.ts';
import { DomainError } from '../../errors.ts';
import { isUuid } from '../../../shared/ids.ts';
import { writeAudit } from '../audit.ts';
import { authorise, staffMay } from '../access/service.ts';
import { markBookingOutcome } from '../booking/service.ts';
import { storageRefusal } from '../documents/service.ts';
import { onSessionFinished } from '../notifications/events.ts';
import { staffFromCookieHeader, type StaffIdentity } from '../staff/session.ts';
import {
  maxRecordingChunkBytes,
  recordingMimeType,
  roomIsOpen,
  sessionMessages as messages,
  type SessionAccess,
  type SessionChatMessage,
  type SessionOutcome,
  type SessionRole,
  type SessionState,
  type SessionView,
} from '../../../shared/session.ts';
import * as repo from './repository.ts';
import { assembleNext, kickAssembly, onRecordingStored } from './assembly.ts';
import { actChanged, actStage, finishRefusalsFor, onActChanged, takeTransition } from '../act/service.ts';
import { onActFinished } from '../notarial-act/service.ts';
import { listForBooking, markParticipantJoined } from '../participants/service.ts';
import type { SessionBooking } from './repository.ts';

/** Reads the console shows beside a booking (session state, recordings). */
export { findSessionBooking, listRecordings } from './repository.ts';

/**
 * The video session of a confirmed booking: who may enter, starting (the
 * recorded act), the recording's chunks, the room's chat, and finishing with
 * an outcome. Rules live here; the socket namespace, tRPC router and HTTP
 * routes only translate (docs/decisions/030-session-room.md, 031-session-recording.md).
 *
 * The act's rules (who may start, confirm, sign, seal, finish, and when) are
 * the act's state machine's (features/act/service.ts, decision 073): start and
 * finish take its transitions; `notifySessionChanged` is its one bus.
 * `SessionView` (src/shared/session.ts) and `getSessionView`: add fields.
 */

/** Who is in the room: the booking's customer (manage token) or its assigned notary. */
export interface Participant {
  bookingId: string;
  role: SessionRole;
  /** The notary's staff id; null for the customer. */
  staffId: string | null;
  staffTimeZone: string | null;
  /** A co-signer or witness (role 'participant'): their row's id; null for the customer and the notary. */
  participantId: string | null;
}

/**
 * Resolves the credentials of a request or socket to a participant, or throws.
 * Refused: a stranger, another booking's token, staff or admins, a notary not
 * assigned to this booking, and — with `requireOpen` — a room that is not open
 * (cancelled, not yet 10 minutes before, finished).
 */
export async function resolveParticipant(
  deps: Deps,
  access: SessionAccess,
  cookieHeader: string | undefined,
  options: { requireOpen?: boolean } = {},
): Promise<{ participant: Participant; booking: SessionBooking }> {
  // Who may enter is the access policy's answer ('join_room'); whether the room is open is ours.
  const grant =
    'token' in access
      ? await authorise(deps, { token: access.token }, 'join_room', {}, { notFound: messages.notFound })
      : await authorise(deps, { staff: await staffFromCookieHeader(deps, cookieHeader) }, 'join_room', { bookingId: access.bookingId }, { refusal: messages.notAssigned, notFound: messages.notFound });
  const participant: Participant = grant.staff
    ? { bookingId: grant.bookingId, role: 'notary', staffId: grant.staff.user.id, staffTimeZone: grant.staff.user.timeZone, participantId: null }
    : grant.participant
      ? { bookingId: grant.bookingId, role: 'participant', staffId: null, staffTimeZone: null, participantId: grant.participant.id }
      : { bookingId: grant.bookingId, role: 'customer', staffId: null, staffTimeZone: null, participantId: null };
  const booking = await repo.findSessionBooking(deps.db, participant.bookingId);
  if (!booking) throw new DomainError('NOT_FOUND', messages.notFound);
  if (options.requireOpen ?? true) assertOpen(deps, booking);
  return { participant, booking };
}

function assertOpen(deps: Deps, booking: SessionBooking): void {
  if (roomIsOpen(booking, booking.finishedAt !== null, deps.now())) return;
  if (booking.status === 'confirmed' && booking.finishedAt === null) throw new DomainError('CONFLICT', messages.notOpenYet);
  throw new DomainError('CONFLICT', messages.closed);
}

// ---- Telling the room --------------------------------------------------------

export interface SessionNotifier {
  updated(bookingId: string): void;
  closed(bookingId: string, reason: string): void;
  /** Who may be in the room may have changed (cancelled, reassigned): sockets re-check access. */
  accessChanged(bookingId: string): void;
}
const closers = new WeakMap<Deps, SessionNotifier['closed']>();

/** The socket namespace registers itself here (one per server): the act's changes reach the room as `session:updated`. */
export function registerSessionNotifier(deps: Deps, notifier: SessionNotifier): void {
  closers.set(deps, notifier.closed);
  onActChanged(deps, (bookingId, kind) => {
    if (kind === 'access') notifier.accessChanged(bookingId);
    notifier.updated(bookingId);
  });
  onRecordingStored(deps, (d, bookingId) => actChanged(d, bookingId));
}

/** Both participants refetch the session view (the act's one bus; every node). Call after commit. */
export function notifySessionChanged(deps: Deps, bookingId: string): void {
  actChanged(deps, bookingId);
}

function notifySessionClosed(deps: Deps, bookingId: string, reason: string): void {
  closers.get(deps)?.(bookingId, reason);
}

// ---- The view ----------------------------------------------------------------

export function sessionStateOf(row: { finishedAt: Date | null; customerJoinedAt: Date | null; startedAt: Date | null }, hasStoredRecording: boolean): SessionState {
  if (row.finishedAt) return 'finished';
  if (hasStoredRecording) return 'recorded';
  if (row.customerJoinedAt || row.startedAt) return 'in_session';
  return 'waiting';
}

const name = (first: string | null, last: string | null) => [first, last].filter(Boolean).join(' ') || 'Customer';

function documentUrl(participant: Participant, access: SessionAccess, documentId: string): string {
  return participant.role === 'customer' && 'token' in access
    ? `/api/manage/documents/${documentId}?token=${encodeURIComponent(access.token)}`
    : `/api/staff/documents/${documentId}`;
}

export async function getSessionView(deps: Deps, participant: Participant, booking: SessionBooking, access: SessionAccess): Promise<SessionView> {
  const [documents, recordings, participants] = await Promise.all([repo.sessionDocuments(deps.db, booking.id), repo.listRecordings(deps.db, booking.id), listForBooking(deps.db, booking.id)]);
  const stored = recordings.some((r) => r.status === 'stored');
  const [finishBlockers, act] = await Promise.all([
    participant.role === 'notary' ? finishRefusalsFor(deps.db, booking.id, 'completed') : Promise.resolve([]),
    actStage(deps.db, booking.id),
  ]);
  return {
    bookingId: booking.id,
    reference: booking.reference,
    role: participant.role,
    bookingStatus: booking.status,
    kind: booking.kind,
    startsAt: booking.startsAt,
    timeZone: participant.role === 'notary' ? (participant.staffTimeZone ?? booking.notaryTimeZone ?? booking.timeZone) : booking.timeZone,
    state: sessionStateOf(booking, stored),
    open: roomIsOpen(booking, booking.finishedAt !== null, deps.now()),
    customerName: name(booking.customerFirstName, booking.customerLastName),
    notaryName: booking.notaryName || 'Your notary',
    startedAt: booking.startedAt,
    finishedAt: booking.finishedAt,
    outcome: booking.outcome,
    // A participant sees the documents only through their own signing (the fields' work); the list is the customer's and the notary's.
    documents: participant.role === 'participant' ? [] : documents.map((d) => ({ id: d.id, name: d.name, contentType: d.contentType ?? 'application/octet-stream', sizeBytes: d.sizeBytes ?? 0, url: documentUrl(participant, access, d.id) })),
    recordings: participant.role === 'notary' ? recordings.map((r) => ({ id: r.id, status: r.status, startedAt: r.startedAt, sizeBytes: r.sizeBytes })) : [],
    recordingActive: recordings.some((r) => r.status === 'recording'),
    recordingSaving: recordings.some((r) => r.status === 'assembling'),
    recordingStalled: participant.role === 'notary' && recordings.some((r) => recordingStalled(deps, r)),
    finishBlockers,
    stage: act.stage,
    participantId: participant.participantId,
    participants: participants.map((p) => ({ id: p.id, role: p.role, name: p.name, status: p.status })),
  };
}

/** A co-signer or witness entered the room (first time: their status becomes 'joined'). */
export async function markJoined(deps: Deps, participant: Participant): Promise<void> {
  if (participant.role === 'customer') await markCustomerJoined(deps, participant.bookingId);
  else if (participant.participantId) await markParticipantJoined(deps, participant.participantId);
}

/** The customer entered the room (the notary's list shows "In session"). */
export async function markCustomerJoined(deps: Deps, bookingId: string): Promise<void> {
  await repo.upsertSession(deps.db, bookingId, { customerJoinedAt: deps.now() });
  notifySessionChanged(deps, bookingId);
}

// ---- Start and finish --------------------------------------------------------

/**
 * The notary starts the recorded act: preconditions, then a new recording
 * (a session may have several: a crashed browser starts a new one; what the
 * earlier one received is kept). Returns where to send the chunks.
 */
export async function startSession(deps: Deps, participant: Participant): Promise<{ recordingId: string; mimeType: string }> {
  if (participant.role !== 'notary' || !participant.staffId) throw new DomainError('FORBIDDEN', messages.notAssigned);
  // A recording left running by a crashed browser is kept with what arrived: queued for assembly.
  let queued = false;
  for (const earlier of await repo.listRecordings(deps.db, participant.bookingId)) {
    if (earlier.status === 'recording') queued = (await repo.queueAssembly(deps.db, earlier.id)) || queued;
  }
  if (queued) void kickAssembly(deps);
  const recording = await deps.db.transaction(async (tx) => {
    const booking = await repo.findSessionBooking(tx, participant.bookingId);
    if (!booking) throw new DomainError('NOT_FOUND', messages.notFound);
    // Again under the transaction: an appointment reassigned meanwhile is no longer this notary's to record.
    if (!staffMay({ id: participant.staffId!, role: 'notary' }, 'record', booking.notaryId)) throw new DomainError('FORBIDDEN', messages.notAssigned);
    assertOpen(deps, booking);
    const id = crypto.randomUUID();
    return takeTransition(deps, tx, { bookingId: booking.id, transition: 'startRecording', actor: { type: 'staff', id: participant.staffId }, data: { recordingId: id } }, async () => {
      if (!booking.startedAt) await repo.upsertSession(tx, booking.id, { startedAt: deps.now() });
      const row = await repo.insertRecording(tx, {
        id,
        bookingId: booking.id,
        mimeType: recordingMimeType,
        storageKey: recordingKey(booking.id, id),
        startedBy: participant.staffId,
        startedAt: deps.now(),
      });
      await writeAudit(tx, { actorType: 'staff', actorId: participant.staffId!, action: 'session.recording_started', entityType: 'booking', entityId: booking.id, data: { recordingId: id } });
      return { changed: true, result: row };
    });
  });
  notifySessionChanged(deps, participant.bookingId);
  return { recordingId: recording.id, mimeType: recording.mimeType };
}

export interface FinishActor {
  staffId: string;
  role: StaffIdentity['user']['role'];
}

/**
 * Ends the session with an outcome: the booking becomes completed, no-show or
 * not completed, the customer is emailed, and the room closes for both.
 * Called from the room (the notary) and from the console (staff may record a
 * no-show; completing always needs the recording, whoever asks).
 */
export async function finishSession(deps: Deps, actor: FinishActor, input: { bookingId: string; outcome: SessionOutcome; reason?: string }): Promise<void> {
  // A recording still being saved is waited for (bounded); the room says "Saving the recording…" meanwhile.
  if (input.outcome !== 'no_show' && isUuid(input.bookingId)) await waitForAssembly(deps, input.bookingId, finishWaitsForAssemblyMs);
  await deps.db.transaction(async (tx) => {
    const booking = isUuid(input.bookingId) ? await repo.findSessionBooking(tx, input.bookingId) : null;
    if (!booking) throw new DomainError('NOT_FOUND', messages.notFound);
    if (!staffMay({ id: actor.staffId, role: actor.role }, 'finish', booking.notaryId)) throw new DomainError('FORBIDDEN', messages.notAssigned);
    if (booking.status !== 'confirmed') throw new DomainError('CONFLICT', 'Only a confirmed booking can be finished.');
    if (input.outcome === 'no_show' && (!booking.startsAt || booking.startsAt.getTime() > deps.now().getTime())) throw new DomainError('CONFLICT', messages.tooEarlyForNoShow);
    const reason = input.outcome === 'completed' ? null : (input.reason?.trim() || null);
    await takeTransition(
      deps,
      tx,
      { bookingId: booking.id, transition: 'finish', actor: { type: 'staff', id: actor.staffId }, input: { outcome: input.outcome }, data: { outcome: input.outcome } },
      async () => {
        await markBookingOutcome(tx, deps, { bookingId: booking.id, outcome: input.outcome, staffId: actor.staffId });
        await repo.upsertSession(tx, booking.id, { finishedAt: deps.now(), outcome: input.outcome, outcomeReason: reason, finishedBy: actor.staffId });
        await writeAudit(tx, { actorType: 'staff', actorId: actor.staffId, action: 'session.finished', entityType: 'booking', entityId: booking.id, data: { outcome: input.outcome, reason } });
        await onSessionFinished(tx, deps, { bookingId: booking.id, outcome: input.outcome, reason });
        // Completed: "Your notarized document is ready", in the same transaction.
        if (input.outcome === 'completed') await onActFinished(tx, deps, booking.id);
        return { changed: true, result: undefined };
      },
    );
  });
  notifySessionChanged(deps, input.bookingId);
  notifySessionClosed(deps, input.bookingId, messages.closed);
}

// ---- Recording ---------------------------------------------------------------

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
function recordingStalled(deps: Deps, recording: { status: string; startedAt: Date; lastChunkAt: Date | null }): boolean {
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
async function waitForAssembly(deps: Deps, bookingId: string, timeoutMs: number): Promise<void> {
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

// ---- Chat --------------------------------------------------------------------

export async function chatHistory(deps: Deps, bookingId: string): Promise<SessionChatMessage[]> {
  return repo.listMessages(deps.db, bookingId);
}

export async function postChat(deps: Deps, participant: Participant, input: { clientId: string; body: string }) {
  return repo.insertMessage(deps.db, { bookingId: participant.bookingId, sender: participant.role, participantId: participant.participantId, clientId: input.clientId, body: input.body });
}
