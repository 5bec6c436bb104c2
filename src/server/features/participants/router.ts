import { z } from 'zod';
import { manageRate } from '../customer-links/service.ts';
import { rateLimitedProcedure, router } from '../../trpc.ts';
import { roleProcedure } from '../staff/procedures.ts';
import { addParticipantInput, participantLinkInput, removeParticipantInput } from '../../../shared/participants.ts';
import { addParticipant, invitationView, listForBooking, listForCustomer, removeParticipant, type RefundRemovedSignerFee } from './service.ts';
import { authorise } from '../access/service.ts';
import type { Tx } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';

/** Thin: parse, call the service (access is the service's, through the access policy). */
const linkProcedure = rateLimitedProcedure(manageRate);
const notary = roleProcedure('notary');

/**
 * `refundFee` is payments' refund of a removed co-signer's fee (decision 133), given by the
 * app's router: payments depends on this feature (a co-signer's second payment), not the reverse.
 */
export function participantsRouter(refundFee: (tx: Tx, deps: Deps, person: Parameters<RefundRemovedSignerFee>[1]) => Promise<number>) {
  return router({
    /** The customer's booking page: who they invited. */
    list: linkProcedure.input(participantLinkInput).query(({ ctx, input }) => listForCustomer(ctx.deps, input.token)),
    /** The customer's "Add a signer". */
    add: linkProcedure.input(addParticipantInput).mutation(({ ctx, input }) => {
      const { token, ...details } = input;
      return addParticipant(ctx.deps, token, details);
    }),
    /** A co-signer's or witness's own page. */
    invitation: linkProcedure.input(participantLinkInput).query(({ ctx, input }) => invitationView(ctx.deps, input.token)),
    /** The notary's list in the room. */
    forBooking: notary.input(z.object({ bookingId: z.uuid() })).query(async ({ ctx, input }) => {
      await authorise(ctx.deps, { staff: ctx.staff }, 'join_room', { bookingId: input.bookingId });
      return listForBooking(ctx.deps.db, input.bookingId);
    }),
    /** The notary removes a participant and marks their part not completed. */
    remove: notary.input(removeParticipantInput).mutation(({ ctx, input }) => removeParticipant(ctx.deps, ctx.staff, input, (tx, person) => refundFee(tx, ctx.deps, person))),
  });
}
