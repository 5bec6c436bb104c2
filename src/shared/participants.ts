import { z } from 'zod';
import { contactSchema } from './booking.ts';
import { isSingleLine, singleLineMessage } from './fields.ts';
import { manageTokenSchema } from './manage-booking.ts';
import { formatUsd } from './money.ts';
import { confirmTestCardInput, type PaymentSetup } from './payments.ts';

/**
 * Co-signers and witnesses of a session (issue 29; docs/decisions/120-session-participants.md).
 * The booking's customer is the primary signer; they add up to three more
 * people, each a co-signer or a witness, each with a private link of their own.
 */

export const participantRoles = ['signer', 'witness'] as const;
export type ParticipantRole = (typeof participantRoles)[number];
export const participantRoleLabels: Record<ParticipantRole, string> = { signer: 'Signer', witness: 'Witness' };

/** 'pending': added in the wizard before payment, or from the booking page while their fee is being paid; no link yet (decision 125). */
export const participantStatuses = ['pending', 'invited', 'joined', 'removed', 'not_completed'] as const;
export type ParticipantStatus = (typeof participantStatuses)[number];
export const participantStatusLabels: Record<ParticipantStatus, string> = {
  pending: 'Awaiting payment',
  invited: 'Invited',
  joined: 'Joined the session',
  removed: 'Removed',
  not_completed: 'Not completed',
};

/** Remote participants in one room besides the notary: the customer and up to three more (a mesh of five; decision 122). */
export const maxRemoteParticipants = 4;
export const maxAddedParticipants = maxRemoteParticipants - 1;

const optionalPhone = z
  .string()
  .trim()
  .max(40, { message: 'Please enter a valid phone number', abort: true })
  .refine((value) => value === '' || (value.replace(/\D/g, '').length >= 10 && isSingleLine(value)), 'Please enter a valid phone number')
  .transform((value) => (value === '' ? null : value));

export const participantDetailsSchema = z.object({
  role: z.enum(participantRoles),
  name: z.string().trim().min(1, { message: 'Name is required', abort: true }).max(200).refine(isSingleLine, singleLineMessage('Name')),
  email: contactSchema.shape.email,
  phone: optionalPhone.optional().transform((value) => value ?? null),
});
export type ParticipantDetails = z.output<typeof participantDetailsSchema>;

export const addParticipantInput = participantDetailsSchema.extend({ token: manageTokenSchema });
export const participantLinkInput = z.object({ token: manageTokenSchema });
export const removeParticipantInput = z.object({
  bookingId: z.uuid(),
  participantId: z.uuid(),
  reason: z.string().trim().min(3, 'Please give a reason (at least 3 characters).').max(1000),
});

/** A participant as the customer's booking page lists them (no link, no identity details). */
export interface ParticipantSummary {
  id: string;
  role: ParticipantRole;
  name: string;
  email: string;
  status: ParticipantStatus;
  feeCents: number;
}

/** A co-signer's fee being paid from the booking page (a second payment, decision 125). */
export interface SignerPaymentSetup extends PaymentSetup {
  participantId: string;
}

export const signerPaymentInput = z.object({ token: manageTokenSchema, providerPaymentId: z.string().min(1).max(255) });
export const signerTestCardInput = confirmTestCardInput.omit({ bookingId: true }).extend({ token: manageTokenSchema, providerPaymentId: z.string().min(1).max(255) });
export type SignerTestCardInput = z.infer<typeof signerTestCardInput>;

/** A co-signer's fee paid from the booking page, as the booking page and the console list it. */
export interface SignerPaymentView {
  paymentId: string;
  providerPaymentId: string;
  amountCents: number;
  refundedCents: number;
  currency: string;
  status: string;
  createdAt: Date;
  /** The signer it was for (null when unknown). */
  name?: string | null;
}

/** A person added while booking (the wizard's list and the price lines). */
export interface BookedParticipant {
  id: string;
  role: ParticipantRole;
  name: string;
  email: string;
  phone: string | null;
  feeCents: number;
}

export const addToBookingInput = participantDetailsSchema.extend({ bookingId: z.uuid() });
export const removeFromBookingInput = z.object({ bookingId: z.uuid(), participantId: z.uuid() });

/** A co-signer's or witness's own page (/invitation/:token). */
export interface InvitationView {
  reference: string;
  role: ParticipantRole;
  name: string;
  /** The customer who invited them (first name and last name only). */
  invitedBy: string;
  startsAt: Date | null;
  timeZone: string;
  status: ParticipantStatus;
  /** The room's Join button is live. */
  canJoinSession: boolean;
  sessionOpensAt: Date | null;
}

export const participantLabels = {
  addSigner: 'Add a signer',
  witness: 'Witness',
  added: (name: string) => `${name} has been invited. They will get an email with their own link.`,
  inviteSubject: "You've been invited to sign",
  invitationHeading: 'Your invitation',
  remove: 'Remove from session',
} as const;

export const participantMessages = {
  tooMany: `A session can have at most ${maxRemoteParticipants} people besides the notary.`,
  sessionStarted: 'Signers can only be added until the session starts.',
  notAddable: 'Signers can only be added to a confirmed booking.',
  duplicateEmail: 'This person has already been invited.',
  notFound: 'We could not find this invitation. Please check the link in your email.',
  notInSession: 'This participant is not in this session.',
  alreadyRemoved: 'This participant has already been removed.',
  extraFee: (cents: number) => `Each additional signer costs ${formatUsd(cents)}; witnesses are free.`,
  bookingNotFound: 'We could not find this booking.',
  noFee: 'This person can be added without a payment.',
  paymentNotCompleted: 'The payment for this signer was not completed.',
  paymentRefunded: 'This signer could not be added, so their payment was refunded.',
  paymentRequired: (cents: number) => `Adding a signer costs ${formatUsd(cents)}. They are invited once the payment succeeds.`,
} as const;
