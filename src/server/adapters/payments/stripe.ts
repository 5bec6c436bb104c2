import type Stripe from 'stripe';
import type { PaymentMethod } from '../../../shared/payments.ts';
import type { CreatedIntent, CreateIntentInput, PaymentProvider, ProviderEvent, RetrievedIntent } from './types.ts';
import { createStripeClient } from '../stripe-client.ts';

export interface StripeProviderOptions {
  secretKey: string;
  webhookSecret: string;
  /** Tests only: a local stand-in for https://api.stripe.com. */
  apiBase?: string;
}

/**
 * Stripe, through its official SDK. The PaymentIntent lists card and Cash App
 * Pay explicitly, so the Payment Element offers exactly those two whatever the
 * dashboard's automatic settings are.
 */
export function createStripePaymentProvider(options: StripeProviderOptions): PaymentProvider {
  const stripe = createStripeClient(options.secretKey, options.apiBase);

  return {
    mode: 'stripe',

    async createIntent(input: CreateIntentInput): Promise<CreatedIntent> {
      const intent = await stripe.paymentIntents.create(
        {
          amount: input.amountCents,
          currency: input.currency,
          description: input.description,
          metadata: { bookingId: input.bookingId, reference: input.reference },
          allowed_payment_method_types: ['card', 'cashapp'],
        },
        { idempotencyKey: input.idempotencyKey },
      );
      return { providerPaymentId: intent.id, clientSecret: intent.client_secret, status: intent.status };
    },

    async retrieve(providerPaymentId: string): Promise<RetrievedIntent> {
      const intent = await stripe.paymentIntents.retrieve(providerPaymentId, { expand: ['payment_method'] });
      return intentSummary(intent);
    },

    async refund({ providerPaymentId, amountCents, idempotencyKey }) {
      const refund = await stripe.refunds.create({ payment_intent: providerPaymentId, amount: amountCents }, { idempotencyKey });
      return { refundId: refund.id, status: refund.status ?? 'pending' };
    },

    /** Verifies the signature on the raw body (Stripe's default tolerance, 300 s), then translates. */
    parseWebhook(raw, signature) {
      if (!signature) throw new Error('No stripe-signature header');
      return translateEvent(stripe.webhooks.constructEvent(raw, signature, options.webhookSecret));
    },

    confirmTestCard: null,
  };
}

/** Stripe's events in our terms: intent updates and refunds; everything else is ignored. */
export function translateEvent(event: Stripe.Event): ProviderEvent {
  const base = { id: event.id, type: event.type };
  switch (event.type) {
    case 'payment_intent.succeeded':
    case 'payment_intent.processing':
    case 'payment_intent.payment_failed':
    case 'payment_intent.canceled': {
      const intent = event.data.object;
      return { ...base, kind: 'intent', providerPaymentId: intent.id, intent: intentSummary(intent) };
    }
    case 'charge.refunded': {
      const charge = event.data.object;
      const intentId = typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id;
      if (!intentId) return { ...base, kind: 'ignored' };
      return {
        ...base,
        kind: 'refund',
        providerPaymentId: intentId,
        refundedCents: charge.amount_refunded,
        refundId: charge.refunds?.data[0]?.id ?? null,
        full: charge.refunded,
      };
    }
    default: {
      // One endpoint serves payments and Stripe Identity (features/identity).
      const object = event.data.object as { id?: unknown; object?: unknown };
      if (event.type.startsWith('identity.verification_session.') && typeof object.id === 'string') {
        return { ...base, kind: 'identity', verificationSessionId: object.id };
      }
      return { ...base, kind: 'ignored' };
    }
  }
}

/** What we keep from a PaymentIntent, whether retrieved or carried by a webhook event. */
export function intentSummary(intent: Stripe.PaymentIntent): RetrievedIntent {
  return {
    status: intent.status,
    amountCents: intent.amount,
    currency: intent.currency,
    method: methodOf(intent),
    failureMessage: intent.last_payment_error?.message ?? null,
    bookingId: intent.metadata?.bookingId ?? null,
  };
}

function methodOf(intent: Stripe.PaymentIntent): PaymentMethod | null {
  const pm = intent.payment_method;
  const type = pm && typeof pm === 'object' ? pm.type : intent.payment_method_types.length === 1 ? intent.payment_method_types[0] : null;
  return type === 'card' || type === 'cashapp' ? type : null;
}
