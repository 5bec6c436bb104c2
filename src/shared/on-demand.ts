import { z } from 'zod';
import { bookingIdSchema } from './booking.ts';
import { manageTokenSchema } from './manage-booking.ts';

/**
 * "Notarize now" (issue 28, docs/decisions/110-on-demand-line.md): the words
 * both sides show and the shapes they exchange. Visitor-facing strings are
 * those of docs/product.md §4.14, word for word.
 */

export const onDemandMessages = {
  notarizeNow: 'Notarize now',
  availableNow: 'Notaries available now',
  nextAvailable: (when: string) => `Next available: ${when}`,
  nobodyOnDuty: 'No notary is available right now.',
  nobodyOnDutyOffer: 'Book the next scheduled time instead; you pay nothing to wait.',
  positionInLine: (n: number) => `Position in line: ${n}`,
  estimatedWait: (minutes: number) => `Estimated wait: ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`,
  lobbyHeading: 'Waiting for a notary',
  lobbyIntro: 'Keep this page open. A notary will join you here; verify your identity and check your camera and microphone meanwhile.',
  accepted: 'A notary has accepted your call.',
  acceptedFinishQuiz: 'A notary has accepted your call. Finish your identity questions: you join the notary as soon as you submit them.',
  timedOut: 'No notary could take your call in time. We are sorry for the wait.',
  timedOutOffer: 'Choose a scheduled time, or get a full refund.',
  chooseScheduled: 'Choose a scheduled time',
  fullRefund: 'Get a full refund',
  refunded: 'Your payment has been refunded in full.',
  away: 'You left the line for more than two minutes. You are back in line at the end.',
  alreadyAccepted: 'A notary has already taken this call.',
  notInLine: 'This booking is not waiting for a notary.',
  waitingCustomers: 'Waiting customers',
  accept: 'Accept',
  nobodyWaiting: 'Nobody is waiting.',
  offDutyCannotAccept: 'Go on duty to accept customers.',
} as const;

/** A customer whose tab is closed keeps their place this long. */
export const awayGraceMs = 2 * 60_000;
/** The lobby's heartbeat (and position refresh) interval. */
export const lobbyPollMs = 5_000;
/** A notary who accepted and has not been heard from for this long has dropped: the customer goes back to the front. */
export const notaryDropMs = 60_000;
/** The estimate without history: minutes per customer ahead, per notary available. */
export const defaultPickupMinutes = 5;

export interface OnDemandAvailability {
  /** On-duty notaries not in a session. */
  availableNow: number;
  /** Notaries on duty (busy or not): someone will take the call. */
  onDuty: number;
  /** The next scheduled slot with room, when nobody is on duty. */
  nextScheduled: Date | null;
}

export type LobbyView =
  | { state: 'waiting'; position: number; estimatedMinutes: number }
  | { state: 'accepted' }
  | { state: 'timed_out'; refunded: boolean }
  | { state: 'closed' };

/**
 * How far a customer in line is with proving who they are (the lobby offers
 * both while they wait): their ID checked, and where their identity questions
 * stand — as the notary's session will count them (a pass must be fresh).
 */
export interface WaitingIdentity {
  idVerified: boolean;
  questions: 'passed' | 'in_progress' | 'failed' | 'not_started';
}

export interface WaitingCustomersView {
  /** Customers in line (waiting and within the grace), oldest first; no personal data. */
  waiting: { reference: string; waitingSinceMs: number; identity: WaitingIdentity }[];
  onDuty: boolean;
}

/** The line's identity column, as the notary reads it. */
export function waitingIdentityLabel({ idVerified, questions }: WaitingIdentity): string {
  if (idVerified && questions === 'passed') return 'Identity verified';
  const id = idVerified ? 'ID verified' : 'ID not verified yet';
  const asked = { passed: 'identity questions passed', in_progress: 'answering the identity questions', failed: 'identity questions failed', not_started: 'identity questions not started' }[questions];
  return `${id}, ${asked}`;
}

export const lobbyInput = z.object({ token: manageTokenSchema }).strict();
export const chooseOnDemandInput = z.object({ bookingId: bookingIdSchema });
export const notaryHeartbeatInput = z.object({ bookingId: bookingIdSchema });
