import { chooseOnDemandInput, lobbyInput } from '../../../shared/on-demand.ts';
import type { RateRule } from '../../rate-limit.ts';
import { publicProcedure, rateLimitedProcedure, router } from '../../trpc.ts';
import { chooseOnDemand } from '../booking/service.ts';
import * as onDemand from './service.ts';

/**
 * Per visitor address. The lobby polls every 5 seconds (its heartbeat), so it
 * has a budget of its own, well above that; choosing Notarize now writes the draft.
 */
export const onDemandRates = {
  choose: { name: 'on-demand:choose', limit: 60, windowSeconds: 600 },
  lobby: { name: 'on-demand:lobby', limit: 400, windowSeconds: 600 },
  refund: { name: 'on-demand:refund', limit: 20, windowSeconds: 600 },
} satisfies Record<string, RateRule>;

/** The public side: live availability, choosing Notarize now, and the lobby (manage-link token). */
export const onDemandRouter = router({
  availability: publicProcedure.query(({ ctx }) => onDemand.availability(ctx.deps)),
  choose: rateLimitedProcedure(onDemandRates.choose).input(chooseOnDemandInput).mutation(({ ctx, input }) => chooseOnDemand(ctx.deps, input)),
  lobbyLink: rateLimitedProcedure(onDemandRates.choose).input(chooseOnDemandInput).mutation(({ ctx, input }) => onDemand.lobbyLink(ctx.deps, input.bookingId)),
  lobby: rateLimitedProcedure(onDemandRates.lobby).input(lobbyInput).mutation(({ ctx, input }) => onDemand.lobby(ctx.deps, input.token)),
  refund: rateLimitedProcedure(onDemandRates.refund).input(lobbyInput).mutation(({ ctx, input }) => onDemand.refundTimedOut(ctx.deps, input.token)),
});
