import type { BookingStatus } from './booking.ts';
import type { PaymentMethod } from './payments.ts';

/**
 * The words a person reads for the product's internal codes (audit actions,
 * statuses, payment methods): one map, used by the console, the customer's
 * pages and the emails, so `booking.created` or `succeeded` never reach a screen.
 * Codes added later (another feature's audit actions) still read as words
 * through `humanize` until they get their own label here.
 */

/** 'booking.notary_assigned' → 'Booking notary assigned'; the fallback for codes not listed below. */
export function humanize(code: string): string {
  const words = code.replace(/[._]+/g, ' ').trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export const bookingStatusLabels: Record<BookingStatus, string> = {
  draft: 'Draft',
  held: 'Held',
  awaiting_payment: 'Awaiting payment',
  payment_processing: 'Payment processing',
  confirmed: 'Confirmed',
  completed: 'Completed',
  no_show: 'No-show',
  not_completed: 'Not completed',
  cancelled: 'Cancelled',
};

export function bookingStatusLabel(status: string): string {
  return bookingStatusLabels[status as BookingStatus] ?? humanize(status);
}

const auditActionLabels: Record<string, string> = {
  'booking.created': 'Booking started',
  'booking.hold_moved': 'Time chosen',
  'booking.contact_updated': 'Contact details saved',
  'booking.status_changed': 'Status changed',
  'booking.notary_assigned': 'Notary assigned',
  'booking.notary_unassigned': 'Notary unassigned',
  'booking.rescheduled': 'Rescheduled',
  'booking.overbooked': 'Confirmed into a full slot',
  'booking.paid_after_cancel': 'Paid after cancellation',
  'payment.refunded_after_cancellation': 'Refunded after cancellation',
  'booking.refunded': 'Refunded by an admin',
  'document.supporting': 'Marked as a supporting file',
  'document.to_notarize': 'Marked as a document to notarize',
  'document.not_notarizable': 'Document marked as not notarizable',
  'document.notarizable_again': 'Document no longer marked as not notarizable',
  'document.uploaded': 'Document uploaded',
  'document.downloaded': 'Document downloaded',
  'document.removed': 'Document removed',
  'document.infected': 'Document failed the virus scan',
  'document.retention_deleted': 'Document deleted after retention',
  'mail.retry_requested': 'Email retry requested',
  'staff.invited': 'Invitation sent',
  'staff.invite_revoked': 'Invitation revoked',
  'staff.invite_accepted': 'Invitation accepted',
  'staff.role_changed': 'Role changed',
  'staff.deactivated': 'Account deactivated',
  'staff.reactivated': 'Account reactivated',
  'staff.password_changed': 'Password changed',
  'staff.totp_enabled': 'Two-factor authentication turned on',
  'staff.totp_disabled': 'Two-factor authentication turned off',
};

export function auditActionLabel(action: string): string {
  return auditActionLabels[action] ?? humanize(action);
}

/** The payment provider's status words (Stripe's PaymentIntent statuses, plus our refunds). */
const paymentStatusLabels: Record<string, string> = {
  succeeded: 'Paid',
  processing: 'Processing',
  requires_payment_method: 'Awaiting payment method',
  requires_confirmation: 'Awaiting confirmation',
  requires_action: 'Awaiting customer action',
  requires_capture: 'Authorised',
  canceled: 'Canceled',
  refunded: 'Refunded',
  partially_refunded: 'Partly refunded',
  failed: 'Failed',
};

export function paymentStatusLabel(status: string): string {
  return paymentStatusLabels[status] ?? humanize(status);
}

export function paymentMethodLabel(method: PaymentMethod | null | undefined): string {
  if (method === 'cashapp') return 'Cash App Pay';
  if (method === 'card') return 'Card';
  return '—';
}
