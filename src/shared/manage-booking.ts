import type { ActStage } from './act-stages.ts';
import { z } from 'zod';
import type { BookingStatus } from './booking.ts';
import { formatUsd } from './money.ts';
import { site } from './site.ts';
import type { PriceLine } from './pricing.ts';
import type { SignerPaymentView } from './participants.ts';

/**
 * The customer's private booking page (/booking/:token). The policy: until
 * 24 hours before the appointment the customer may move it (to any free time
 * more than 24 hours ahead, nothing more to pay) or cancel it with a full
 * refund; after that, cancelling is still possible but refunds nothing.
 */
export const changeCutoffHours = 24;
const cutoffMs = changeCutoffHours * 3600_000;

/** More than 24 hours before `startsAt`? */
export function isBeforeCutoff(startsAt: Date, now: Date): boolean {
  return startsAt.getTime() - now.getTime() > cutoffMs;
}

export const manageTokenSchema = z.string().min(16).max(200);
export const manageBookingInput = z.object({ token: manageTokenSchema });
export const rescheduleInput = z.object({ token: manageTokenSchema, startsAt: z.coerce.date() });

export const manageMessages = {
  notFound: 'We could not find this booking. Please check the link in your confirmation email.',
  notChangeable: 'This booking can no longer be changed online.',
  tooLateToMove: `Your appointment starts within ${changeCutoffHours} hours, so it can no longer be moved online. Please call us at ${site.phone}.`,
  newTimeTooSoon: `Please choose a time more than ${changeCutoffHours} hours from now.`,
  rescheduled: 'Your appointment has been moved.',
  cancelled: 'Your appointment has been cancelled.',
  refundPolicy: `Cancel or reschedule more than ${changeCutoffHours} hours before your appointment for a full refund or a new time at no cost. Cancellations within ${changeCutoffHours} hours are not refunded.`,
  refundOnCancel: (cents: number) => `Cancelling now refunds ${formatUsd(cents)} in full to your original payment method (usually within 5–10 business days).`,
  noRefundOnCancel: `Your appointment starts within ${changeCutoffHours} hours, so cancelling now does not refund your payment.`,
} as const;

export interface ManageBookingView {
  id: string;
  reference: string;
  status: BookingStatus;
  startsAt: Date | null;
  timeZone: string;
  documents: { id: string; name: string; sizeBytes: number; contentType: string }[];
  contact: { firstName: string; lastName: string; email: string; phone: string } | null;
  payment: { amountCents: number; refundedCents: number; currency: string; status: string; method: 'card' | 'cashapp' | null } | null;
  /** The booking's price line by line (a line per co-signer paid with it, decision 125). */
  priceLines: PriceLine[];
  /** Co-signers' fees paid later from this page, each its own payment. */
  signerPayments: SignerPaymentView[];
  /** Move and cancel-with-refund are open (confirmed, more than 24 h ahead). */
  beforeCutoff: boolean;
  /** What a cancellation now would refund, in cents (0 after the cutoff). */
  refundOnCancelCents: number;
  canReschedule: boolean;
  canCancel: boolean;
  /** The video session's Join button is live (from 10 minutes before the start until the session is finished). */
  canJoinSession: boolean;
  /** When that button goes live (null: no session to join). */
  sessionOpensAt: Date | null;
  /** The act's stage as the server derives it: the same one the room and the console show (decision 073). */
  actStage: ActStage;
  /** Notarize now (decision 110): in line for the next notary (the Join button opens the lobby), or not served in time (a scheduled time or a refund is offered). */
  onDemand: 'in_line' | 'timed_out' | null;
}
