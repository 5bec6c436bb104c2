import { bookingRefInput, holdInput, saveContactInput, slotsListInput, startBookingInput } from '../../../shared/booking.ts';
import { publicProcedure, router } from '../../trpc.ts';
import { holdSlot, requireBookingView, saveContact, startBooking } from './service.ts';
import { listSlots } from './slots.ts';

/** The visitor's booking steps. A booking id (a random UUID) is the visitor's handle on their draft. */
export const bookingRouter = router({
  start: publicProcedure.input(startBookingInput).mutation(({ ctx, input }) => startBooking(ctx.deps, input)),
  get: publicProcedure.input(bookingRefInput).query(({ ctx, input }) => requireBookingView(ctx.deps.db, input.bookingId)),
  hold: publicProcedure.input(holdInput).mutation(({ ctx, input }) => holdSlot(ctx.deps, input)),
  saveContact: publicProcedure.input(saveContactInput).mutation(({ ctx, input }) => saveContact(ctx.deps, input)),
});

export const slotsRouter = router({
  list: publicProcedure.input(slotsListInput).query(({ ctx, input }) => listSlots(ctx.deps, ctx.deps.db, input)),
});
