import { manageBookingInput, rescheduleInput } from '../../../shared/manage-booking.ts';
import { enforceRate, type RateRule } from '../../http/rate-limit.ts';
import { publicProcedure, router } from '../../trpc.ts';
import { cancelByCustomer, getManageView, rescheduleByCustomer } from './service.ts';

/** Per visitor address: plenty for the customer's own page, and a brake on anyone guessing tokens. */
export const manageRate: RateRule = { name: 'manage', limit: 120, windowSeconds: 600 };

/** The private booking page. The manage token is the only credential. */
const manageProcedure = publicProcedure.use(async ({ ctx, next }) => {
  await enforceRate(ctx.deps.db, ctx.res, manageRate, ctx.req.ip ?? 'unknown');
  return next();
});

export const manageBookingRouter = router({
  get: manageProcedure.input(manageBookingInput).query(({ ctx, input }) => getManageView(ctx.deps, ctx.deps.db, input.token)),
  reschedule: manageProcedure.input(rescheduleInput).mutation(({ ctx, input }) => rescheduleByCustomer(ctx.deps, input)),
  cancel: manageProcedure.input(manageBookingInput).mutation(({ ctx, input }) => cancelByCustomer(ctx.deps, input)),
});
