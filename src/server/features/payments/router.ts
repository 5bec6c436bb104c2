import { bookingIdInput, confirmTestCardInput } from '../../../shared/payments.ts';
import type { RateRule } from '../../rate-limit.ts';
import { rateLimitedProcedure, router } from '../../trpc.ts';
import { confirmTestCard, createPaymentIntent, syncPayment } from './service.ts';

/** Card attempts per visitor address: enough for typos, too few for card testing. */
export const attemptRule: RateRule = { name: 'payments:attempt', limit: 20, windowSeconds: 600 };
/** Each sync asks the provider's API; the page polls it while a Cash App payment is processing. */
export const syncRule: RateRule = { name: 'payments:sync', limit: 120, windowSeconds: 600 };

export const paymentsRouter = router({
  createIntent: rateLimitedProcedure(attemptRule).input(bookingIdInput).mutation(({ ctx, input }) => createPaymentIntent(ctx.deps, input)),
  confirmTestCard: rateLimitedProcedure(attemptRule).input(confirmTestCardInput).mutation(({ ctx, input }) => confirmTestCard(ctx.deps, input)),
  sync: rateLimitedProcedure(syncRule).input(bookingIdInput).mutation(({ ctx, input }) => syncPayment(ctx.deps, input)),
});
