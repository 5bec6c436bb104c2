import type { StaffRole } from '../../../shared/staff-roles.ts';
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
import * as repo from './repository.ts';

export const inviteLifetimeMs = 7 * 24 * 60 * 60 * 1000;

export async function audit(
  db: DbOrTx,
  entry: { actorId: string | null; action: string; entityType: string; entityId: string; data?: Record<string, unknown> },
): Promise<void> {
  await repo.insertStaffAudit(db, entry);
}

function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

async function findUserByEmail(db: DbOrTx, email: string) {
  return repo.findUserByNormalisedEmail(db, normaliseEmail(email));
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
  const user = await repo.insertUser(deps.db, {
    email: normaliseEmail(input.email),
    role: input.role,
    name: input.name?.trim() ?? '',
    passwordHash: await hashPassword(input.password),
    timeZone: input.timeZone ?? businessTimeZone,
  });
  return { id: user.id };
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
  await repo.updateUser(deps.db, user.id, { lastSeenAt: deps.now() });
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
  return repo.claimTotpStep(deps.db, userId, step);
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
    await repo.resealTotpKey(deps.db, userId, stored, sealTotpKey(deps, userId, secret));
  }
  return secret;
}

/** Second step of a login with TOTP on. */
export async function verifySecondFactor(deps: Deps, auth: StaffAuth, code: string): Promise<void> {
  if (auth.twoFactor !== 'verify') throw new DomainError('BAD_REQUEST', 'No code is needed for this session.');
  const user = await repo.totpKeyOf(deps.db, auth.identity.user.id);
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
  await repo.updateUser(deps.db, auth.identity.user.id, { totpKey: sealTotpKey(deps, auth.identity.user.id, secret), totpLastStep: null });
  const uri = totpUri(secret, auth.identity.user.email);
  return { secret, uri, qrSvg: await totpQrSvg(uri) };
}

/** Enrolment, step 2: a correct code turns TOTP on and completes this session's sign-in. */
export async function confirmTotpEnrolment(deps: Deps, auth: StaffAuth, code: string): Promise<void> {
  if (auth.totpEnabled) throw new DomainError('CONFLICT', 'Two-factor authentication is already on.');
  if (auth.twoFactor === 'verify') throw new DomainError('FORBIDDEN', 'Two-factor authentication is required.');
  const userId = auth.identity.user.id;
  const user = await repo.totpKeyOf(deps.db, userId);
  if (!user?.totpKey) throw new DomainError('BAD_REQUEST', 'Start the set-up again.');
  if (!(await acceptTotpCode(deps, userId, user.totpKey, code))) throw new DomainError('BAD_REQUEST', invalidCodeMessage, { field: 'code' });
  await deps.db.transaction(async (tx) => {
    await repo.updateUser(tx, userId, { totpEnabled: true });
    await repo.updateSession(tx, auth.identity.sessionId, { twoFactorVerified: true });
    // Other sessions signed in without the second factor: they must sign in again.
    await repo.deleteSessionsOf(tx, userId, auth.identity.sessionId);
    await audit(tx, { actorId: userId, action: 'staff.totp_enabled', entityType: 'staff_user', entityId: userId });
  });
}

/** Non-admins may turn TOTP off again, proving it with a current code. */
export async function disableTotp(deps: Deps, auth: StaffAuth, code: string): Promise<void> {
  if (auth.identity.user.role === 'admin') {
    throw new DomainError('FORBIDDEN', 'Two-factor authentication is required for admins.');
  }
  const userId = auth.identity.user.id;
  const user = await repo.totpKeyOf(deps.db, userId);
  if (!user?.totpEnabled || !user.totpKey) throw new DomainError('BAD_REQUEST', 'Two-factor authentication is not on.');
  if (!(await acceptTotpCode(deps, userId, user.totpKey, code))) throw new DomainError('BAD_REQUEST', invalidCodeMessage, { field: 'code' });
  await repo.updateUser(deps.db, userId, { totpEnabled: false, totpKey: null, totpLastStep: null });
  await audit(deps.db, { actorId: userId, action: 'staff.totp_disabled', entityType: 'staff_user', entityId: userId });
}

export async function updateProfile(deps: Deps, auth: StaffAuth, input: { name: string; timeZone: string }) {
  if (!isValidTimeZone(input.timeZone)) throw new DomainError('BAD_REQUEST', 'Unknown time zone');
  await repo.updateUser(deps.db, auth.identity.user.id, { name: input.name, timeZone: input.timeZone });
}

/** A new password ends every other session of the account. */
export async function changePassword(deps: Deps, auth: StaffAuth, input: { currentPassword: string; newPassword: string }) {
  const userId = auth.identity.user.id;
  const user = await repo.passwordHashOf(deps.db, userId);
  if (!(await verifyPassword(user?.passwordHash, input.currentPassword))) {
    throw new DomainError('BAD_REQUEST', 'The current password is not correct.');
  }
  const problem = passwordProblem(input.newPassword);
  if (problem) throw new DomainError('BAD_REQUEST', problem);
  await repo.updateUser(deps.db, userId, { passwordHash: await hashPassword(input.newPassword) });
  await deleteUserSessions(deps.db, userId, auth.identity.sessionId);
  await audit(deps.db, { actorId: userId, action: 'staff.password_changed', entityType: 'staff_user', entityId: userId });
}

// ---- Admin: accounts and invitations ----

export async function listStaff(deps: Deps) {
  const now = deps.now();
  const users = await repo.listUsers(deps.db);
  const invites = await repo.listOpenInvites(deps.db, now);
  return { users, invites };
}

/** Active notaries, for the assign control. */
export async function listNotaries(deps: Deps) {
  return repo.listActiveNotaries(deps.db);
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
  const invite = await repo.insertInvite(deps.db, { tokenHash: hashToken(token), email: normaliseEmail(input.email), role: input.role, invitedBy: actor.identity.user.id, expiresAt });
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
  await repo.deleteOpenInvite(deps.db, inviteId);
  await audit(deps.db, { actorId: actor.identity.user.id, action: 'staff.invite_revoked', entityType: 'staff_invite', entityId: inviteId });
}

async function openInvite(db: DbOrTx, token: string, now: Date) {
  return repo.findOpenInvite(db, hashToken(token), now);
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
    const invite = await repo.claimInvite(tx, hashToken(input.token), now);
    if (!invite) throw new DomainError('NOT_FOUND', inviteInvalidMessage);
    if (await findUserByEmail(tx, invite.email)) {
      throw new DomainError('CONFLICT', 'A staff account with this email already exists.');
    }
    const created = await repo.insertUser(tx, { email: invite.email, role: invite.role, name: input.name, passwordHash });
    await audit(tx, { actorId: created.id, action: 'staff.invite_accepted', entityType: 'staff_user', entityId: created.id });
    return created;
  });
  const session = await createSession(deps, user.id, { twoFactorVerified: false, ip: client.ip, userAgent: client.userAgent });
  return { twoFactor: user.role === 'admin' ? 'enrol' : 'ok', role: user.role, session };
}

async function targetUser(db: DbOrTx, userId: string) {
  const user = await repo.findUserById(db, userId);
  if (!user) throw new DomainError('NOT_FOUND', 'Staff account not found');
  return user;
}

/** Deactivation ends every session at once; the last active admin cannot be removed. */
export async function setActive(deps: Deps, actor: StaffAuth, userId: string, active: boolean) {
  if (userId === actor.identity.user.id) throw new DomainError('BAD_REQUEST', 'You cannot deactivate your own account.');
  await deps.db.transaction(async (tx) => {
    const user = await targetUser(tx, userId);
    if (!active && user.role === 'admin' && user.active && (await repo.activeAdminCount(tx)) <= 1) {
      throw new DomainError('BAD_REQUEST', 'At least one active admin is required.');
    }
    await repo.updateUser(tx, userId, { active });
    if (!active) await repo.deleteSessionsOf(tx, userId);
    await audit(tx, { actorId: actor.identity.user.id, action: active ? 'staff.reactivated' : 'staff.deactivated', entityType: 'staff_user', entityId: userId });
  });
}

export async function setRole(deps: Deps, actor: StaffAuth, userId: string, role: StaffRole) {
  await deps.db.transaction(async (tx) => {
    const user = await targetUser(tx, userId);
    if (user.role === 'admin' && role !== 'admin' && user.active && (await repo.activeAdminCount(tx)) <= 1) {
      throw new DomainError('BAD_REQUEST', 'At least one active admin is required.');
    }
    await repo.updateUser(tx, userId, { role });
    await audit(tx, { actorId: actor.identity.user.id, action: 'staff.role_changed', entityType: 'staff_user', entityId: userId, data: { from: user.role, to: role } });
  });
}

/** A staff account's role; null when there is no such account. */
export async function staffRoleOf(db: DbOrTx, userId: string): Promise<StaffRole | null> {
  return (await repo.findUserById(db, userId))?.role ?? null;
}
