/**
 * The one seam to an identity-proofing service (credential analysis of a
 * government photo ID plus a live selfie compared with the ID photo). Chosen
 * once at start-up like payments: Stripe Identity when the Stripe keys are
 * set, otherwise the built-in TEST MODE provider. See
 * docs/decisions/034-identity-provider.md.
 */
export interface IdentityProvider {
  mode: 'stripe' | 'test';
}

export type IdentityOutcomeStatus = 'pending' | 'processing' | 'verified' | 'failed' | 'canceled';

/** What a provider established about the person; never taken from the browser. */
export interface IdentityOutcome {
  status: IdentityOutcomeStatus;
  /** Shown to the customer when the check failed. */
  failureMessage: string | null;
  nameOnId: string | null;
  /** driving_license | passport | id_card */
  documentType: string | null;
  issuingState: string | null;
  /** YYYY-MM-DD */
  expiresOn: string | null;
  selfieMatch: boolean | null;
  /** The last 4 characters of the ID's number (never the whole number). */
  documentNumberLast4: string | null;
  /** From the session's metadata, so a webhook can be placed without our row. */
  bookingId: string | null;
}

export interface StartedVerification {
  sessionId: string;
  /** Where the browser goes to verify (Stripe's hosted flow); null for the test provider. */
  url: string | null;
}
