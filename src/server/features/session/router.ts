import { manageRate } from '../customer-links/service.ts';
import { z } from 'zod';
import { DomainError } from '../../errors.ts';
import { chargeRate, clientAddress, publicProcedure, router } from '../../trpc.ts';
import { roleProcedure } from '../staff/procedures.ts';
import { finishInput, sessionAccessInput, stopRecordingInput } from '../../../shared/session.ts';
import { iceServersFor } from './ice.ts';
import { resolveParticipant } from './room-service.ts';
import { getSessionView } from './view-service.ts';
import { finishSession, startSession } from './lifecycle-service.ts';
import { stopRecording } from './recording-service.ts';

/** Thin: parse, resolve the participant, call the service (docs/decisions/030-session-room.md). */

/** Customer (manage token) or assigned notary (staff cookie); the token path shares the manage link's rate limit. */
const participantProcedure = publicProcedure.input(sessionAccessInput).use(async ({ ctx, input, next }) => {
  if ('token' in input) await chargeRate(ctx, manageRate, clientAddress(ctx));
  const resolved = await resolveParticipant(ctx.deps, input, ctx.req.headers.cookie, { requireOpen: false });
  return next({ ctx: resolved });
});

const notary = roleProcedure('notary');
const bookingIdInput = z.object({ bookingId: z.uuid() });

export const sessionRouter = router({
  /** The room's view for this viewer (also when not open: the page says why). */
  get: participantProcedure.query(({ ctx, input }) => getSessionView(ctx.deps, ctx.participant, ctx.booking, input)),
  /** ICE servers with this participant's short-lived TURN credentials (also sent on joining). */
  iceServers: participantProcedure.query(({ ctx }) => {
    if (!ctx.booking || ctx.booking.status !== 'confirmed') throw new DomainError('CONFLICT', 'This video session has ended.');
    return iceServersFor(ctx.deps.config, `${ctx.participant.role}-${ctx.participant.bookingId.slice(0, 8)}`, ctx.deps.now());
  }),
  /** The notary starts the recorded act (preconditions in service.startChecks). */
  start: notary.input(bookingIdInput).mutation(async ({ ctx, input }) => {
    const { participant } = await resolveParticipant(ctx.deps, input, ctx.req.headers.cookie);
    return startSession(ctx.deps, participant);
  }),
  stopRecording: notary.input(stopRecordingInput).mutation(({ ctx, input }) => stopRecording(ctx.deps, ctx.staff, input)),
  /** Ends the session with an outcome (preconditions in service.finishChecks). */
  finish: roleProcedure('notary', 'admin', 'staff')
    .input(z.intersection(bookingIdInput, finishInput))
    .mutation(async ({ ctx, input }) => {
      await finishSession(ctx.deps, { staffId: ctx.staff.user.id, role: ctx.staff.user.role }, input);
      return { ok: true as const };
    }),
});
