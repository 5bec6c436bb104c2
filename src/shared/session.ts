import { z } from 'zod';
import type { ActStage } from './act-stages.ts';
import { isPlainText } from './fields.ts';
import type { BookingStatus } from './booking.ts';
import { manageTokenSchema } from './manage-booking.ts';

/**
 * The video session of a confirmed booking, shared by the server and the room
 * (docs/decisions/030-session-room.md). The customer reaches it with the private
 * manage token; the assigned notary with the staff session and the booking id.
 */

/** The room opens this long before the appointment and stays open until the notary finishes. */
export const roomOpensMinutesBefore = 10;
export const roomOpensMs = roomOpensMinutesBefore * 60_000;

/** Whether the room is open at `now` for a booking in `status` starting at `startsAt`. */
export function roomIsOpen(booking: { status: BookingStatus; startsAt: Date | null }, finished: boolean, now: Date): boolean {
  if (booking.status !== 'confirmed' || !booking.startsAt || finished) return false;
  return now.getTime() >= booking.startsAt.getTime() - roomOpensMs;
}

/** 'participant': a co-signer or witness by their own link (issue 29; decision 121). */
export const sessionRoles = ['customer', 'notary', 'participant'] as const;
export type SessionRole = (typeof sessionRoles)[number];

/** How a participant names the room: the manage token (customer) or the booking id (notary, with the staff cookie). */
export const sessionAccessInput = z.union([
  z.object({ token: manageTokenSchema }).strict(),
  z.object({ bookingId: z.uuid() }).strict(),
]);
export type SessionAccess = z.infer<typeof sessionAccessInput>;

export const sessionStates = ['waiting', 'in_session', 'recorded', 'finished'] as const;
export type SessionState = (typeof sessionStates)[number];
export const sessionStateLabels: Record<SessionState, string> = {
  waiting: 'Waiting for customer',
  in_session: 'In session',
  recorded: 'Recorded',
  finished: 'Finished',
};

export const sessionOutcomes = ['completed', 'no_show', 'not_completed'] as const;
export type SessionOutcome = (typeof sessionOutcomes)[number];
export const sessionOutcomeLabels: Record<SessionOutcome, string> = {
  completed: 'Completed',
  no_show: 'Customer did not attend (no-show)',
  not_completed: 'Could not be completed',
};

export const finishInput = z
  .object({
    outcome: z.enum(sessionOutcomes),
    reason: z.string().trim().max(1000).optional(),
  })
  .refine((v) => v.outcome === 'completed' || (v.reason && v.reason.length >= 3), {
    message: 'Please give a reason (at least 3 characters).',
    path: ['reason'],
  });

export const recordingIdInput = z.object({ recordingId: z.uuid() });
export const stopRecordingInput = z.object({ recordingId: z.uuid(), chunkCount: z.number().int().min(0).max(100_000) });

/** One upload is one MediaRecorder timeslice (2 s): a few hundred KB; this bounds a runaway client. */
export const maxRecordingChunkBytes = 8 * 1024 * 1024;
export const recordingMimeType = 'video/webm';

export interface SessionDocument {
  id: string;
  name: string;
  contentType: string;
  sizeBytes: number;
  /** Where this viewer's browser fetches the bytes (authorised for this viewer only). */
  url: string;
}

export interface SessionRecording {
  id: string;
  /** assembling: stopped, being saved by the background job (docs/decisions/072). */
  status: 'recording' | 'assembling' | 'stored' | 'failed' | 'deleted';
  startedAt: Date;
  sizeBytes: number | null;
}

/**
 * Everything the room shows, for one viewer. Features that build on the room
 * (identity, signing) add their fields here and in `session/view-service.ts#getSessionView`.
 */
export interface SessionView {
  bookingId: string;
  reference: string;
  role: SessionRole;
  bookingStatus: BookingStatus;
  /** 'on_demand' (Notarize now): before a notary accepts, the customer's page is the lobby (decision 110). */
  kind: 'scheduled' | 'on_demand';
  startsAt: Date | null;
  /** The zone to show times in: the customer's for the customer, the notary's for the notary. */
  timeZone: string;
  state: SessionState;
  open: boolean;
  customerName: string;
  notaryName: string;
  startedAt: Date | null;
  finishedAt: Date | null;
  outcome: SessionOutcome | null;
  documents: SessionDocument[];
  recordings: SessionRecording[];
  /** A recording is running now: the customer is told on screen. */
  recordingActive: boolean;
  /** A stopped recording is still being saved: the room says "Saving the recording…"; Finish waits for it. */
  recordingSaving: boolean;
  /** Notary only: a recording runs but the server has received no part of it for a while (decision 103). */
  recordingStalled: boolean;
  /** Notary only: why finishing as completed is refused now (empty: allowed). */
  finishBlockers: string[];
  /** The act's stage as the server's state machine says (both browsers show it; decision 073). */
  stage: ActStage;
  /** The viewer's own participant id when they are a co-signer or witness; null for the customer and the notary. */
  participantId: string | null;
  /** The co-signers and witnesses (names, roles and whether they are still part of the act; nothing of their identity). */
  participants: SessionParticipant[];
}

export interface SessionParticipant {
  id: string;
  role: 'signer' | 'witness';
  name: string;
  status: 'invited' | 'joined' | 'removed' | 'not_completed';
}

export const sessionMessages = {
  notFound: 'We could not find this session. Please use the link in your confirmation email.',
  notOpenYet: `The video session opens ${roomOpensMinutesBefore} minutes before your appointment.`,
  closed: 'This video session has ended.',
  notAssigned: 'This appointment is not assigned to you.',
  recordingRequired: 'Record the session before finishing it.',
  recordingActive: 'Stop the recording before finishing the session.',
  recordingSaving: 'Saving the recording… Finish again in a moment.',
  savingRecording: 'Saving the recording…',
  tooEarlyForNoShow: 'A no-show can only be recorded once the appointment time has passed.',
  reconnecting: 'Reconnecting…',
  recordingNotice: 'This session is being recorded.',
} as const;

// ---- Socket.IO namespace /session -------------------------------------------

export const sessionNamespace = '/session';

/** A chat message: the booking's text rules (no NUL or other control characters, no bidi overrides), line breaks and tabs allowed. */
export const chatBodySchema = z
  .string()
  .trim()
  .min(1, 'Type a message first.')
  .max(2000, 'Messages are at most 2,000 characters.')
  .refine(isPlainText, 'Messages cannot contain control characters.');
export const sessionChatInput = z.object({ clientId: z.string().min(8).max(64), body: chatBodySchema });

/** An SDP description or an ICE candidate, relayed as-is to the other participant. */
export const signalInput = z
  .object({
    /** The notary's side's attempt at connecting this pair of sockets (docs/decisions/030-session-room.md). */
    attempt: z.number().int().min(1).max(1_000_000),
    description: z.object({ type: z.enum(['offer', 'answer', 'rollback', 'pranswer']), sdp: z.string().max(64_000).optional() }).optional(),
    candidate: z
      .object({
        candidate: z.string().max(2000),
        sdpMid: z.string().max(64).nullable().optional(),
        sdpMLineIndex: z.number().int().min(0).max(64).nullable().optional(),
        usernameFragment: z.string().max(256).nullable().optional(),
      })
      .nullable()
      .optional(),
  })
  .refine((v) => v.description !== undefined || v.candidate !== undefined, 'Empty signal');
export type SignalPayload = z.infer<typeof signalInput>;

/**
 * A small event for the other participant (the notary pointing to a page,
 * later features' own events): relayed, not stored. `type` is namespaced, e.g. 'document:focus'.
 */
export const roomEventInput = z.object({
  type: z.string().regex(/^[a-z][a-z0-9-]*:[a-z][a-z0-9-]*$/).max(64),
  payload: z.record(z.string(), z.unknown()).refine((v) => JSON.stringify(v).length <= 4000, 'Payload too large'),
});
export type RoomEvent = z.infer<typeof roomEventInput>;

export interface SessionChatMessage {
  id: number;
  clientId: string;
  sender: SessionRole;
  /** The co-signer or witness who wrote it (sender 'participant'). */
  participantId: string | null;
  body: string;
  createdAt: Date | string;
}

export interface IceServer {
  urls: string[];
  username?: string;
  credential?: string;
}

/**
 * Why the server refused a handshake or an event: the client decides what to
 * do by this code, never by the wording (docs/decisions/068).
 * - `closed`: access is gone for good (not found, not assigned, signed out, the
 *   room ended or is not open): stop and show the message;
 * - `invalid`: this request was malformed (fix and resend, nothing to retry);
 * - `busy`: too many requests; `unavailable`: a failure on our side (both: try again later).
 */
export const sessionErrorCodes = ['closed', 'invalid', 'busy', 'unavailable'] as const;
export type SessionErrorCode = (typeof sessionErrorCodes)[number];

export type SessionAck<T extends object = object> = ({ ok: true } & T) | { ok: false; error: string; code: SessionErrorCode };

/** Another browser in the room (a mesh: each connects to every other; docs/decisions/122). */
export interface RoomPeer {
  /** Its socket: signals are addressed to it. */
  id: string;
  role: SessionRole;
  /** A co-signer's or witness's row (role 'participant'); null for the customer and the notary. */
  participantId: string | null;
}

export interface SessionClientEvents {
  join: (ack: (result: SessionAck<{ role: SessionRole; peers: RoomPeer[]; iceServers: IceServer[]; messages: SessionChatMessage[] }>) => void) => void;
  signal: (payload: SignalPayload & { to: string }, ack?: (result: SessionAck) => void) => void;
  chat: (input: { clientId: string; body: string }, ack: (result: SessionAck<{ message: SessionChatMessage }>) => void) => void;
  'room:event': (event: RoomEvent, ack?: (result: SessionAck) => void) => void;
  leave: () => void;
}

export interface SessionServerEvents {
  'peer:joined': (peer: RoomPeer) => void;
  'peer:left': (peer: { id: string; role: SessionRole }) => void;
  signal: (payload: SignalPayload & { from: string; to: string }) => void;
  chat: (message: SessionChatMessage) => void;
  'room:event': (event: RoomEvent & { from: SessionRole }) => void;
  /** The session changed (started, recording, finished, later: identity, signatures): refetch the view. */
  'session:updated': () => void;
  /** The server ended this participant's access (finished, cancelled, unassigned). */
  'session:closed': (info: { reason: string }) => void;
}
