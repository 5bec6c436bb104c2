import { bookingIdInput, confirmTestCardInput } from '../../../shared/payments.ts';
import { rateLimitedProcedure, router } from '../../trpc.ts';
import { addParticipantInput, signerPaymentInput, signerTestCardInput } from '../../../shared/participants.ts';
import { manageRate } from '../customer-links/service.ts';
import { attemptRule, confirmTestCard, createPaymentIntent, paySignerTestCard, startSignerPayment, syncPayment, syncRule, syncSignerPayment } from './service.ts';

export { attemptRule, syncRule } from './service.ts';


export const paymentsRouter = router({
  createIntent: rateLimitedProcedure(attemptRule).input(bookingIdInput).mutation(({ ctx, input }) => createPaymentIntent(ctx.deps, input)),
  confirmTestCard: rateLimitedProcedure(attemptRule).input(confirmTestCardInput).mutation(({ ctx, input }) => confirmTestCard(ctx.deps, input)),
  sync: rateLimitedProcedure(syncRule).input(bookingIdInput).mutation(({ ctx, input }) => syncPayment(ctx.deps, input)),
  /** "Add a signer" from the booking page when a co-signer has a fee: a second payment (decision 125). */
  startSigner: rateLimitedProcedure(manageRate).input(addParticipantInput).mutation(({ ctx, input }) => {
    const { token, ...details } = input;
    return startSignerPayment(ctx.deps, token, details);
  }),
  signerTestCard: rateLimitedProcedure(attemptRule).input(signerTestCardInput).mutation(({ ctx, input }) => paySignerTestCard(ctx.deps, input)),
  syncSigner: rateLimitedProcedure(syncRule).input(signerPaymentInput).mutation(({ ctx, input }) => syncSignerPayment(ctx.deps, input)),
});
