import Stripe from 'stripe';
import type { PaymentMethod } from '../../../shared/payments.ts';
import type { CreatedIntent, CreateIntentInput, PaymentProvider, RetrievedIntent } from './types.ts';

export interface StripeProviderOptions {
  secretKey: string;
  webhookSecret: string;
  /** Tests only: a local stand-in for https://api.stripe.com. */
  apiBase?: string;
}

export interface StripePaymentProvider extends PaymentProvider {
  mode: 'stripe';
  /** Verifies the signature on the raw body (default tolerance 300 s) and parses the event. */
  constructEvent(rawBody: Buffer, signature: string | string[] | undefined): Stripe.Event;
}

/**
 * Stripe, through its official SDK. The PaymentIntent lists card and Cash App
 * Pay explicitly, so the Payment Element offers exactly those two whatever the
 * dashboard's automatic settings are.
 */
export function createStripePaymentProvider(options: StripeProviderOptions): StripePaymentProvider {
  const base = options.apiBase ? new URL(options.apiBase) : null;
  const stripe = new Stripe(options.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: 'NotaryOnline' },
    ...(base && {
      host: base.hostname,
      port: base.port || (base.protocol === 'https:' ? 443 : 80),
      protocol: base.protocol === 'https:' ? 'https' : 'http',
    }),
  });

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

    constructEvent(rawBody, signature) {
      if (!signature) throw new Error('No stripe-signature header');
      return stripe.webhooks.constructEvent(rawBody, signature, options.webhookSecret);
    },
  };
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
