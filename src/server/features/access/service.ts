import type { DbOrTx } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import { DomainError } from '../../errors.ts';
import { isUuid } from '../../../shared/ids.ts';
import { manageMessages } from '../../../shared/manage-booking.ts';
import { linkAdmitsAction, resolveCustomerLink, type CustomerLink } from '../customer-links/service.ts';
import { staffFromCookieHeader, type StaffIdentity } from '../staff/session.ts';
import { accessMessages, mayDo, type AccessAction, type ActorRole } from './policy.ts';
import { hashToken } from '../../tokens.ts';
import { bookingNotary, findParticipantByHash, isSupportingFile, signerVerified, type ParticipantLinkRow } from './repository.ts';

export { accessActions, accessTable, actorRoles, mayDo, type AccessAction, type ActorRole } from './policy.ts';

/**
 * The one question every channel asks: may this caller do this action on this
 * booking (docs/decisions/065-one-access-policy.md). The caller is a customer
 * link or a staff member; their role relative to the booking comes from the
 * link's booking, the booking's notary (or the act's, or the journal's) and,
 * for a customer, whether identity proofing has passed. The answer is the
 * role × action table in policy.ts; a refusal is a DomainError the transports
 * already translate (403 / 404, the socket's `code`).
 */

export type Caller = { token: string | null | undefined } | { staff: StaffIdentity | null };

export interface Grant {
  bookingId: string;
  role: ActorRole;
  /** The staff member, for audit and the services' own rules; null for a customer. */
  staff: StaffIdentity | null;
  /** The customer's link; null for staff and participants. */
  link: CustomerLink | null;
  /** A co-signer or witness by their own link (decision 121); null for the customer and staff. */
  participant: ParticipantLinkRow | null;
}

export interface Subject {
  /** Required for staff; a customer's link names its own booking (a different id here is "not found"). */
  bookingId?: string;
  /**
   * Whose act or journal this is, when not the booking's assigned notary:
   * the notary who sealed a document (download_notarized), the journal's owner (read_journal).
   */
  notaryId?: string | null;
}

export interface AuthoriseOptions {
  /** The words of a refusal to staff, where a channel has its own (e.g. "You do not have access to this recording."). */
  refusal?: string;
  /** The words when the booking (or the link) is not found, where a channel has its own. */
  notFound?: string;
  db?: DbOrTx;
}

const notFoundError = (message: string | undefined) => new DomainError('NOT_FOUND', message ?? manageMessages.notFound);

/** A staff member's role relative to a booking whose notary (or act's, or journal's notary) is `notaryId`. */
export function staffRole(user: { id: string; role: StaffIdentity['user']['role'] }, notaryId: string | null | undefined): ActorRole {
  if (user.role === 'admin') return 'admin';
  if (user.role === 'staff') return 'staff';
  return notaryId && notaryId === user.id ? 'booking_notary' : 'other_notary';
}

export async function authorise(deps: Deps, caller: Caller, action: AccessAction, subject: Subject = {}, options: AuthoriseOptions = {}): Promise<Grant> {
  const db = options.db ?? deps.db;
  if ('token' in caller) {
    const link = await resolveCustomerLink(db, caller.token);
    if (!link && caller.token && caller.token.length <= 200) {
      const participant = await findParticipantByHash(db, hashToken(caller.token));
      if (participant) return authoriseParticipant(db, participant, action, subject, options);
    }
    if (!link || (subject.bookingId !== undefined && subject.bookingId !== link.bookingId)) throw notFoundError(options.notFound);
    if (!linkAdmitsAction(link, action)) throw new DomainError('FORBIDDEN', accessMessages.customer);
    // Whether the customer is the verified signer is looked up only when the table depends on it.
    let role: ActorRole = 'visitor';
    if (mayDo('visitor', action) !== mayDo('signer', action) && (await signerVerified(db, link.bookingId))) role = 'signer';
    if (!mayDo(role, action)) throw new DomainError('FORBIDDEN', mayDo('signer', action) ? accessMessages.signerOnly : accessMessages.customer);
    return { bookingId: link.bookingId, role, staff: null, link, participant: null };
  }
  const staff = caller.staff;
  if (!staff) throw new DomainError('UNAUTHORIZED', 'Please sign in.');
  const bookingId = subject.bookingId;
  const missing = () => notFoundError(options.notFound ?? 'Booking not found.');
  if (!bookingId || !isUuid(bookingId)) throw missing();
  let notaryId = subject.notaryId;
  if (notaryId === undefined) {
    const booking = await bookingNotary(db, bookingId);
    if (!booking) throw missing();
    notaryId = booking.notaryId;
  }
  const role = staffRole(staff.user, notaryId);
  if (!mayDo(role, action)) {
    throw new DomainError('FORBIDDEN', options.refusal ?? (role === 'other_notary' ? accessMessages.notAssigned : accessMessages.noAccess));
  }
  return { bookingId, role, staff, link: null, participant: null };
}

/**
 * The action reading a document asks of the table (decision 133): a supporting
 * file `download_supporting`, any other document `download_original`. Every
 * route that serves a customer's document asks it; the room's list asks the
 * table the same question by role (session/view-service.ts).
 */
export async function documentReadAction(db: DbOrTx, documentId: string): Promise<'download_original' | 'download_supporting'> {
  return (await isSupportingFile(db, documentId)) ? 'download_supporting' : 'download_original';
}

/** Words for a participant whose part has ended (removed by the notary). */
export const participantRemovedMessage = 'The notary has removed you from this session. Please contact the person who invited you.';

/**
 * A co-signer's or witness's own link: their role is `invitee` until their
 * identity is verified, then `co_signer` or `witness`. A removed participant
 * (or one whose part was marked not completed) is refused everything.
 */
async function authoriseParticipant(db: DbOrTx, participant: ParticipantLinkRow, action: AccessAction, subject: Subject, options: AuthoriseOptions): Promise<Grant> {
  if (subject.bookingId !== undefined && subject.bookingId !== participant.bookingId) throw notFoundError(options.notFound);
  // Added while booking or awaiting their fee: no link was ever sent, and none admits them yet (decision 125).
  if (participant.status === 'pending') throw notFoundError(options.notFound);
  if (participant.status === 'removed' || participant.status === 'not_completed') throw new DomainError('FORBIDDEN', participantRemovedMessage);
  const verifiedRole: ActorRole = participant.role === 'signer' ? 'co_signer' : 'witness';
  let role: ActorRole = 'invitee';
  if (mayDo('invitee', action) !== mayDo(verifiedRole, action) && (await signerVerified(db, participant.bookingId, participant.id))) role = verifiedRole;
  if (!mayDo(role, action)) throw new DomainError('FORBIDDEN', mayDo(verifiedRole, action) ? accessMessages.signerOnly : accessMessages.customer);
  return { bookingId: participant.bookingId, role, staff: null, link: null, participant };
}

/** The same for a staff request that carries only its cookie (plain HTTP routes, sockets). */
export async function authoriseCookie(deps: Deps, cookieHeader: string | undefined, action: AccessAction, subject: Subject, options?: AuthoriseOptions): Promise<Grant> {
  return authorise(deps, { staff: await staffFromCookieHeader(deps, cookieHeader) }, action, subject, options);
}

/** Whether a staff member may do `action` on a journal or act owned by `notaryId` (lists across bookings). */
export function staffMay(user: { id: string; role: StaffIdentity['user']['role'] }, action: AccessAction, notaryId: string | null): boolean {
  return mayDo(staffRole(user, notaryId), action);
}

/** Resolves a customer link to its booking without deciding an action (the booking page's 404 status). */
export async function customerLinkBooking(db: DbOrTx, token: string): Promise<string | null> {
  return (await resolveCustomerLink(db, token))?.bookingId ?? null;
}
