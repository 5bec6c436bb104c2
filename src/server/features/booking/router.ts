import { bookingRefInput, holdInput, saveContactInput, slotsListInput, startBookingInput } from '../../../shared/booking.ts';
import { enforceRate, type RateRule } from '../../http/rate-limit.ts';
import { publicProcedure, router } from '../../trpc.ts';
import { holdSlot, requireBookingView, saveContact, startBooking } from './service.ts';
import { listSlots } from './slots.ts';

/**
 * Per visitor address, shared by every node. Each start writes a draft row and
 * each hold locks a slot: generous for a person choosing a time, tight for a
 * script filling the calendar.
 */
export const bookingRates = {
  start: { name: 'booking:start', limit: 60, windowSeconds: 600 },
  hold: { name: 'booking:hold', limit: 120, windowSeconds: 600 },
  contact: { name: 'booking:contact', limit: 60, windowSeconds: 600 },
} satisfies Record<string, RateRule>;

/** The visitor's booking steps. A booking id (a random UUID) is the visitor's handle on their draft. */
export const bookingRouter = router({
  start: publicProcedure.input(startBookingInput).mutation(async ({ ctx, input }) => {
    await enforceRate(ctx.deps.db, ctx.res, bookingRates.start, ctx.req.ip ?? 'unknown');
    return startBooking(ctx.deps, input);
  }),
  get: publicProcedure.input(bookingRefInput).query(({ ctx, input }) => requireBookingView(ctx.deps.db, input.bookingId)),
  hold: publicProcedure.input(holdInput).mutation(async ({ ctx, input }) => {
    await enforceRate(ctx.deps.db, ctx.res, bookingRates.hold, ctx.req.ip ?? 'unknown');
    return holdSlot(ctx.deps, input);
  }),
  saveContact: publicProcedure.input(saveContactInput).mutation(async ({ ctx, input }) => {
    await enforceRate(ctx.deps.db, ctx.res, bookingRates.contact, ctx.req.ip ?? 'unknown');
    return saveContact(ctx.deps, input);
  }),
});

export const slotsRouter = router({
  list: publicProcedure.input(slotsListInput).query(({ ctx, input }) => listSlots(ctx.deps, ctx.deps.db, input)),
});
