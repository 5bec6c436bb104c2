import express, { type Express } from 'express';
import type { StripePaymentProvider } from '../adapters/payments/stripe.ts';
import type { Deps } from '../deps.ts';
import { handleStripeEvent } from '../features/payments/service.ts';

/**
 * `POST /api/stripe/webhook`. Stripe signs the exact bytes it sends, so this
 * route reads the raw body itself and must be mounted before any JSON body
 * parser. A bad or stale signature (older than Stripe's 300 s tolerance) is a
 * 400; a failure while recording is a 500, so Stripe retries later.
 */
export function mountStripeWebhook(app: Express, deps: Deps): void {
  app.post('/api/stripe/webhook', express.raw({ type: '*/*', limit: '1mb' }), async (req, res, next) => {
    if (deps.payments.mode !== 'stripe') {
      res.status(404).json({ error: 'Stripe is not configured' });
      return;
    }
    const provider = deps.payments as StripePaymentProvider;
    let event;
    try {
      event = provider.constructEvent(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0), req.headers['stripe-signature']);
    } catch (error) {
      req.log?.warn({ err: error }, 'stripe webhook rejected');
      res.status(400).json({ error: 'Invalid signature' });
      return;
    }
    try {
      const outcome = await handleStripeEvent(deps, event);
      res.json({ received: true, outcome });
    } catch (error) {
      next(error);
    }
  });
}
