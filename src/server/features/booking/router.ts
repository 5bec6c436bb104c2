import { bookingRefInput, holdInput, saveContactInput, slotsListInput, startBookingInput } from '../../../shared/booking.ts';
import type { RateRule } from '../../rate-limit.ts';
import { publicProcedure, rateLimitedProcedure, router } from '../../trpc.ts';
import { addBookingParticipant, holdSlot, removeBookingParticipant, requireBookingView, saveContact, startBooking } from './service.ts';
import { listSlots } from './slots.ts';
import { addToBookingInput, removeFromBookingInput } from '../../../shared/participants.ts';

/**
 * Per visitor address, shared by every node. Each start writes a draft row and
 * each hold locks a slot: generous for a person choosing a time, tight for a
 * script filling the calendar.
 */
export const bookingRates = {
  start: { name: 'booking:start', limit: 60, windowSeconds: 600 },
  hold: { name: 'booking:hold', limit: 120, windowSeconds: 600 },
  contact: { name: 'booking:contact', limit: 60, windowSeconds: 600 },
  participants: { name: 'booking:participants', limit: 60, windowSeconds: 600 },
} satisfies Record<string, RateRule>;

/** The visitor's booking steps. A booking id (a random UUID) is the visitor's handle on their draft. */
export const bookingRouter = router({
  start: rateLimitedProcedure(bookingRates.start).input(startBookingInput).mutation(({ ctx, input }) => startBooking(ctx.deps, input)),
  get: publicProcedure.input(bookingRefInput).query(({ ctx, input }) => requireBookingView(ctx.deps.db, input.bookingId)),
  hold: rateLimitedProcedure(bookingRates.hold).input(holdInput).mutation(({ ctx, input }) => holdSlot(ctx.deps, input)),
  saveContact: rateLimitedProcedure(bookingRates.contact).input(saveContactInput).mutation(({ ctx, input }) => saveContact(ctx.deps, input)),
  /** Co-signers and witnesses added before paying (decision 125): the answer is the booking with its new price. */
  addParticipant: rateLimitedProcedure(bookingRates.participants).input(addToBookingInput).mutation(({ ctx, input }) => {
    const { bookingId, ...details } = input;
    return addBookingParticipant(ctx.deps, bookingId, details);
  }),
  removeParticipant: rateLimitedProcedure(bookingRates.participants)
    .input(removeFromBookingInput)
    .mutation(({ ctx, input }) => removeBookingParticipant(ctx.deps, input.bookingId, input.participantId)),
});

export const slotsRouter = router({
  list: publicProcedure.input(slotsListInput).query(({ ctx, input }) => listSlots(ctx.deps, ctx.deps.db, input)),
});
