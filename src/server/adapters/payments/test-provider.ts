import { createHash, randomBytes } from 'node:crypto';
import { cardDigits, cardMessages, validateCard, type CardFields } from '../../../shared/payments.ts';
import type { CreatedIntent, CreateIntentInput, PaymentProvider, RetrievedIntent } from './types.ts';

/**
 * The built-in provider used when no Stripe keys are configured. It behaves
 * like Stripe's test mode: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002
 * is declined with Stripe's message, a few other Stripe test cards give their
 * documented errors, and anything else is refused as "not a test card" — so a
 * real card number typed by mistake is never treated as a payment.
 *
 * Intents live in this process's memory: the test provider is for development
 * and tests on one node. Ids derive from the idempotency key, so after a
 * restart the same booking gets the same intent id back.
 */

interface TestIntent {
  id: string;
  bookingId: string;
  amountCents: number;
  currency: string;
  status: string;
  method: 'card' | null;
  failureMessage: string | null;
  refundedCents: number;
}

/** Stripe's documented test cards with a fixed outcome (https://docs.stripe.com/testing). */
const declines: Record<string, string> = {
  '4000000000000002': cardMessages.declined,
  '4000000000009995': 'Your card has insufficient funds.',
  '4000000000009987': cardMessages.declined,
  '4000000000000069': 'Your card has expired.',
  '4000000000000127': "Your card's security code is incorrect.",
  '4000000000000119': 'An error occurred while processing your card. Try again in a little bit.',
};
const successes = new Set(['4242424242424242', '4000056655665556', '5555555555554444', '2223003122003222', '378282246310005', '6011111111111117']);
const notATestCard = 'Your card was declined. Your request was in test mode, but used a non test card. Use a test card such as 4242 4242 4242 4242.';

export function createTestPaymentProvider(): PaymentProvider {
  const intents = new Map<string, TestIntent>();

  function get(id: string): TestIntent {
    const intent = intents.get(id);
    if (!intent) throw new Error(`No such payment_intent: '${id}'`);
    return intent;
  }

  return {
    mode: 'test',

    async createIntent(input: CreateIntentInput): Promise<CreatedIntent> {
      const id = `pi_test_${createHash('sha256').update(input.idempotencyKey).digest('hex').slice(0, 24)}`;
      const existing = intents.get(id);
      if (existing) return { providerPaymentId: id, clientSecret: null, status: existing.status };
      intents.set(id, {
        id,
        bookingId: input.bookingId,
        amountCents: input.amountCents,
        currency: input.currency,
        status: 'requires_payment_method',
        method: null,
        failureMessage: null,
        refundedCents: 0,
      });
      return { providerPaymentId: id, clientSecret: null, status: 'requires_payment_method' };
    },

    async retrieve(providerPaymentId: string): Promise<RetrievedIntent> {
      const intent = get(providerPaymentId);
      return {
        status: intent.status,
        amountCents: intent.amountCents,
        currency: intent.currency,
        method: intent.method,
        failureMessage: intent.failureMessage,
        bookingId: intent.bookingId,
      };
    },

    async refund({ providerPaymentId, amountCents }) {
      const intent = intents.get(providerPaymentId);
      if (intent) intent.refundedCents += amountCents;
      return { refundId: `re_test_${randomBytes(8).toString('hex')}`, status: 'succeeded' };
    },

    parseWebhook() {
      throw new Error('The test provider sends no webhooks: its card form confirms through confirmTestCard.');
    },

    async confirmTestCard(providerPaymentId: string, card: CardFields, now: Date) {
      const intent = get(providerPaymentId);
      if (intent.status === 'succeeded') return { status: intent.status, failureMessage: null };
      const formatError = Object.values(validateCard(card, now))[0];
      const number = cardDigits(card.number);
      const failure = formatError ?? declines[number] ?? (successes.has(number) ? null : notATestCard);
      intent.method = 'card';
      if (failure) {
        // Like Stripe: a declined attempt leaves the intent ready for another card.
        intent.status = 'requires_payment_method';
        intent.failureMessage = failure;
      } else {
        intent.status = 'succeeded';
        intent.failureMessage = null;
      }
      return { status: intent.status, failureMessage: intent.failureMessage };
    },
  };
}
