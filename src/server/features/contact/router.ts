import { businessInquiryInput, contactInput, contactMessages } from '../../../shared/contact.ts';
import { enforceRate, type RateRule } from '../../http/rate-limit.ts';
import { publicProcedure, router, TRPCError } from '../../trpc.ts';
import { submitBusinessInquiry, submitContactMessage } from './service.ts';

/** Generous for a person (a few messages), useless for a spam run. Per client IP, shared by every node. */
export const contactRate: RateRule = { name: 'contact', limit: 5, windowSeconds: 600 };
export const businessRate: RateRule = { name: 'business-inquiry', limit: 5, windowSeconds: 600 };

export const contactRouter = router({
  send: publicProcedure.input(contactInput).mutation(async ({ ctx, input }) => {
    await enforceRate(ctx.deps.db, ctx.res, contactRate, ctx.req.ip ?? 'unknown');
    const result = await submitContactMessage(ctx.deps, input);
    if (result.status === 'missing-fields') throw new TRPCError({ code: 'BAD_REQUEST', message: contactMessages.missingDescription });
    return { ok: true as const };
  }),
  sendBusiness: publicProcedure.input(businessInquiryInput).mutation(async ({ ctx, input }) => {
    await enforceRate(ctx.deps.db, ctx.res, businessRate, ctx.req.ip ?? 'unknown');
    await submitBusinessInquiry(ctx.deps, input);
    return { ok: true as const };
  }),
});
