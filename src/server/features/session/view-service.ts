import type { Deps } from '../../deps.ts';
import { roomIsOpen, type SessionAccess, type SessionState, type SessionView } from '../../../shared/session.ts';
import * as repo from './repository.ts';
import { actStage, finishRefusalsFor } from '../act/service.ts';
import { listForBooking } from '../participants/service.ts';
import { mayDo } from '../access/service.ts';
import type { SessionBooking } from './repository.ts';
import type { Participant } from './room-service.ts';
import { recordingStalled } from './recording-service.ts';

/**
 * What each side of the room sees (`session.get`): `SessionView`
 * (src/shared/session.ts) and `getSessionView`: add fields.
 */

export function sessionStateOf(row: { finishedAt: Date | null; customerJoinedAt: Date | null; startedAt: Date | null }, hasStoredRecording: boolean): SessionState {
  if (row.finishedAt) return 'finished';
  if (hasStoredRecording) return 'recorded';
  if (row.customerJoinedAt || row.startedAt) return 'in_session';
  return 'waiting';
}

const name = (first: string | null, last: string | null) => [first, last].filter(Boolean).join(' ') || 'Customer';

function documentUrl(participant: Participant, access: SessionAccess, documentId: string): string {
  return participant.role !== 'notary' && 'token' in access
    ? `/api/manage/documents/${documentId}?token=${encodeURIComponent(access.token)}`
    : `/api/staff/documents/${documentId}`;
}

/** The booking's documents this person may read: supporting files (an ID photo, a reference copy) only if the access table says so (decision 133). */
function readableBy<T extends { supporting: boolean }>(participant: Participant, documents: T[]): T[] {
  return mayDo(participant.accessRole, 'download_supporting') ? documents : documents.filter((d) => !d.supporting);
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
    // A co-signer or witness sees the documents to sign (each by their own link), never a supporting file such as the customer's ID (decision 133).
    documents: readableBy(participant, documents).map((d) => ({ id: d.id, name: d.name, contentType: d.contentType ?? 'application/octet-stream', sizeBytes: d.sizeBytes ?? 0, url: documentUrl(participant, access, d.id) })),
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
