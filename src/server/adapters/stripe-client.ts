import Stripe from 'stripe';

/**
 * The one Stripe SDK client setup shared by payments and Stripe Identity:
 * bounded waits, a couple of retries, and (tests only) a local stand-in for
 * https://api.stripe.com given as `apiBase`.
 */
export function createStripeClient(secretKey: string, apiBase?: string): Stripe {
  const base = apiBase ? new URL(apiBase) : null;
  return new Stripe(secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: 'NotaryOnline' },
    ...(base && {
      host: base.hostname,
      port: base.port || (base.protocol === 'https:' ? 443 : 80),
      protocol: base.protocol === 'https:' ? 'https' : 'http',
    }),
  });
}
