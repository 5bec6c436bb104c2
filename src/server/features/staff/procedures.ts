import type { StaffRole } from '../../../shared/staff-roles.ts';
import type { RateRule } from '../../rate-limit.ts';
import { DomainError } from '../../errors.ts';
import { publicProcedure, rateLimited, rateLimitedProcedure, type Context } from '../../trpc.ts';
import { staffAuthFromCookieHeader, type StaffAuth } from './session.ts';

/**
 * The only ways a staff procedure is built. Each check runs before input is
 * parsed, so an anonymous or wrong-role caller learns nothing from validation.
 */

/** A valid session, possibly still owing its second factor (sign-out, TOTP enrolment and check). */
export const sessionProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const auth = await staffAuthFromCookieHeader(ctx.deps, ctx.req.headers.cookie);
  if (!auth) throw new DomainError('UNAUTHORIZED', 'Please sign in.');
  return next({ ctx: { auth } });
});

/** Fully signed in (second factor done where required), any role. */
export const staffProcedure = sessionProcedure.use(({ ctx, next }) => {
  if (ctx.auth.twoFactor !== 'ok') {
    throw new DomainError('UNAUTHORIZED', 'Two-factor authentication is required.');
  }
  return next({ ctx: { staff: ctx.auth.identity } });
});

/** Fully signed in with one of `roles`; anyone else is FORBIDDEN. */
export function roleProcedure(...roles: StaffRole[]) {
  return staffProcedure.use(({ ctx, next }) => {
    if (!roles.includes(ctx.staff.user.role)) {
      throw new DomainError('FORBIDDEN', 'You do not have access to this.');
    }
    return next();
  });
}

export const adminProcedure = roleProcedure('admin');

/** Second-factor codes per account: a 6-digit code cannot be guessed in 10 tries. */
export const totpAttempts: RateRule = { name: 'totp', limit: 10, windowSeconds: 15 * 60, scope: 'shared' };
/** Invitation look-ups and acceptance per address: a brake on guessing invitation tokens. */
export const inviteAttempts: RateRule = { name: 'invite-accept', limit: 20, windowSeconds: 15 * 60, scope: 'shared' };

const perAccount = (ctx: Context & { auth: StaffAuth }) => ctx.auth.identity.user.id;
/** A session (second factor possibly owed) entering a TOTP code. */
export const sessionCodeProcedure = sessionProcedure.use(rateLimited(totpAttempts, perAccount));
/** A fully signed-in member entering a TOTP code. */
export const staffCodeProcedure = staffProcedure.use(rateLimited(totpAttempts, perAccount));
/** Anyone holding an invitation link. */
export const inviteProcedure = rateLimitedProcedure(inviteAttempts);
