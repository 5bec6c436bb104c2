import { z } from 'zod';
import type { NotaryKbaView } from './kba.ts';
import { manageTokenSchema } from './manage-booking.ts';
import { actStageMessages, type ActStage } from './act-stages.ts';
import { isSingleLine, singleLineMessage } from './fields.ts';
import type { FieldView } from './document-fields.ts';

/**
 * The notarial act, shared by both sides: identity proofing before the
 * session, signing and sealing in it, and delivery of the sealed PDF.
 * Visitor-facing labels and messages live here once.
 */
export const maxIdentityAttempts = 3;

export const actLabels = {
  verifyIdentity: 'Verify your identity',
  downloadNotarized: 'Download notarized document',
  documentReadySubject: 'Your notarized document is ready',
  testMode: 'TEST MODE',
} as const;

export const identityMessages = {
  notOpen: 'Identity verification opens once your booking is paid.',
  alreadyVerified: 'Your identity is verified.',
  noAttemptsLeft: `You have used all ${maxIdentityAttempts} verification attempts. Our staff have been told and will contact you to arrange another way.`,
  badImage: 'Each photo must be a JPEG or PNG image of at most 8 MB.',
  missingImage: 'Please add all three photos: the front and the back of your ID, and a selfie.',
  nameRequired: 'Please enter your name exactly as it appears on your ID.',
  inProgress: 'Your verification is being checked. This page updates when it is done.',
  notVerified: "The signer's identity is not verified yet. The session can start once the signer has verified their identity from their booking page.",
  notConfirmed: 'Confirm that the verified ID matches the person on camera. The recording must be running: the comparison is part of the recorded act.',
  failedPrefix: 'Verification failed:',
  nameCharacters: 'Your name cannot contain line breaks or control characters.',
  providerUnavailable: 'Identity verification could not be started just now. No attempt was used. Please try again in a few minutes.',
} as const;

export const identityStatusSchema = z.enum(['not_started', 'pending', 'processing', 'verified', 'failed', 'locked']);
export type CustomerIdentityStatus = z.infer<typeof identityStatusSchema>;

/** What the customer sees: no details of the ID, only where they stand. */
export interface CustomerIdentityView {
  mode: 'stripe' | 'test';
  open: boolean;
  status: CustomerIdentityStatus;
  attemptsUsed: number;
  attemptsLeft: number;
  message: string | null;
}

/** What the booking's notary (and admins) see in the room. */
export interface NotaryIdentityView {
  bookingName: string;
  mode: 'stripe' | 'test';
  attemptsUsed: number;
  latest: {
    id: string;
    provider: 'stripe' | 'test';
    providerSessionId: string;
    status: string;
    failureMessage: string | null;
    nameOnId: string | null;
    nameMatchesBooking: boolean;
    documentType: string | null;
    issuingState: string | null;
    expiresOn: string | null;
    selfieMatch: boolean | null;
    documentNumberLast4: string | null;
    imageParts: string[];
    confirmedAt: Date | null;
  } | null;
  /** Knowledge-based authentication (identity questions). */
  kba: NotaryKbaView;
  /** Why the session cannot start yet; null when it can. */
  startBlocker: string | null;
  /**
   * Each co-signer and witness still taking part, with their own identity
   * proofing: the notary confirms each one on camera as for the customer
   * (decision 123). Never shown to another participant.
   */
  participants: ParticipantIdentityView[];
}

export interface ParticipantIdentityView {
  participantId: string;
  name: string;
  role: 'signer' | 'witness';
  latest: NotaryIdentityView['latest'];
  kba: NotaryKbaView;
  /** What is missing of their proofing, or null when complete. */
  blocker: string | null;
}

/** The name as on the ID: the booking's own rules for a name (no control characters, no bidi overrides, bounded). */
export const nameOnIdSchema = z.string().trim().min(1, identityMessages.nameRequired).max(200, identityMessages.nameRequired).refine(isSingleLine, identityMessages.nameCharacters);

export const testVerificationFields = {
  nameOnId: nameOnIdSchema,
};

export const identityParts = ['front', 'back', 'selfie'] as const;

// ---- Signing and sealing -------------------------------------------------------

export const actTypes = ['acknowledgment', 'jurat', 'signature_witnessing', 'copy_certification'] as const;
export type ActType = (typeof actTypes)[number];
export const actTypeLabels: Record<ActType, string> = {
  acknowledgment: 'Acknowledgment',
  jurat: 'Jurat (verification on oath or affirmation)',
  signature_witnessing: 'Signature witnessing',
  copy_certification: 'Copy certification',
};

/** A drawn or typed signature arrives as a PNG data URL; this bounds it (~300 KB). */
export const maxSignaturePngChars = 400_000;

export const adoptSignatureInput = z.object({
  token: manageTokenSchema,
  documentId: z.uuid(),
  kind: z.enum(['typed', 'drawn']),
  /** Which fields it fills: every Signature field of the document, or every Initials field. */
  field: z.enum(['signature', 'initials']).default('signature'),
  text: z.string().trim().max(120).refine(isSingleLine, singleLineMessage('Your signature')).optional(),
  png: z
    .string()
    .max(maxSignaturePngChars, 'The signature image is too large.')
    .regex(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/, 'The signature must be a PNG image.'),
});

/** "affidavit.pdf" → "affidavit (notarized).pdf"; an image "id-front.jpg" → "id-front (notarized).pdf" (issue 30). */
export function notarizedFileName(originalName: string): string {
  return `${originalName.replace(/\.(pdf|jpe?g|png)$/i, '')} (notarized).pdf`;
}

/** PAdES baseline levels (ETSI EN 319 142-1) a sealed document can have (docs/decisions/060). */
export const signatureLevels = ['B-B', 'B-T', 'B-LT', 'B-LTA'] as const;
export type SignatureLevel = (typeof signatureLevels)[number];
export const signatureLevelLabels: Record<SignatureLevel, string> = {
  'B-B': 'basic signature; the signing time is our server clock',
  'B-T': 'signature with a trusted timestamp',
  'B-LT': 'timestamped, with the certificates and revocation answers needed to check it later',
  'B-LTA': 'long-term: timestamped, with validation data, and the whole file timestamped again',
};

export const sealInput = z.object({ bookingId: z.uuid(), documentId: z.uuid(), actType: z.enum(actTypes) });
export const bookingIdInput = z.object({ bookingId: z.uuid() });
/** The notary sets a document aside as not notarizable (or takes that back), with a reason. */
export const markNotNotarizableInput = z.object({
  bookingId: z.uuid(),
  documentId: z.uuid(),
  notNotarizable: z.boolean().default(true),
  reason: z.string().trim().max(500).optional(),
});
export const markSupportingInput = z.object({ bookingId: z.uuid(), documentId: z.uuid(), supporting: z.boolean() });
export const notNotarizableReasonRequired = 'Say why this document cannot be notarized.';
export const confirmIdentityInput = z.object({ bookingId: z.uuid(), verificationId: z.uuid() });

export interface ActDocumentView {
  documentId: string;
  name: string;
  contentType: string;
  /** The fields the notary placed (decision 100). */
  fields: FieldView[];
  /** Every field filled (and at least one placed). */
  signed: boolean;
  signatureKind: 'typed' | 'drawn' | null;
  actType: ActType | null;
  sealed: boolean;
  sealedSha256: string | null;
  pageCount: number | null;
  /** Set aside by the notary (unreadable, refused): never sealed, does not block Finish. */
  notNotarizable: boolean;
  notNotarizableReason: string | null;
  /** A supporting file (an ID photo, a reference copy): shown, never sealed or journaled; does not block Finish. */
  supporting: boolean;
  /** The sealed file's name: "{original name} (notarized).pdf" (null until sealed). */
  notarizedName: string | null;
  signatureLevel: SignatureLevel | null;
}

export interface ActView {
  bookingId: string;
  signerName: string;
  documents: ActDocumentView[];
  allSealed: boolean;
  /** The act's stage (the server's state machine, decision 073) and the signer's answers. */
  stage: ActStage;
  signerLocation: string | null;
  consentGiven: boolean;
  /** A signer outside the US: the notary has confirmed RULONA's conditions (decision 106). */
  abroadConfirmed: boolean;
  oathRequested: boolean;
  oathKind: 'swear' | 'affirm' | null;
  /**
   * Who fills fields (decision 123): the booking's customer first
   * (participantId null), then each co-signer and witness, in the order they
   * were invited; `tone` picks their colour. The viewer's own answers above
   * (signerName, location, consent, oath) are theirs when a participant views.
   */
  signers: ActSigner[];
  /** The viewer by their own link: a co-signer's or witness's id; null for the customer and staff. */
  viewerParticipantId: string | null;
  /** Witnesses the notary recorded as identifying a signer (decision 124). */
  credibleWitnesses: { witnessId: string; signerParticipantId: string | null }[];
}

/** A co-signer or witness who answered "Where are you right now?" with a country (the notary's view, decision 106). */
export interface SignerAbroad {
  participantId: string;
  name: string;
  country: string;
  /** The notary confirmed the act is allowed for them. */
  confirmed: boolean;
}

export interface ActSigner {
  participantId: string | null;
  name: string;
  role: 'customer' | 'signer' | 'witness';
  /** Still taking part: not removed, not marked not completed (their fields are then left out of the seal). */
  active: boolean;
  /** The index of their colour in the room (text always names them too: colour is never the only sign). */
  tone: number;
}

/** The notary records a witness who identifies a signer (null: the booking's customer). */
export const recordCredibleWitnessInput = z.object({ bookingId: z.uuid(), witnessId: z.uuid(), signerParticipantId: z.uuid().nullable() });
/** The notary confirms the act is allowed for a signer abroad: the customer, or a co-signer or witness by id. */
export const confirmAbroadInput = z.object({ bookingId: z.uuid(), participantId: z.uuid().nullable().optional() });

export const giveConsentInput = z.object({
  token: manageTokenSchema,
  location: z.string().trim().min(2, 'Choose where you are right now.').max(90),
  consent: z.literal(true, 'Tick “I consent to sign electronically” to continue.'),
});
export const answerOathInput = z.object({ token: manageTokenSchema, kind: z.enum(['swear', 'affirm']) });

export const actMessages = {
  notPlaced: 'Wait until the notary shows you where to sign.',
  notSigned: 'The signer has not adopted a signature for this document yet.',
  alreadySealed: 'This document is already sealed and can no longer be changed.',
  commissionMissing: 'Add your commission number and expiry (Notary profile) before sealing.',
  commissionExpired: 'Your commission has expired; a document cannot be sealed under it.',
  certificateMissing: 'No signing certificate is on file for you. An admin must upload your PKCS#12 certificate in the console.',
  identityFirst: 'Confirm the signer’s identity before sealing.',
  coSignerIdentityFirst: (name: string) => `Confirm ${name}’s identity before sealing: every signer in the session is identified.`,
  notSealed: 'Every document must be sealed before the session can be finished.',
  badPlacement: 'That page does not exist in this document.',
  signatureImage: 'The signature must be a PNG image.',
  sealing: 'This document is being sealed. It will show as sealed in a moment.',
  recordingFirst: actStageMessages.recordingRequired,
  cancelAfterSealCustomer: 'This booking can no longer be cancelled: your document has already been notarized. Please contact us if something is wrong.',
  cancelAfterSealStaff: 'This booking cannot be cancelled: a document of it has already been notarized (sealed), and the act stands. An admin can still refund the payment with a reason.',
  refundReasonRequired: 'Please give a reason for the refund.',
  nothingToRefund: 'There is nothing left to refund on this booking.',
  supportingFile: 'This is a supporting file: it is shown in the session but never signed or sealed.',
  markedNotNotarizable: 'This document was marked as not notarizable; it cannot be signed or sealed.',
  signatureTooLarge: 'The signature image can be at most 2000 × 600 pixels.',
  /** A customer file the seal cannot open or use: the notary reads why, and may mark it as not notarizable. */
  documentNotNotarizable: (why: string) => `This document cannot be notarized: ${why} Ask the signer for another copy, or mark it as not notarizable.`,
  timestampUnavailable: 'The timestamp authority or the certificate issuer did not answer, so the seal was not applied. Please try again in a minute.',
} as const;

export const commissionInput = z.object({
  commissionNumber: z.string().trim().min(1, 'Enter your commission number.').max(40).refine(isSingleLine, singleLineMessage('The commission number')),
  commissionExpiresOn: z.iso.date('Enter the expiry as a date.'),
  commissionState: z.string().trim().min(2).max(40).refine(isSingleLine, singleLineMessage('The state')).default('Iowa'),
});

export const uploadCertificateInput = z.object({
  staffUserId: z.uuid(),
  /** The PKCS#12 file, base64 (bounded: a certificate bundle is a few KB). */
  p12Base64: z.string().min(100).max(200_000).regex(/^[A-Za-z0-9+/]+=*$/, 'The certificate must be a PKCS#12 (.p12/.pfx) file.'),
  password: z.string().max(200),
});

export const journalRangeInput = z.object({
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
});
