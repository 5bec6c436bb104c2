import { businessInquiryInput, contactInput, contactMessages } from '../../../shared/contact.ts';
import { rateLimitedProcedure, router, TRPCError } from '../../trpc.ts';
import { businessRate, contactRate, submitBusinessInquiry, submitContactMessage } from './service.ts';

export const contactRouter = router({
  send: rateLimitedProcedure(contactRate).input(contactInput).mutation(async ({ ctx, input }) => {
    const result = await submitContactMessage(ctx.deps, input);
    if (result.status === 'missing-fields') throw new TRPCError({ code: 'BAD_REQUEST', message: contactMessages.missingDescription });
    return { ok: true as const };
  }),
  sendBusiness: rateLimitedProcedure(businessRate).input(businessInquiryInput).mutation(async ({ ctx, input }) => {
    await submitBusinessInquiry(ctx.deps, input);
    return { ok: true as const };
  }),
});
