import type Stripe from 'stripe';
import type { IdentityOutcome, IdentityOutcomeStatus, IdentityProvider, StartedVerification } from './types.ts';
import { createStripeClient } from '../stripe-client.ts';

export interface StripeIdentityOptions {
  secretKey: string;
  /** Tests only: a local stand-in for https://api.stripe.com. */
  apiBase?: string;
}

export interface StripeIdentityProvider extends IdentityProvider {
  mode: 'stripe';
  createSession(input: { bookingId: string; attempt: number; returnUrl: string; idempotencyKey: string }): Promise<StartedVerification>;
  /** The session's hosted URL again (it stays valid while the session awaits input). */
  sessionUrl(sessionId: string): Promise<string | null>;
  /** Reads the outcome back from Stripe: the webhook only says "look again". */
  retrieve(sessionId: string): Promise<IdentityOutcome>;
}

/**
 * Stripe Identity: a VerificationSession of type `document` with a matching
 * live selfie; the customer verifies on Stripe's hosted page and comes back.
 */
export function createStripeIdentityProvider(options: StripeIdentityOptions): StripeIdentityProvider {
  const stripe = createStripeClient(options.secretKey, options.apiBase);

  return {
    mode: 'stripe',

    async createSession({ bookingId, attempt, returnUrl, idempotencyKey }) {
      const session = await stripe.identity.verificationSessions.create(
        {
          type: 'document',
          options: {
            document: {
              allowed_types: ['driving_license', 'passport', 'id_card'],
              require_matching_selfie: true,
              require_live_capture: true,
            },
          },
          metadata: { bookingId, attempt: String(attempt) },
          return_url: returnUrl,
        },
        { idempotencyKey },
      );
      return { sessionId: session.id, url: session.url };
    },

    async sessionUrl(sessionId) {
      const session = await stripe.identity.verificationSessions.retrieve(sessionId);
      return session.url;
    },

    async retrieve(sessionId) {
      const session = await stripe.identity.verificationSessions.retrieve(sessionId, {
        expand: ['verified_outputs', 'last_verification_report', 'last_verification_report.document.number'],
      });
      return outcomeOf(session);
    },
  };
}

const statusOf: Record<Stripe.Identity.VerificationSession.Status, IdentityOutcomeStatus> = {
  verified: 'verified',
  processing: 'processing',
  requires_input: 'pending',
  canceled: 'canceled',
};

export function outcomeOf(session: Stripe.Identity.VerificationSession): IdentityOutcome {
  const report = typeof session.last_verification_report === 'object' ? session.last_verification_report : null;
  const document = report?.document ?? null;
  const outputs = session.verified_outputs ?? null;
  const name =
    [outputs?.first_name, outputs?.last_name].filter(Boolean).join(' ') ||
    [document?.first_name, document?.last_name].filter(Boolean).join(' ') ||
    null;
  const expiry = document?.expiration_date;
  const expiresOn =
    expiry?.year && expiry.month && expiry.day
      ? `${expiry.year}-${String(expiry.month).padStart(2, '0')}-${String(expiry.day).padStart(2, '0')}`
      : null;
  let status = statusOf[session.status] ?? 'pending';
  // "requires_input" after an attempt means the check failed and may be retried.
  const error = session.last_error;
  if (status === 'pending' && error) status = 'failed';
  return {
    status,
    failureMessage: status === 'failed' ? (error?.reason ?? 'We could not verify your identity.') : null,
    nameOnId: name,
    documentType: document?.type ?? null,
    issuingState: document?.address?.state ?? document?.issuing_country ?? null,
    expiresOn,
    selfieMatch: report?.selfie ? report.selfie.status === 'verified' : null,
    // Stripe gives the number only when expanded (`last_verification_report.document.number`); its last 4 at most.
    documentNumberLast4: document?.number ? document.number.slice(-4) : null,
    bookingId: session.metadata?.bookingId ?? null,
  };
}
