import type { Config } from '../../config.ts';
import type { StripeIdentityProvider } from './stripe.ts';
import { createTestIdentityProvider, type TestIdentityProvider } from './test-provider.ts';

export type { IdentityOutcome } from './types.ts';
export type AnyIdentityProvider = StripeIdentityProvider | TestIdentityProvider;

/**
 * Stripe Identity with the same keys as payments, otherwise the TEST MODE provider
 * (refused on a public site unless ALLOW_TEST_IDENTITY=true: config.ts deploymentProblems).
 * Like payments, the Stripe SDK is loaded only when it is used (start-up time).
 */
export async function createIdentityProvider(config: Config): Promise<AnyIdentityProvider> {
  if (config.identityMode === 'stripe') {
    const { createStripeIdentityProvider } = await import('./stripe.ts');
    return createStripeIdentityProvider({ secretKey: config.STRIPE_SECRET_KEY!, apiBase: config.STRIPE_API_BASE });
  }
  return createTestIdentityProvider();
}
