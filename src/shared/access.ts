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
 * - `staff`: office staff; `admin`: administrators.
 */
export const actorRoles = ['visitor', 'signer', 'booking_notary', 'other_notary', 'staff', 'admin'] as const;
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
  'download_notarized',
  'read_journal',
] as const;
export type AccessAction = (typeof accessActions)[number];
