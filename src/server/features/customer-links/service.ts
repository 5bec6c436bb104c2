import { randomBytes } from 'node:crypto';
import type { DbOrTx } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import { hashToken } from '../../tokens.ts';
import type { AccessAction } from '../../../shared/access.ts';
import type { RateRule } from '../../rate-limit.ts';
import { findLinkByHash, findSealedConfirmationLink, insertLink } from './repository.ts';

/**
 * Every private link a customer gets by email, issued and resolved here and
 * nowhere else (docs/decisions/066-customer-links.md). A link is a random
 * 32-byte token; the database holds its SHA-256 (and, for the confirmation's,
 * a sealed copy so later emails can repeat it). What a link admits is decided
 * by what it was issued for, in the table below; the access service
 * (features/access) asks `resolveCustomerLink` and then the role table.
 *
 * One token opens several addresses: the booking page (`/booking/:token`), the
 * video session (`/booking/:token/session`), identity proofing
 * (`/booking/:token#identity`) and the notarized document's download
 * (`/api/manage/notarized/:document?token=`); the table says which of them
 * (as actions) each link admits.
 */
export const customerLinkPurposes = ['confirmation', 'reminder', 'rescheduled', 'cancelled', 'completed', 'no_show', 'not_completed', 'notarized-document'] as const;
export type CustomerLinkPurpose = (typeof customerLinkPurposes)[number];

const everything: readonly AccessAction[] = ['view', 'view_identity', 'view_act', 'reschedule', 'cancel', 'verify_identity', 'join_room', 'sign', 'add_participant', 'download_original', 'download_supporting', 'download_notarized'];

/** What each link admits (before the role table and the booking's state have their say). */
export const linkAdmits: Record<CustomerLinkPurpose, readonly AccessAction[]> = {
  /** The confirmation email's link: the booking page, identity, the room, signing, downloads. */
  confirmation: everything,
  /** The reminder's links (booking page and "Join video session"): the same. */
  reminder: everything,
  /** "Your appointment has moved": the same booking, the same rights as the confirmation's link. */
  rescheduled: everything,
  /** "Your booking is cancelled": the booking page (its status, the refund, the documents until they are deleted). */
  cancelled: ['view', 'view_identity', 'view_act', 'download_original', 'download_supporting', 'download_notarized'],
  /** "Thank you" after a completed session: the booking page and its documents. */
  completed: ['view', 'view_identity', 'view_act', 'download_original', 'download_supporting', 'download_notarized'],
  /** "We missed you" / "not completed": the booking page, from which the customer rebooks. */
  no_show: everything,
  not_completed: everything,
  /** "Your notarized document is ready": the booking page and its documents, nothing that changes the booking. */
  'notarized-document': ['view', 'view_identity', 'view_act', 'download_original', 'download_supporting', 'download_notarized'],
};

export interface CustomerLink {
  bookingId: string;
  purpose: CustomerLinkPurpose;
}

const isPurpose = (value: string): value is CustomerLinkPurpose => (customerLinkPurposes as readonly string[]).includes(value);

/** The booking a link opens and what it was issued for; null for anything else (never throws on junk). */
export async function resolveCustomerLink(db: DbOrTx, token: string | null | undefined): Promise<CustomerLink | null> {
  if (!token || token.length > 200) return null;
  const found = await findLinkByHash(db, hashToken(token));
  // A link from an older release with a purpose this table no longer names opens the booking page only.
  return found && { bookingId: found.bookingId, purpose: isPurpose(found.purpose) ? found.purpose : 'notarized-document' };
}

export function linkAdmitsAction(link: CustomerLink, action: AccessAction): boolean {
  return linkAdmits[link.purpose].includes(action);
}

const newToken = () => randomBytes(32).toString('base64url');
const sealPurpose = (bookingId: string) => `manage-token:${bookingId}`;

/**
 * The confirmation's link, for the booking service to store on the booking row
 * as the booking is confirmed (hash and sealed copy), and to email.
 */
export function newConfirmationLink(deps: Pick<Deps, 'secrets'>, bookingId: string): { token: string; tokenHash: string; sealed: string } {
  const token = newToken();
  return { token, tokenHash: hashToken(token), sealed: deps.secrets.seal(token, sealPurpose(bookingId)) };
}

/** A further link for a later email; the raw token goes into that email only (as an outbox secret). */
export async function issueCustomerLink(tx: DbOrTx, bookingId: string, purpose: Exclude<CustomerLinkPurpose, 'confirmation'>): Promise<string> {
  const token = newToken();
  await insertLink(tx, { bookingId, tokenHash: hashToken(token), purpose });
  return token;
}

/** The confirmation's raw token (for an email repeating it, as an outbox secret); null before confirmation. */
export async function openConfirmationLink(db: DbOrTx, deps: Pick<Deps, 'secrets'>, bookingId: string): Promise<string | null> {
  const sealed = await findSealedConfirmationLink(db, bookingId);
  return sealed ? deps.secrets.openText(sealed, sealPurpose(bookingId)) : null;
}

/**
 * Requests made with a customer link, per address (the booking page, the act's and the room's
 * procedures). One a second on average: a live session refetches on every change of the act
 * (fields placed and filled, stages) and the booking page follows the stage, so 120 in 10
 * minutes refused a real signer mid-act; a token is still far beyond guessing at this rate.
 */
export const manageRate: RateRule = { name: 'manage', limit: 600, windowSeconds: 600 };
