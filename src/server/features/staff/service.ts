import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import { auditLog, staffInvites, staffSessions, staffUsers, type StaffRole } from '../../db/schema.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import { DomainError } from '../../errors.ts';
import { businessTimeZone, isValidTimeZone } from '../../../shared/time.ts';
import { invalidCodeMessage, inviteInvalidMessage, loginFailedMessage } from '../../../shared/staff.ts';
import { assertLoginAllowed, recordLoginFailure, recordLoginSuccess } from './login-throttle.ts';
import { hashPassword, passwordProblem, verifyPassword } from './password.ts';
import {
  createSession,
  deleteSession,
  deleteUserSessions,
  markSessionTwoFactorVerified,
  staffAuthFromCookieHeader,
  type StaffAuth,
} from './session.ts';
import { hashToken } from '../../tokens.ts';
import { generateToken } from './tokens.ts';
import { generateTotpKey, totpUri, verifyTotp } from './totp.ts';
import { totpQrSvg } from './totp-qr.ts';

export const inviteLifetimeMs = 7 * 24 * 60 * 60 * 1000;

export async function audit(
  db: DbOrTx,
  entry: { actorId: string | null; action: string; entityType: string; entityId: string; data?: Record<string, unknown> },
): Promise<void> {
  await db.insert(auditLog).values({ actorType: 'staff', ...entry, data: entry.data ?? null });
}

function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

async function findUserByEmail(db: DbOrTx, email: string) {
  const [user] = await db
    .select()
    .from(staffUsers)
    .where(sql`lower(${staffUsers.email}) = ${normaliseEmail(email)}`);
  return user;
}

/** Creates an account (command line, invites, tests). Refuses weak passwords and taken emails. */
export async function createStaffAccount(
  deps: Deps,
  input: { email: string; role: StaffRole; name?: string; password: string; timeZone?: string },
): Promise<{ id: string }> {
  const problem = passwordProblem(input.password);
  if (problem) throw new DomainError('BAD_REQUEST', problem);
  if (await findUserByEmail(deps.db, input.email)) {
    throw new DomainError('CONFLICT', 'A staff account with this email already exists.');
  }
  const [user] = await deps.db
    .insert(staffUsers)
    .values({
      email: normaliseEmail(input.email),
      role: input.role,
      name: input.name?.trim() ?? '',
      passwordHash: await hashPassword(input.password),
      timeZone: input.timeZone ?? businessTimeZone,
    })
    .returning({ id: staffUsers.id });
  return user!;
}

/** Who is signing in, as the transport saw them: address, browser, the Cookie header they sent. */
export interface SignInClient {
  ip: string;
  userAgent: string | null;
  cookieHeader: string | undefined;
}

/** A new session: the caller hands `session` to the browser (staff/session.ts `sessionSetCookie`). */
export interface SignedIn {
  twoFactor: StaffAuth['twoFactor'];
  role: StaffRole;
  session: { token: string; absoluteExpiresAt: Date };
}

export function describeAuth(auth: StaffAuth | null) {
  if (!auth) return null;
  return { user: auth.identity.user, twoFactor: auth.twoFactor, totpEnabled: auth.totpEnabled };
}

export async function currentAuth(deps: Deps, cookieHeader: string | undefined) {
  return describeAuth(await staffAuthFromCookieHeader(deps, cookieHeader));
}

/**
 * Password check → new session (the old one, if any, is replaced: no
 * session fixation). The session owes its second factor when TOTP is on,
 * and an admin without TOTP must enrol before anything else.
 */
export async function login(deps: Deps, client: SignInClient, input: { email: string; password: string }): Promise<SignedIn> {
  const account = normaliseEmail(input.email);
  const ip = client.ip;
  await assertLoginAllowed(deps, account, ip);
  const user = await findUserByEmail(deps.db, account);
  const passwordOk = await verifyPassword(user?.passwordHash, input.password);
  if (!user || !passwordOk || !user.active) {
    await recordLoginFailure(deps, account, ip);
    deps.log.info({ event: 'staff.login_failed' }, 'staff login failed');
    throw new DomainError('UNAUTHORIZED', loginFailedMessage);
  }
  await recordLoginSuccess(deps, account);
  const previous = await staffAuthFromCookieHeader(deps, client.cookieHeader);
  if (previous) await deleteSession(deps.db, previous.identity.sessionId);
  const session = await createSession(deps, user.id, { twoFactorVerified: false, ip, userAgent: client.userAgent });
  await deps.db.update(staffUsers).set({ lastSeenAt: deps.now() }).where(eq(staffUsers.id, user.id));
  const twoFactor: StaffAuth['twoFactor'] = user.totpEnabled ? 'verify' : user.role === 'admin' ? 'enrol' : 'ok';
  return { twoFactor, role: user.role, session };
}

/** Ends the session; the caller clears the browser's cookie. */
export async function logout(deps: Deps, auth: StaffAuth): Promise<void> {
  await deleteSession(deps.db, auth.identity.sessionId);
}

/**
 * A code is accepted once: its time step must be later than the last one this
 * user used. The check and the write are one conditional UPDATE, so two
 * requests racing with the same code cannot both pass (on any number of nodes).
 */
async function acceptTotpCode(deps: Deps, userId: string, storedKey: string, code: string): Promise<boolean> {
  const secret = await openTotpKey(deps, userId, storedKey);
  if (secret === null) return false;
  const step = verifyTotp(secret, code, deps.now());
  if (step === null) return false;
  const claimed = await deps.db
    .update(staffUsers)
    .set({ totpLastStep: step })
    .where(and(eq(staffUsers.id, userId), sql`(${staffUsers.totpLastStep} is null or ${staffUsers.totpLastStep} < ${step})`))
    .returning({ id: staffUsers.id });
  return claimed.length === 1;
}

/**
 * TOTP keys are sealed at rest with the data-encryption key (decision 023),
 * bound to their user. A key stored before that (plaintext base32), or sealed
 * with the previous key during a rotation, is sealed again with the current
 * key the first time it is used.
 */
export function sealTotpKey(deps: Pick<Deps, 'secrets'>, userId: string, secret: string): string {
  return deps.secrets.seal(secret, `totp:${userId}`);
}

async function openTotpKey(deps: Deps, userId: string, stored: string): Promise<string | null> {
  const sealed = deps.secrets.isSealed(stored);
  let secret: string;
  try {
    secret = sealed ? deps.secrets.openText(stored, `totp:${userId}`) : stored;
  } catch (error) {
    // Another user's key copied into this row, or a key sealed under a key we no longer have:
    // no code can match. Staff must know (an admin resets the user's two-factor).
    deps.log.error({ userId, err: error instanceof Error ? error.message : String(error) }, 'TOTP key does not open');
    return null;
  }
  if (!sealed || deps.secrets.needsReseal(stored)) {
    await deps.db.update(staffUsers).set({ totpKey: sealTotpKey(deps, userId, secret) }).where(and(eq(staffUsers.id, userId), eq(staffUsers.totpKey, stored)));
  }
  return secret;
}

/** Second step of a login with TOTP on. */
export async function verifySecondFactor(deps: Deps, auth: StaffAuth, code: string): Promise<void> {
  if (auth.twoFactor !== 'verify') throw new DomainError('BAD_REQUEST', 'No code is needed for this session.');
  const [user] = await deps.db.select({ totpKey: staffUsers.totpKey }).from(staffUsers).where(eq(staffUsers.id, auth.identity.user.id));
  if (!user?.totpKey || !(await acceptTotpCode(deps, auth.identity.user.id, user.totpKey, code))) {
    throw new DomainError('BAD_REQUEST', invalidCodeMessage, { field: 'code' });
  }
  await markSessionTwoFactorVerified(deps.db, auth.identity.sessionId);
}

/**
 * Enrolment, step 1: a fresh secret, kept but not active until a code from
 * it is confirmed. Refused to a session that still owes a code, so a stolen
 * password cannot replace the owner's authenticator.
 */
export async function beginTotpEnrolment(deps: Deps, auth: StaffAuth) {
  if (auth.totpEnabled) throw new DomainError('CONFLICT', 'Two-factor authentication is already on.');
  if (auth.twoFactor === 'verify') throw new DomainError('FORBIDDEN', 'Two-factor authentication is required.');
  const { secret } = generateTotpKey();
  await deps.db
    .update(staffUsers)
    .set({ totpKey: sealTotpKey(deps, auth.identity.user.id, secret), totpLastStep: null })
    .where(eq(staffUsers.id, auth.identity.user.id));
  const uri = totpUri(secret, auth.identity.user.email);
  return { secret, uri, qrSvg: await totpQrSvg(uri) };
}

/** Enrolment, step 2: a correct code turns TOTP on and completes this session's sign-in. */
export async function confirmTotpEnrolment(deps: Deps, auth: StaffAuth, code: string): Promise<void> {
  if (auth.totpEnabled) throw new DomainError('CONFLICT', 'Two-factor authentication is already on.');
  if (auth.twoFactor === 'verify') throw new DomainError('FORBIDDEN', 'Two-factor authentication is required.');
  const userId = auth.identity.user.id;
  const [user] = await deps.db.select({ totpKey: staffUsers.totpKey }).from(staffUsers).where(eq(staffUsers.id, userId));
  if (!user?.totpKey) throw new DomainError('BAD_REQUEST', 'Start the set-up again.');
  if (!(await acceptTotpCode(deps, userId, user.totpKey, code))) throw new DomainError('BAD_REQUEST', invalidCodeMessage, { field: 'code' });
  await deps.db.transaction(async (tx) => {
    await tx.update(staffUsers).set({ totpEnabled: true }).where(eq(staffUsers.id, userId));
    await tx.update(staffSessions).set({ twoFactorVerified: true }).where(eq(staffSessions.id, auth.identity.sessionId));
    // Other sessions signed in without the second factor: they must sign in again.
    await tx
      .delete(staffSessions)
      .where(and(eq(staffSessions.userId, userId), sql`${staffSessions.id} <> ${auth.identity.sessionId}`));
    await audit(tx, { actorId: userId, action: 'staff.totp_enabled', entityType: 'staff_user', entityId: userId });
  });
}

/** Non-admins may turn TOTP off again, proving it with a current code. */
export async function disableTotp(deps: Deps, auth: StaffAuth, code: string): Promise<void> {
  if (auth.identity.user.role === 'admin') {
    throw new DomainError('FORBIDDEN', 'Two-factor authentication is required for admins.');
  }
  const userId = auth.identity.user.id;
  const [user] = await deps.db.select({ totpKey: staffUsers.totpKey, totpEnabled: staffUsers.totpEnabled }).from(staffUsers).where(eq(staffUsers.id, userId));
  if (!user?.totpEnabled || !user.totpKey) throw new DomainError('BAD_REQUEST', 'Two-factor authentication is not on.');
  if (!(await acceptTotpCode(deps, userId, user.totpKey, code))) throw new DomainError('BAD_REQUEST', invalidCodeMessage, { field: 'code' });
  await deps.db.update(staffUsers).set({ totpEnabled: false, totpKey: null, totpLastStep: null }).where(eq(staffUsers.id, userId));
  await audit(deps.db, { actorId: userId, action: 'staff.totp_disabled', entityType: 'staff_user', entityId: userId });
}

export async function updateProfile(deps: Deps, auth: StaffAuth, input: { name: string; timeZone: string }) {
  if (!isValidTimeZone(input.timeZone)) throw new DomainError('BAD_REQUEST', 'Unknown time zone');
  await deps.db.update(staffUsers).set({ name: input.name, timeZone: input.timeZone }).where(eq(staffUsers.id, auth.identity.user.id));
}

/** A new password ends every other session of the account. */
export async function changePassword(deps: Deps, auth: StaffAuth, input: { currentPassword: string; newPassword: string }) {
  const userId = auth.identity.user.id;
  const [user] = await deps.db.select({ passwordHash: staffUsers.passwordHash }).from(staffUsers).where(eq(staffUsers.id, userId));
  if (!(await verifyPassword(user?.passwordHash, input.currentPassword))) {
    throw new DomainError('BAD_REQUEST', 'The current password is not correct.');
  }
  const problem = passwordProblem(input.newPassword);
  if (problem) throw new DomainError('BAD_REQUEST', problem);
  await deps.db.update(staffUsers).set({ passwordHash: await hashPassword(input.newPassword) }).where(eq(staffUsers.id, userId));
  await deleteUserSessions(deps.db, userId, auth.identity.sessionId);
  await audit(deps.db, { actorId: userId, action: 'staff.password_changed', entityType: 'staff_user', entityId: userId });
}

// ---- Admin: accounts and invitations ----

export async function listStaff(deps: Deps) {
  const now = deps.now();
  const users = await deps.db
    .select({
      id: staffUsers.id,
      email: staffUsers.email,
      name: staffUsers.name,
      role: staffUsers.role,
      active: staffUsers.active,
      totpEnabled: staffUsers.totpEnabled,
      lastSeenAt: staffUsers.lastSeenAt,
      createdAt: staffUsers.createdAt,
    })
    .from(staffUsers)
    .orderBy(asc(staffUsers.email));
  const invites = await deps.db
    .select({ id: staffInvites.id, email: staffInvites.email, role: staffInvites.role, expiresAt: staffInvites.expiresAt, createdAt: staffInvites.createdAt })
    .from(staffInvites)
    .where(and(isNull(staffInvites.acceptedAt), gt(staffInvites.expiresAt, now)))
    .orderBy(asc(staffInvites.createdAt));
  return { users, invites };
}

/** Active notaries, for the assign control. */
export async function listNotaries(deps: Deps) {
  return deps.db
    .select({ id: staffUsers.id, name: staffUsers.name, email: staffUsers.email, timeZone: staffUsers.timeZone })
    .from(staffUsers)
    .where(and(eq(staffUsers.role, 'notary'), eq(staffUsers.active, true)))
    .orderBy(asc(staffUsers.name), asc(staffUsers.email));
}

export type InviteMailer = (deps: Deps, invite: { email: string; role: StaffRole; url: string; expiresAt: Date }) => Promise<void>;

/**
 * A one-time link valid 7 days; only the token's SHA-256 is stored, so the
 * link is shown once (to the inviting admin) and sent by email.
 */
export async function createInvite(
  deps: Deps,
  actor: StaffAuth,
  input: { email: string; role: StaffRole },
  sendInvite?: InviteMailer,
) {
  const existing = await findUserByEmail(deps.db, input.email);
  if (existing) throw new DomainError('CONFLICT', 'A staff account with this email already exists.');
  const token = generateToken();
  const expiresAt = new Date(deps.now().getTime() + inviteLifetimeMs);
  const url = `${deps.config.publicUrl}/admin/invite/${token}`;
  const [invite] = await deps.db
    .insert(staffInvites)
    .values({ tokenHash: hashToken(token), email: normaliseEmail(input.email), role: input.role, invitedBy: actor.identity.user.id, expiresAt })
    .returning({ id: staffInvites.id });
  await audit(deps.db, {
    actorId: actor.identity.user.id,
    action: 'staff.invited',
    entityType: 'staff_invite',
    entityId: invite!.id,
    data: { email: normaliseEmail(input.email), role: input.role },
  });
  let emailed = false;
  if (sendInvite) {
    try {
      await sendInvite(deps, { email: normaliseEmail(input.email), role: input.role, url, expiresAt });
      emailed = true;
    } catch (error) {
      deps.log.warn({ err: error }, 'invitation email could not be queued');
    }
  }
  return { id: invite!.id, url, expiresAt, emailed };
}

export async function revokeInvite(deps: Deps, actor: StaffAuth, inviteId: string) {
  await deps.db.delete(staffInvites).where(and(eq(staffInvites.id, inviteId), isNull(staffInvites.acceptedAt)));
  await audit(deps.db, { actorId: actor.identity.user.id, action: 'staff.invite_revoked', entityType: 'staff_invite', entityId: inviteId });
}

async function openInvite(db: DbOrTx, token: string, now: Date) {
  const [invite] = await db
    .select()
    .from(staffInvites)
    .where(and(eq(staffInvites.tokenHash, hashToken(token)), isNull(staffInvites.acceptedAt), gt(staffInvites.expiresAt, now)));
  return invite;
}

export async function describeInvite(deps: Deps, token: string) {
  const invite = await openInvite(deps.db, token, deps.now());
  if (!invite) throw new DomainError('NOT_FOUND', inviteInvalidMessage);
  return { email: invite.email, role: invite.role };
}

/** Uses the invitation once (atomically), creates the account and signs it in. */
export async function acceptInvite(deps: Deps, client: SignInClient, input: { token: string; name: string; password: string }): Promise<SignedIn> {
  const problem = passwordProblem(input.password);
  if (problem) throw new DomainError('BAD_REQUEST', problem);
  const passwordHash = await hashPassword(input.password);
  const now = deps.now();
  const user = await deps.db.transaction(async (tx) => {
    const [invite] = await tx
      .update(staffInvites)
      .set({ acceptedAt: now })
      .where(and(eq(staffInvites.tokenHash, hashToken(input.token)), isNull(staffInvites.acceptedAt), gt(staffInvites.expiresAt, now)))
      .returning();
    if (!invite) throw new DomainError('NOT_FOUND', inviteInvalidMessage);
    if (await findUserByEmail(tx, invite.email)) {
      throw new DomainError('CONFLICT', 'A staff account with this email already exists.');
    }
    const [created] = await tx
      .insert(staffUsers)
      .values({ email: invite.email, role: invite.role, name: input.name, passwordHash })
      .returning({ id: staffUsers.id, role: staffUsers.role });
    await audit(tx, { actorId: created!.id, action: 'staff.invite_accepted', entityType: 'staff_user', entityId: created!.id });
    return created!;
  });
  const session = await createSession(deps, user.id, { twoFactorVerified: false, ip: client.ip, userAgent: client.userAgent });
  return { twoFactor: user.role === 'admin' ? 'enrol' : 'ok', role: user.role, session };
}

async function activeAdminCount(db: DbOrTx): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(staffUsers)
    .where(and(eq(staffUsers.role, 'admin'), eq(staffUsers.active, true)));
  return Number(row?.n ?? 0);
}

async function targetUser(db: DbOrTx, userId: string) {
  const [user] = await db.select().from(staffUsers).where(eq(staffUsers.id, userId));
  if (!user) throw new DomainError('NOT_FOUND', 'Staff account not found');
  return user;
}

/** Deactivation ends every session at once; the last active admin cannot be removed. */
export async function setActive(deps: Deps, actor: StaffAuth, userId: string, active: boolean) {
  if (userId === actor.identity.user.id) throw new DomainError('BAD_REQUEST', 'You cannot deactivate your own account.');
  await deps.db.transaction(async (tx) => {
    const user = await targetUser(tx, userId);
    if (!active && user.role === 'admin' && user.active && (await activeAdminCount(tx)) <= 1) {
      throw new DomainError('BAD_REQUEST', 'At least one active admin is required.');
    }
    await tx.update(staffUsers).set({ active }).where(eq(staffUsers.id, userId));
    if (!active) await tx.delete(staffSessions).where(eq(staffSessions.userId, userId));
    await audit(tx, { actorId: actor.identity.user.id, action: active ? 'staff.reactivated' : 'staff.deactivated', entityType: 'staff_user', entityId: userId });
  });
}

export async function setRole(deps: Deps, actor: StaffAuth, userId: string, role: StaffRole) {
  await deps.db.transaction(async (tx) => {
    const user = await targetUser(tx, userId);
    if (user.role === 'admin' && role !== 'admin' && user.active && (await activeAdminCount(tx)) <= 1) {
      throw new DomainError('BAD_REQUEST', 'At least one active admin is required.');
    }
    await tx.update(staffUsers).set({ role }).where(eq(staffUsers.id, userId));
    await audit(tx, { actorId: actor.identity.user.id, action: 'staff.role_changed', entityType: 'staff_user', entityId: userId, data: { from: user.role, to: role } });
  });
}
