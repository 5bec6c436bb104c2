import type { CardFields, PaymentMethod } from '../../../shared/payments.ts';

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
  /**
   * Checks a webhook's signature over the exact bytes received and translates
   * the event into ours; throws on a bad or stale signature, or where the
   * provider sends no webhooks (the test provider).
   */
  parseWebhook(raw: Buffer, signature: string | string[] | undefined): ProviderEvent;
  /**
   * The test mode card form's submit: the provider judges the card and moves
   * the intent. Null where card numbers never reach our server (Stripe: the
   * Payment Element sends them to Stripe directly).
   */
  confirmTestCard: ((providerPaymentId: string, card: CardFields, now: Date) => Promise<{ status: string; failureMessage: string | null }>) | null;
}

/** A provider's webhook event in our terms; `id` makes processing it once possible. */
export type ProviderEvent = { id: string; type: string } & (
  | { kind: 'intent'; providerPaymentId: string; intent: RetrievedIntent }
  | { kind: 'refund'; providerPaymentId: string; refundedCents: number; refundId: string | null; full: boolean }
  /** Stripe Identity: which verification session changed (its outcome is read back with the API). */
  | { kind: 'identity'; verificationSessionId: string }
  | { kind: 'ignored' }
);

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
