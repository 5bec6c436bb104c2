import type { Config } from '../../config.ts';
import { createTestPaymentProvider } from './test-provider.ts';
import type { PaymentProvider } from './types.ts';

export type { PaymentProvider } from './types.ts';

/**
 * Stripe when all three STRIPE_* keys are set (`config.paymentsMode`), otherwise the built-in test provider.
 * The Stripe SDK (~220 modules) is loaded only when it is used: start-up time.
 */
export async function createPaymentProvider(config: Config): Promise<PaymentProvider> {
  if (config.paymentsMode === 'stripe') {
    const { createStripePaymentProvider } = await import('./stripe.ts');
    return createStripePaymentProvider({
      secretKey: config.STRIPE_SECRET_KEY!,
      webhookSecret: config.STRIPE_WEBHOOK_SECRET!,
      apiBase: config.STRIPE_API_BASE,
    });
  }
  return createTestPaymentProvider();
}
