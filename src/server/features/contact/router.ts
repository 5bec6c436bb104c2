import { businessInquiryInput, contactInput, waitlistInput } from '../../../shared/contact.ts';
import { rateLimitedProcedure, router } from '../../trpc.ts';
import { businessRate, contactRate, joinWaitlist, submitBusinessInquiry, submitContactMessage, waitlistRate } from './service.ts';

export const contactRouter = router({
  send: rateLimitedProcedure(contactRate).input(contactInput).mutation(async ({ ctx, input }) => {
    await submitContactMessage(ctx.deps, input);
    return { ok: true as const };
  }),
  sendBusiness: rateLimitedProcedure(businessRate).input(businessInquiryInput).mutation(async ({ ctx, input }) => {
    await submitBusinessInquiry(ctx.deps, input);
    return { ok: true as const };
  }),
  joinWaitlist: rateLimitedProcedure(waitlistRate).input(waitlistInput).mutation(async ({ ctx, input }) => {
    await joinWaitlist(ctx.deps, input);
    return { ok: true as const };
  }),
});
