import { bookingIdInput, confirmTestCardInput } from '../../../shared/payments.ts';
import { enforceRate } from '../../http/rate-limit.ts';
import { publicProcedure, router } from '../../trpc.ts';
import { confirmTestCard, createPaymentIntent, syncPayment } from './service.ts';

/** Card attempts per visitor address: enough for typos, too few for card testing. */
export const attemptRule = { name: 'payments:attempt', limit: 20, windowSeconds: 600 };
/** Each sync asks the provider's API; the page polls it while a Cash App payment is processing. */
export const syncRule = { name: 'payments:sync', limit: 120, windowSeconds: 600 };

export const paymentsRouter = router({
  createIntent: publicProcedure.input(bookingIdInput).mutation(async ({ ctx, input }) => {
    await enforceRate(ctx.deps.db, ctx.res, attemptRule, ctx.req.ip ?? 'unknown');
    return createPaymentIntent(ctx.deps, input);
  }),
  confirmTestCard: publicProcedure.input(confirmTestCardInput).mutation(async ({ ctx, input }) => {
    await enforceRate(ctx.deps.db, ctx.res, attemptRule, ctx.req.ip ?? 'unknown');
    return confirmTestCard(ctx.deps, input);
  }),
  sync: publicProcedure.input(bookingIdInput).mutation(async ({ ctx, input }) => {
    await enforceRate(ctx.deps.db, ctx.res, syncRule, ctx.req.ip ?? 'unknown');
    return syncPayment(ctx.deps, input);
  }),
});
