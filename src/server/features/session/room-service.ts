import type { Deps } from '../../deps.ts';
import { DomainError } from '../../errors.ts';
import { authorise, type ActorRole } from '../access/service.ts';
import { staffFromCookieHeader } from '../staff/session.ts';
import { roomIsOpen, sessionMessages as messages, type SessionAccess, type SessionRole } from '../../../shared/session.ts';
import * as repo from './repository.ts';
import { markParticipantJoined } from '../participants/service.ts';
import { notifySessionChanged } from './notifier-service.ts';
import type { SessionBooking } from './repository.ts';

/** The booking beside its session (the console reads it too). */
export { findSessionBooking } from './repository.ts';

/**
 * The room's door: who may enter a booking's video session (the access
 * policy's 'join_room', and whether the room is open), and marking who came in.
 * The rest of the session: the view (view-service.ts), start and finish
 * (lifecycle-service.ts), recording (recording-service.ts), the room's chat
 * (chat-service.ts), telling the room (notifier-service.ts); the socket
 * namespace, tRPC router and HTTP routes only translate
 * (docs/decisions/030-session-room.md, 031-session-recording.md).
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
  /** Their role in the access table (what the room shows them is asked of it, e.g. supporting files). */
  accessRole: ActorRole;
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
    ? { bookingId: grant.bookingId, role: 'notary', staffId: grant.staff.user.id, staffTimeZone: grant.staff.user.timeZone, participantId: null, accessRole: grant.role }
    : grant.participant
      ? { bookingId: grant.bookingId, role: 'participant', staffId: null, staffTimeZone: null, participantId: grant.participant.id, accessRole: grant.role }
      : { bookingId: grant.bookingId, role: 'customer', staffId: null, staffTimeZone: null, participantId: null, accessRole: grant.role };
  const booking = await repo.findSessionBooking(deps.db, participant.bookingId);
  if (!booking) throw new DomainError('NOT_FOUND', messages.notFound);
  if (options.requireOpen ?? true) assertOpen(deps, booking);
  return { participant, booking };
}

export function assertOpen(deps: Deps, booking: SessionBooking): void {
  if (roomIsOpen(booking, booking.finishedAt !== null, deps.now())) return;
  if (booking.status === 'confirmed' && booking.finishedAt === null) throw new DomainError('CONFLICT', messages.notOpenYet);
  throw new DomainError('CONFLICT', messages.closed);
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
