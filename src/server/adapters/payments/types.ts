import type { PaymentMethod } from '../../../shared/payments.ts';

/**
 * The one seam to a payment processor. Chosen once at start-up (`deps.ts`):
 * Stripe when all three STRIPE_* keys are set, otherwise the built-in test
 * provider, which answers like Stripe's test mode.
 */
export interface PaymentProvider {
  mode: 'stripe' | 'test';
  createIntent(input: CreateIntentInput): Promise<CreatedIntent>;
  retrieve(providerPaymentId: string): Promise<RetrievedIntent>;
  refund(input: { providerPaymentId: string; amountCents: number; idempotencyKey: string }): Promise<{ refundId: string; status: string }>;
}

export interface CreateIntentInput {
  bookingId: string;
  /** The booking's NOTARY- reference, kept in the provider's metadata for support staff. */
  reference: string;
  amountCents: number;
  currency: 'usd';
  /** Same key → same intent: a reload or a double click never creates a second charge. */
  idempotencyKey: string;
  description: string;
}

export interface CreatedIntent {
  providerPaymentId: string;
  /** Stripe's client secret for the Payment Element; null for the test provider. */
  clientSecret: string | null;
  status: string;
}

export interface RetrievedIntent {
  status: string;
  amountCents: number;
  currency: string;
  method: PaymentMethod | null;
  failureMessage: string | null;
  /** From the intent's metadata, so a webhook for an unknown row can still be placed. */
  bookingId: string | null;
}
