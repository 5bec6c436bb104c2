import { manageBookingInput, rescheduleInput } from '../../../shared/manage-booking.ts';
import { publicProcedure, router } from '../../trpc.ts';
import { cancelByCustomer, getManageView, rescheduleByCustomer } from './service.ts';

/** The private booking page. The manage token is the only credential. */
export const manageBookingRouter = router({
  get: publicProcedure.input(manageBookingInput).query(({ ctx, input }) => getManageView(ctx.deps, ctx.deps.db, input.token)),
  reschedule: publicProcedure.input(rescheduleInput).mutation(({ ctx, input }) => rescheduleByCustomer(ctx.deps, input)),
  cancel: publicProcedure.input(manageBookingInput).mutation(({ ctx, input }) => cancelByCustomer(ctx.deps, input)),
});
