import { manageBookingInput, rescheduleInput } from '../../../shared/manage-booking.ts';
import { rateLimitedProcedure, router } from '../../trpc.ts';
import { cancelByCustomer, getManageView, rescheduleByCustomer } from './service.ts';

/** Per visitor address: plenty for the customer's own page, and a brake on anyone guessing tokens. */
export { manageRate } from './service.ts';
import { manageRate } from './service.ts';

/** The private booking page. The manage token is the only credential. */
const manageProcedure = rateLimitedProcedure(manageRate);

export const manageBookingRouter = router({
  get: manageProcedure.input(manageBookingInput).query(({ ctx, input }) => getManageView(ctx.deps, ctx.deps.db, input.token)),
  reschedule: manageProcedure.input(rescheduleInput).mutation(({ ctx, input }) => rescheduleByCustomer(ctx.deps, input)),
  cancel: manageProcedure.input(manageBookingInput).mutation(({ ctx, input }) => cancelByCustomer(ctx.deps, input)),
});
