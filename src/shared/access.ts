/**
 * The roles and actions of the access policy (the table itself is server-side:
 * src/server/features/access/policy.ts; docs/product.md §4.12 shows it).
 */

/**
 * The caller, relative to one booking:
 * - `visitor`: holds a customer link to the booking (the manage link or a later one)
 *   and has not passed identity proofing;
 * - `signer`: the same customer once the provider has verified their identity;
 * - `booking_notary`: the notary assigned to the booking — for a sealed document,
 *   the notary who sealed it (the act decides, not the assignment); for the
 *   journal, the notary whose journal it is;
 * - `other_notary`: any other notary;
 * - `staff`: office staff; `admin`: administrators;
 * - `invitee`: a co-signer or witness holding their own invitation link, before
 *   identity proofing has passed (docs/decisions/121-participant-access.md);
 * - `co_signer`: an invited co-signer whose identity the provider has verified;
 * - `witness`: an invited witness whose identity the provider has verified.
 */
export const actorRoles = ['visitor', 'signer', 'booking_notary', 'other_notary', 'staff', 'admin', 'invitee', 'co_signer', 'witness'] as const;
export type ActorRole = (typeof actorRoles)[number];

export const accessActions = [
  'view',
  'reschedule',
  'cancel',
  'refund',
  'verify_identity',
  'review_identity',
  'join_room',
  'record',
  'play_recording',
  'sign',
  'seal',
  'finish',
  'download_original',
  /** A supporting file (an ID photo, a reference copy): shown to the notary, never to a co-signer or witness. */
  'download_supporting',
  'download_notarized',
  'read_journal',
  /** One's own identity proofing status (the customer's or a participant's own, never another's). */
  'view_identity',
  /** The act in the room: documents, fields and the stage (a participant's own answers only). */
  'view_act',
  /** A co-signer's or witness's own invitation page. */
  'view_invitation',
  /** The customer adds a co-signer or a witness (until the session starts). */
  'add_participant',
  /** The notary removes a participant from the session and marks their part not completed. */
  'remove_participant',
] as const;
export type AccessAction = (typeof accessActions)[number];
