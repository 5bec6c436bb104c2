import express, { type Express } from 'express';
import { bodyLimit, bodyLimits } from './body-limit.ts';
import type { Deps } from '../deps.ts';
import { handleProviderEvent } from '../features/payments/service.ts';
import { handleIdentityEvent } from '../features/identity/service.ts';

/**
 * `POST /api/stripe/webhook`. Stripe signs the exact bytes it sends, so this
 * route reads the raw body itself and must be mounted before any JSON body
 * parser. A bad or stale signature (older than Stripe's 300 s tolerance) is a
 * 400; a failure while recording is a 500, so Stripe retries later.
 */
export function mountStripeWebhook(app: Express, deps: Deps): void {
  app.post('/api/stripe/webhook', bodyLimit(bodyLimits.stripeWebhook), express.raw({ type: '*/*', limit: bodyLimits.stripeWebhook }), async (req, res, next) => {
    if (deps.payments.mode !== 'stripe') {
      res.status(404).json({ error: 'Stripe is not configured' });
      return;
    }
    let event;
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    try {
      event = deps.payments.parseWebhook(raw, req.headers['stripe-signature']);
    } catch (error) {
      // The reason and the event's id only: Stripe's error carries the whole payload (customers' names and emails).
      req.log?.warn({ reason: error instanceof Error ? error.message.slice(0, 200) : 'unreadable', eventId: claimedEventId(raw) }, 'stripe webhook rejected');
      res.status(400).json({ error: 'Invalid signature' });
      return;
    }
    try {
      // Identity events are read back from Stripe's API before anything is recorded.
      const outcome = event.kind === 'identity' ? await handleIdentityEvent(deps, event) : await handleProviderEvent(deps, event);
      res.json({ received: true, outcome });
    } catch (error) {
      next(error);
    }
  });
}

/** The `id` an unverified body claims, if it looks like a Stripe event id (for the log; nothing else is read). */
function claimedEventId(raw: Buffer): string | null {
  const match = /"id"\s*:\s*"(evt_[A-Za-z0-9_]{1,100})"/.exec(raw.subarray(0, 4096).toString('utf8'));
  return match?.[1] ?? null;
}
