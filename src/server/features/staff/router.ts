import { clientAddress, publicProcedure, router, type Context } from '../../trpc.ts';
import {
  acceptInviteInput,
  changePasswordInput,
  inviteIdInput,
  inviteInput,
  inviteTokenInput,
  loginInput,
  setRoleInput,
  totpCodeInput,
  updateProfileInput,
  userIdInput,
} from '../../../shared/staff.ts';
import {
  adminProcedure,
  inviteProcedure,
  roleProcedure,
  sessionCodeProcedure,
  sessionProcedure,
  staffCodeProcedure,
  staffProcedure,
} from './procedures.ts';
import * as staff from './service.ts';
import { sessionSetCookie } from './session.ts';
import { sendInviteEmail } from '../notifications/events.ts';

const signInClient = (ctx: Context): staff.SignInClient => ({
  ip: clientAddress(ctx),
  userAgent: ctx.req.get('user-agent') ?? null,
  cookieHeader: ctx.req.headers.cookie,
});

/** Hands a new session to the browser; the answer is what the console reads (never the token). */
function signedIn(ctx: Context, { session, ...answer }: staff.SignedIn) {
  ctx.res.append('Set-Cookie', sessionSetCookie(ctx.deps, session));
  return answer;
}

/**
 * Accounts and sign-in. Public: me, login, invitation look-up and accept.
 * Everything else needs a session; account administration needs an admin.
 */
export const staffRouter = router({
  /** Who is signed in (null when nobody): the console decides where to go from this. */
  me: publicProcedure.query(({ ctx }) => staff.currentAuth(ctx.deps, ctx.req.headers.cookie)),
  login: publicProcedure.input(loginInput).mutation(async ({ ctx, input }) => signedIn(ctx, await staff.login(ctx.deps, signInClient(ctx), input))),
  logout: sessionProcedure.mutation(async ({ ctx }) => {
    await staff.logout(ctx.deps, ctx.auth);
    ctx.res.append('Set-Cookie', sessionSetCookie(ctx.deps, null));
    return { ok: true as const };
  }),
  invitation: inviteProcedure.input(inviteTokenInput).query(({ ctx, input }) => staff.describeInvite(ctx.deps, input.token)),
  acceptInvite: inviteProcedure
    .input(acceptInviteInput)
    .mutation(async ({ ctx, input }) => signedIn(ctx, await staff.acceptInvite(ctx.deps, signInClient(ctx), input))),

  totp: router({
    verify: sessionCodeProcedure.input(totpCodeInput).mutation(async ({ ctx, input }) => {
      await staff.verifySecondFactor(ctx.deps, ctx.auth, input.code);
      return { ok: true as const };
    }),
    begin: sessionProcedure.mutation(({ ctx }) => staff.beginTotpEnrolment(ctx.deps, ctx.auth)),
    confirm: sessionCodeProcedure.input(totpCodeInput).mutation(async ({ ctx, input }) => {
      await staff.confirmTotpEnrolment(ctx.deps, ctx.auth, input.code);
      return { ok: true as const };
    }),
    disable: staffCodeProcedure.input(totpCodeInput).mutation(async ({ ctx, input }) => {
      await staff.disableTotp(ctx.deps, ctx.auth, input.code);
      return { ok: true as const };
    }),
  }),

  account: router({
    updateProfile: staffProcedure.input(updateProfileInput).mutation(async ({ ctx, input }) => {
      await staff.updateProfile(ctx.deps, ctx.auth, input);
      return { ok: true as const };
    }),
    changePassword: staffProcedure.input(changePasswordInput).mutation(async ({ ctx, input }) => {
      await staff.changePassword(ctx.deps, ctx.auth, input);
      return { ok: true as const };
    }),
  }),

  notaries: roleProcedure('admin', 'staff').query(({ ctx }) => staff.listNotaries(ctx.deps)),

  users: router({
    list: adminProcedure.query(({ ctx }) => staff.listStaff(ctx.deps)),
    invite: adminProcedure
      .input(inviteInput)
      .mutation(({ ctx, input }) => staff.createInvite(ctx.deps, ctx.auth, input, sendInviteEmail)),
    revokeInvite: adminProcedure.input(inviteIdInput).mutation(async ({ ctx, input }) => {
      await staff.revokeInvite(ctx.deps, ctx.auth, input.inviteId);
      return { ok: true as const };
    }),
    deactivate: adminProcedure.input(userIdInput).mutation(async ({ ctx, input }) => {
      await staff.setActive(ctx.deps, ctx.auth, input.userId, false);
      return { ok: true as const };
    }),
    reactivate: adminProcedure.input(userIdInput).mutation(async ({ ctx, input }) => {
      await staff.setActive(ctx.deps, ctx.auth, input.userId, true);
      return { ok: true as const };
    }),
    setRole: adminProcedure.input(setRoleInput).mutation(async ({ ctx, input }) => {
      await staff.setRole(ctx.deps, ctx.auth, input.userId, input.role);
      return { ok: true as const };
    }),
  }),
});
