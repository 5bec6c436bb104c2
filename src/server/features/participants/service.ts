import { randomBytes } from 'node:crypto';
import type { DbOrTx, Tx } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import { DomainError } from '../../errors.ts';
import { hashToken } from '../../tokens.ts';
import { writeAudit } from '../audit.ts';
import { authorise } from '../access/service.ts';
import type { StaffIdentity } from '../staff/session.ts';
import { actChanged } from '../act/service.ts';
import { abroadPrefix, isAbroad } from '../../../shared/act-stages.ts';
import type { SignerAbroad } from '../../../shared/notarial-act.ts';
import { onParticipantInvited } from '../notifications/events.ts';
import { roomIsOpen, roomOpensMs } from '../../../shared/session.ts';
import {
  maxAddedParticipants,
  participantMessages,
  type InvitationView,
  type ParticipantDetails,
  type ParticipantStatus,
  type ParticipantSummary,
} from '../../../shared/participants.ts';
import * as repo from './repository.ts';
import { participantFeeCents } from '../../../shared/pricing.ts';

export type { ParticipantRow } from './repository.ts';

/**
 * Co-signers and witnesses (issue 29; docs/decisions/120-session-participants.md).
 * The customer adds them from their booking page until the session starts;
 * each gets an email with a private link of their own (SHA-256 in the row, the
 * raw token only in the sealed outbox secret). The link's rights are the
 * access policy's (`invitee`, `co_signer`, `witness`; decision 121). The
 * notary removes a participant and marks their part not completed; the row
 * stays, with who and when, and the audit trail says so.
 */

const newToken = () => randomBytes(32).toString('base64url');

function summary(row: repo.ParticipantRow): ParticipantSummary {
  return { id: row.id, role: row.role, name: row.name, email: row.email, status: row.status, feeCents: row.feeCents };
}

/** The customer's list on their booking page. */
export async function listForCustomer(deps: Deps, token: string): Promise<ParticipantSummary[]> {
  const { bookingId } = await authorise(deps, { token }, 'view');
  return (await repo.listParticipants(deps.db, bookingId)).map(summary);
}

/** Someone who is, or was, in the session: not a person whose booking or fee is still unpaid. */
export type SessionSummary = Omit<ParticipantSummary, 'status'> & { status: Exclude<ParticipantStatus, 'pending'> };

/** The notary's (and the room's) list: everyone of the booking who was invited (those the notary removed too). */
export async function listForBooking(db: DbOrTx, bookingId: string): Promise<SessionSummary[]> {
  // Never in it: unpaid (pending), or set aside by the system before being invited (no staff removed them; decision 125).
  return (await repo.listParticipants(db, bookingId)).flatMap((row) => (row.status === 'pending' || (row.status === 'removed' && !row.removedBy) ? [] : [{ ...summary(row), status: row.status }]));
}

/**
 * The customer adds a co-signer or a witness: a confirmed booking whose
 * session has not started, at most three besides the customer, one invitation
 * per email address. The invitation is queued in the same transaction.
 */
/** The booking, locked, and the rules for adding someone to it from the booking page. */
export async function lockForAdding(tx: Tx, bookingId: string, email: string) {
  const booking = await repo.lockBookingForParticipants(tx, bookingId);
  if (!booking || booking.status !== 'confirmed') throw new DomainError('PRECONDITION_FAILED', participantMessages.notAddable);
  if (booking.startedAt || booking.finishedAt) throw new DomainError('PRECONDITION_FAILED', participantMessages.sessionStarted);
  const active = await repo.activeParticipants(tx, bookingId);
  if (active.length >= maxAddedParticipants) throw new DomainError('PRECONDITION_FAILED', participantMessages.tooMany);
  if (active.some((p) => p.email.toLowerCase() === email)) throw new DomainError('CONFLICT', participantMessages.duplicateEmail);
  return booking;
}

/** A co-signer's fee when added from the booking page now (0: added at once; decision 125). */
export const feeFor = (deps: Pick<Deps, 'config'>, role: ParticipantDetails['role']) => participantFeeCents({ extraSignerFeeCents: deps.config.BOOKING_EXTRA_SIGNER_FEE_CENTS }, role);

export async function addParticipant(deps: Deps, token: string, details: ParticipantDetails): Promise<ParticipantSummary[]> {
  const { bookingId } = await authorise(deps, { token }, 'add_participant');
  const email = details.email.toLowerCase();
  const feeCents = feeFor(deps, details.role);
  // A co-signer with a fee is added by their payment (`startPaidParticipant`), never for free.
  if (feeCents > 0) throw new DomainError('PRECONDITION_FAILED', participantMessages.paymentRequired(feeCents));
  await deps.db.transaction(async (tx) => {
    await lockForAdding(tx, bookingId, email);
    const raw = newToken();
    const row = await repo.insertParticipant(tx, { bookingId, role: details.role, name: details.name, email, phone: details.phone, tokenHash: hashToken(raw), createdBy: 'customer' });
    await writeAudit(tx, { actorType: 'customer', action: 'participant.added', entityType: 'booking', entityId: bookingId, data: { participantId: row.id, role: row.role } });
    await onParticipantInvited(tx, deps, { bookingId, participantId: row.id, name: row.name, email: row.email, role: row.role, token: raw });
  });
  actChanged(deps, bookingId);
  return (await repo.listParticipants(deps.db, bookingId)).map(summary);
}

/** Who each co-signer's fee paid from the booking page was for (payment id → name). */
export async function namesByPayment(db: DbOrTx, bookingId: string): Promise<Map<string, string>> {
  return new Map((await repo.listParticipants(db, bookingId)).flatMap((p) => (p.paymentId ? [[p.paymentId, p.name] as const] : [])));
}

/** The participant's own page: who invited them, when, their role; nothing of anyone else's. */
export async function invitationView(deps: Deps, token: string): Promise<InvitationView> {
  const grant = await authorise(deps, { token }, 'view_invitation', {}, { notFound: participantMessages.notFound });
  const participant = grant.participant!;
  const booking = await repo.bookingForInvitation(deps.db, grant.bookingId);
  if (!booking) throw new DomainError('NOT_FOUND', participantMessages.notFound);
  const finished = booking.finishedAt !== null;
  return {
    reference: booking.reference,
    role: participant.role,
    name: participant.name,
    invitedBy: [booking.firstName, booking.lastName].filter(Boolean).join(' '),
    startsAt: booking.startsAt,
    timeZone: booking.timeZone,
    status: participant.status,
    canJoinSession: roomIsOpen(booking, finished, deps.now()),
    sessionOpensAt: booking.status === 'confirmed' && booking.startsAt && !finished ? new Date(booking.startsAt.getTime() - roomOpensMs) : null,
  };
}

/**
 * The co-signers who take part in the act: role signer, in the session
 * (joined), not removed. The certificate names them after the customer and the
 * journal gets an entry for each (issue 29); a witness signs nothing here.
 */
export async function actCoSigners(db: DbOrTx, bookingId: string): Promise<{ id: string; name: string }[]> {
  return (await repo.activeParticipants(db, bookingId)).filter((p) => p.role === 'signer' && p.status === 'joined').map((p) => ({ id: p.id, name: p.name }));
}

/** "A", "A and B", "A, B and C": the signers as a certificate names them. */
export { namesInProse } from '../../../shared/act-stages.ts';

// ---- Credible witnesses (decision 124) ---------------------------------------------------

export interface CredibleWitness {
  witnessId: string;
  witnessName: string;
  /** The signer identified; null = the booking's customer. */
  signerParticipantId: string | null;
  recordedAt: Date;
  /** The witness's oath or affirmation (decision 134): a credible witness vouches under oath. */
  oathKind: 'swear' | 'affirm' | null;
  oathAnsweredAt: Date | null;
}

/** The credible witnesses recorded for a booking, with the witness's name. */
export async function credibleWitnessesOf(db: DbOrTx, bookingId: string): Promise<CredibleWitness[]> {
  const [rows, people] = await Promise.all([repo.listCredibleWitnesses(db, bookingId), repo.listParticipants(db, bookingId)]);
  return rows.map((r) => {
    const witness = people.find((p) => p.id === r.witnessId);
    return { witnessId: r.witnessId, witnessName: witness?.name ?? '', signerParticipantId: r.signerParticipantId, recordedAt: r.recordedAt, oathKind: witness?.oathKind ?? null, oathAnsweredAt: witness?.oathAnsweredAt ?? null };
  });
}

/**
 * Records (or re-points) a witness's identification of a signer, inside the
 * caller's act transition (notarial-act/credible-witness.ts asks the rules):
 * false when it already said exactly this.
 */
export async function saveCredibleWitness(tx: DbOrTx, input: { bookingId: string; witnessId: string; signerParticipantId: string | null; at: Date; staffId: string }): Promise<boolean> {
  const existing = (await repo.listCredibleWitnesses(tx, input.bookingId)).find((r) => r.witnessId === input.witnessId);
  if (existing && existing.signerParticipantId === input.signerParticipantId) return false;
  await repo.upsertCredibleWitness(tx, { bookingId: input.bookingId, witnessId: input.witnessId, signerParticipantId: input.signerParticipantId, recordedAt: input.at, recordedBy: input.staffId });
  return true;
}

/** The co-signers and witnesses still taking part who said they are outside the US (each their own answer; decision 106). */
export async function participantsAbroad(db: DbOrTx, bookingId: string): Promise<SignerAbroad[]> {
  return (await repo.activeParticipants(db, bookingId)).flatMap((p) =>
    isAbroad(p.signerLocation) ? [{ participantId: p.id, name: p.name, country: p.signerLocation!.slice(abroadPrefix.length), confirmed: p.abroadConfirmedAt !== null }] : [],
  );
}

/** The co-signers and witnesses still taking part (invited or joined): who a field can be for. */
export async function activeParticipants(db: DbOrTx, bookingId: string): Promise<ParticipantSummary[]> {
  return (await repo.activeParticipants(db, bookingId)).map(summary);
}

/** The participant entered the room (first time only). */
export async function markParticipantJoined(deps: Deps, participantId: string): Promise<void> {
  const row = await repo.findParticipant(deps.db, participantId);
  if (!row || row.status !== 'invited') return;
  await repo.updateParticipant(deps.db, participantId, { status: 'joined', joinedAt: deps.now() });
  actChanged(deps, row.bookingId);
}

/**
 * The notary removes a participant: before the session started they are
 * `removed`; once it has, their part is `not_completed`. Their link stops
 * working at once (every channel asks the access policy, which refuses both
 * statuses) and the room's sockets re-check access (kind 'access').
 */
/**
 * Refunds a removed co-signer's fee through the provider that took it, inside
 * the removal's transaction (payments does it: participants never imports
 * payments); answers the cents refunded.
 */
export type RefundRemovedSignerFee = (tx: Tx, person: { id: string; bookingId: string; feeCents: number; paymentId: string | null }) => Promise<number>;

/**
 * The notary removes a participant (decision 121) — 'removed' before the
 * session started, 'not completed' once it has. A co-signer who paid the extra
 * signer's fee and signed nothing gets it back in full (decision 133): the
 * service was not given; one who filled a field keeps the act's record and
 * the fee stays, as the session's own fee does.
 */
export async function removeParticipant(deps: Deps, staff: StaffIdentity, input: { bookingId: string; participantId: string; reason: string }, refundFee: RefundRemovedSignerFee): Promise<ParticipantSummary[]> {
  await authorise(deps, { staff }, 'remove_participant', { bookingId: input.bookingId });
  const staffId = staff.user.id;
  await deps.db.transaction(async (tx) => {
    const booking = await repo.lockBookingForParticipants(tx, input.bookingId);
    const row = await repo.findParticipant(tx, input.participantId);
    if (!booking || !row || row.bookingId !== input.bookingId) throw new DomainError('NOT_FOUND', participantMessages.notInSession);
    if (row.status === 'removed' || row.status === 'not_completed') throw new DomainError('CONFLICT', participantMessages.alreadyRemoved);
    const status = booking.startedAt ? 'not_completed' : 'removed';
    await repo.updateParticipant(tx, row.id, { status, removedAt: deps.now(), removedBy: staffId, removedReason: input.reason });
    const refundedCents = row.feeCents > 0 && !(await repo.hasFilledFields(tx, row.id)) ? await refundFee(tx, row) : 0;
    await writeAudit(tx, { actorType: 'staff', actorId: staffId, action: 'participant.removed', entityType: 'booking', entityId: input.bookingId, data: { participantId: row.id, role: row.role, status, reason: input.reason, refundedCents } });
  });
  actChanged(deps, input.bookingId, 'access');
  return (await repo.listParticipants(deps.db, input.bookingId)).map(summary);
}
