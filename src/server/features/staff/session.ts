import { parseCookie, stringifySetCookie } from 'cookie';
import type { StaffRole } from '../../../shared/staff-roles.ts';
import type { Db } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import { hashToken } from '../../tokens.ts';
import { generateToken } from './tokens.ts';
import * as repo from './repository.ts';

/**
 * Staff sessions after Lucia's design (docs/decisions/010-staff-sessions.md):
 * a random 160-bit token lives only in the browser's cookie; the database
 * keeps its SHA-256 as the session id. Sliding expiry (12 h of inactivity,
 * pushed forward once half used) under an absolute limit (7 days).
 */
export interface StaffIdentity {
  user: { id: string; email: string; name: string; role: StaffRole; timeZone: string };
  sessionId: string;
}

/** A session whose owner may still owe a second factor. */
export interface StaffAuth {
  identity: StaffIdentity;
  /** ok: fully signed in; verify: must enter a TOTP code; enrol: an admin must set up TOTP first. */
  twoFactor: 'ok' | 'verify' | 'enrol';
  totpEnabled: boolean;
  expiresAt: Date;
}

export const staffSessionCookie = 'staff_session';

/**
 * The cookie's name for this site. Served over HTTPS it carries the `__Host-`
 * prefix: browsers then accept it only with Secure, Path=/ and no Domain, so
 * neither a sibling subdomain nor a plain-http page can plant or overwrite it.
 * A plain-http install (local, tests) cannot use the prefix.
 */
export function staffSessionCookieName(config: Pick<Deps['config'], 'publicUrl' | 'SESSION_COOKIE_SECURE'>): string {
  return config.publicUrl.startsWith('https:') && config.SESSION_COOKIE_SECURE ? `__Host-${staffSessionCookie}` : staffSessionCookie;
}
export const sessionIdleMs = 12 * 60 * 60 * 1000;
export const sessionAbsoluteMs = 7 * 24 * 60 * 60 * 1000;

export async function createSession(
  deps: Deps,
  userId: string,
  options: { twoFactorVerified: boolean; ip?: string | null; userAgent?: string | null },
): Promise<{ token: string; expiresAt: Date; absoluteExpiresAt: Date }> {
  const token = generateToken();
  const now = deps.now();
  const expiresAt = new Date(now.getTime() + sessionIdleMs);
  const absoluteExpiresAt = new Date(now.getTime() + sessionAbsoluteMs);
  await repo.insertSession(deps.db, {
    id: hashToken(token),
    userId,
    expiresAt,
    absoluteExpiresAt,
    twoFactorVerified: options.twoFactorVerified,
    ip: options.ip ?? null,
    userAgent: options.userAgent?.slice(0, 300) ?? null,
  });
  // Opportunistic clean-up keeps the table small without a scheduler.
  await repo.deleteExpiredSessions(deps.db, now);
  return { token, expiresAt, absoluteExpiresAt };
}

/** The session behind a token, extended when half its idle time is used; null when invalid. */
export async function validateSessionToken(deps: Deps, token: string): Promise<StaffAuth | null> {
  if (!/^[a-z2-7]{32}$/.test(token)) return null;
  const sessionId = hashToken(token);
  const row = await repo.findSessionWithUser(deps.db, sessionId);
  if (!row) return null;
  const now = deps.now().getTime();
  if (!row.active || now >= row.expiresAt.getTime() || now >= row.absoluteExpiresAt.getTime()) {
    await deleteSession(deps.db, sessionId);
    return null;
  }
  let expiresAt = row.expiresAt;
  if (row.expiresAt.getTime() - now < sessionIdleMs / 2) {
    expiresAt = new Date(Math.min(now + sessionIdleMs, row.absoluteExpiresAt.getTime()));
    await repo.updateSession(deps.db, sessionId, { expiresAt });
  }
  const twoFactor: StaffAuth['twoFactor'] = row.twoFactorVerified
    ? 'ok'
    : row.totpEnabled
      ? 'verify'
      : row.role === 'admin'
        ? 'enrol'
        : 'ok';
  return {
    identity: {
      user: { id: row.userId, email: row.email, name: row.name, role: row.role, timeZone: row.timeZone },
      sessionId,
    },
    twoFactor,
    totpEnabled: row.totpEnabled,
    expiresAt,
  };
}

export async function staffAuthFromCookieHeader(deps: Deps, cookieHeader: string | undefined): Promise<StaffAuth | null> {
  if (!cookieHeader) return null;
  const token = parseCookie(cookieHeader)[staffSessionCookieName(deps.config)];
  return token ? validateSessionToken(deps, token) : null;
}

/**
 * Who is calling, from the request's Cookie header (HTTP, tRPC and the staff
 * Socket.IO namespace all use this). Null for anonymous, expired, revoked,
 * deactivated — and for a session still owing its second factor.
 */
export async function staffFromCookieHeader(deps: Deps, cookieHeader: string | undefined): Promise<StaffIdentity | null> {
  const auth = await staffAuthFromCookieHeader(deps, cookieHeader);
  return auth?.twoFactor === 'ok' ? auth.identity : null;
}

export async function markSessionTwoFactorVerified(db: Db, sessionId: string): Promise<void> {
  await repo.updateSession(db, sessionId, { twoFactorVerified: true });
}

export async function deleteSession(db: Db, sessionId: string): Promise<void> {
  await repo.deleteSessionRow(db, sessionId);
}

/** Every session of a user (deactivation, password change); optionally keeps one. */
export async function deleteUserSessions(db: Db, userId: string, exceptSessionId?: string): Promise<void> {
  await repo.deleteSessionsOf(db, userId, exceptSessionId);
}

/**
 * The `Set-Cookie` value that starts `session` in the browser, or (null) ends
 * it. The cookie lives until the absolute limit; the server enforces the
 * sliding idle expiry, so extending a session needs no new Set-Cookie.
 */
export function sessionSetCookie(deps: Pick<Deps, 'config'>, session: { token: string; absoluteExpiresAt: Date } | null): string {
  return stringifySetCookie({
    name: staffSessionCookieName(deps.config),
    value: session?.token ?? '',
    httpOnly: true,
    secure: deps.config.SESSION_COOKIE_SECURE,
    sameSite: 'lax',
    path: '/',
    ...(session ? { expires: session.absoluteExpiresAt } : { maxAge: 0 }),
  });
}
