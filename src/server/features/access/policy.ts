/**
 * Who may do what to a booking: one role × action table, the only place that
 * answers it (docs/decisions/065-one-access-policy.md; the same table is in
 * docs/product.md §4.12). Pure data and one lookup: the access service
 * (service.ts) works out the caller's role, every channel (tRPC, plain HTTP
 * routes, every socket event) asks it, and `access.test.ts` runs the whole table.
 *
 * What the table does not decide is the booking's *state* (cancel only before
 * the start, the room only from 10 minutes before, seal only once): those are
 * the services' rules, asked after the role has been allowed.
 */

import type { AccessAction, ActorRole } from '../../../shared/access.ts';

export { accessActions, actorRoles, type AccessAction, type ActorRole } from '../../../shared/access.ts';

const customer = ['visitor', 'signer'] as const;
/** A co-signer or witness by their own link (decision 121): their own proofing, the room, their own signing; never the booking page. */
const participant = ['invitee', 'co_signer', 'witness'] as const;

/** The table. A role absent from an action's list is refused. */
export const accessTable: Record<AccessAction, readonly ActorRole[]> = {
  view: [...customer, 'booking_notary', 'staff', 'admin'],
  reschedule: [...customer, 'staff', 'admin'],
  cancel: [...customer, 'staff', 'admin'],
  /** Staff cancellations refund; the customer's refund is part of their cancellation (before the cutoff). */
  refund: ['staff', 'admin'],
  /** The customer proves who they are; the notary confirms the verified ID against the person on camera. */
  verify_identity: [...customer, ...participant, 'booking_notary'],
  /** The ID images and the provider's findings. */
  review_identity: ['booking_notary', 'admin'],
  /** The video session: the customer and the assigned notary only (decision 030), never office staff or admins. */
  join_room: [...customer, ...participant, 'booking_notary'],
  record: ['booking_notary'],
  play_recording: ['booking_notary', 'admin'],
  /**
   * Filling fields (adopting a signature or initials, a date, a text), consent
   * and the oath: the verified customer, co-signer or witness, each only their
   * own fields and answers — the signing service asks whose field it is
   * (notarial-act/field-owner.ts; decision 123).
   */
  sign: ['signer', 'co_signer', 'witness'],
  seal: ['booking_notary'],
  /** Ending the session with an outcome; staff record no-shows from the console (completing still needs the recording). */
  finish: ['booking_notary', 'staff', 'admin'],
  /** The customer's uploads to notarize: a verified co-signer or witness reads the documents they sign (decision 123). */
  download_original: [...customer, 'co_signer', 'witness', 'booking_notary', 'staff', 'admin'],
  /**
   * A supporting file (the customer's ID photo, a reference copy): never a
   * co-signer or witness — a co-signer never sees another signer's identity
   * documents. Every route serving a document and the room's list ask this
   * (access/service.ts `documentReadAction`; decision 133).
   */
  download_supporting: [...customer, 'booking_notary', 'staff', 'admin'],
  /** Decided by the act: its signer, the notary who sealed it, admins. */
  download_notarized: ['signer', 'booking_notary', 'admin'],
  read_journal: ['booking_notary', 'admin'],
  view_identity: [...customer, ...participant],
  /** The act as the room shows it (documents, fields, stage): everyone in the room and the booking's staff; a participant sees their own answers, never another's identity. */
  view_act: [...customer, ...participant, 'booking_notary', 'staff', 'admin'],
  view_invitation: [...participant],
  /** Only the customer who booked (and pays): a co-signer cannot invite others. */
  add_participant: [...customer],
  remove_participant: ['booking_notary'],
};

export function mayDo(role: ActorRole, action: AccessAction): boolean {
  return accessTable[action].includes(role);
}

/** The words a refused caller reads, by who they are (a customer is never told more than "not found"). */
export const accessMessages = {
  customer: 'This link cannot be used for that.',
  signerOnly: 'Verify your identity before you sign.',
  notAssigned: 'This appointment is not assigned to you.',
  noAccess: 'You do not have access to this.',
} as const;
