import type { Config } from '../../config.ts';
import { createStripePaymentProvider } from './stripe.ts';
import { createTestPaymentProvider } from './test-provider.ts';
import type { PaymentProvider } from './types.ts';

export type { PaymentProvider } from './types.ts';

/** Stripe when all three STRIPE_* keys are set (`config.paymentsMode`), otherwise the built-in test provider. */
export function createPaymentProvider(config: Config): PaymentProvider {
  if (config.paymentsMode === 'stripe') {
    return createStripePaymentProvider({
      secretKey: config.STRIPE_SECRET_KEY!,
      webhookSecret: config.STRIPE_WEBHOOK_SECRET!,
      apiBase: config.STRIPE_API_BASE,
    });
  }
  return createTestPaymentProvider();
}
