import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { generateTOTP } from '@oslojs/otp';
import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { staffUsers, type StaffRole } from '../../src/server/db/schema.ts';
import type { Deps } from '../../src/server/deps.ts';
import { createStaffAccount, sealTotpKey } from '../../src/server/features/staff/service.ts';
import { createSession, staffSessionCookieName } from '../../src/server/features/staff/session.ts';
import { generateTotpKey } from '../../src/server/features/staff/totp.ts';

export interface TestStaffUser {
  id: string;
  email: string;
  password: string;
  role: StaffRole;
  /** Base32 TOTP secret when `totp` was asked for (always for admins). */
  totpSecret: string | null;
  /** A current 6-digit code (null without TOTP). */
  totpCode(): string | null;
  /** A fresh, fully signed-in session (second factor done), as a Cookie header value. */
  sessionCookie(): Promise<string>;
}

/**
 * A staff account straight in the database (as `npm run staff:create` would
 * make it). Admins get TOTP unless `totp: false`, since the console requires it.
 */
export async function createStaffUser(
  deps: Deps,
  options: { role: StaffRole; password?: string; totp?: boolean; email?: string; name?: string; timeZone?: string },
): Promise<TestStaffUser> {
  const email = options.email ?? `${options.role}-${randomUUID().slice(0, 8)}@staff.test`;
  const password = options.password ?? 'correct horse battery staple';
  const { id } = await createStaffAccount(deps, {
    email,
    role: options.role,
    name: options.name ?? `Test ${options.role}`,
    password,
    timeZone: options.timeZone,
  });
  let totpSecret: string | null = null;
  if (options.totp ?? options.role === 'admin') {
    totpSecret = generateTotpKey().secret;
    await deps.db.update(staffUsers).set({ totpKey: sealTotpKey(deps, id, totpSecret), totpEnabled: true }).where(eq(staffUsers.id, id));
  }
  return {
    id,
    email,
    password,
    role: options.role,
    totpSecret,
    totpCode: () => (totpSecret ? generateTOTP(decodeBase32IgnorePadding(totpSecret), 30, 6) : null),
    async sessionCookie() {
      const session = await createSession(deps, id, { twoFactorVerified: true });
      return `${staffSessionCookieName(deps.config)}=${session.token}`;
    },
  };
}

export interface TrpcResult {
  status: number;
  /** superjson's `json` part of the result or error. */
  body: { result?: { data: { json: unknown } }; error?: { json: { message: string; data: { code: string; httpStatus: number } } } };
  headers: Headers;
  /** Set-Cookie lines of the response. */
  cookies: string[];
}

/** One tRPC call over HTTP, as the browser makes it (single, unbatched). */
export async function trpcHttp(
  baseUrl: string,
  path: string,
  options: { type?: 'query' | 'mutation'; input?: unknown; cookie?: string; headers?: Record<string, string> } = {},
): Promise<TrpcResult> {
  const type = options.type ?? 'mutation';
  const payload = options.input === undefined ? {} : { json: options.input };
  const headers: Record<string, string> = { ...(options.cookie ? { cookie: options.cookie } : {}), ...options.headers };
  const res =
    type === 'query'
      ? await fetch(`${baseUrl}/trpc/${path}?input=${encodeURIComponent(JSON.stringify(payload))}`, { headers })
      : await fetch(`${baseUrl}/trpc/${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify(payload),
        });
  return { status: res.status, body: (await res.json()) as TrpcResult['body'], headers: res.headers, cookies: res.headers.getSetCookie() };
}

/** The staff_session cookie from a response, as a Cookie header value. */
export function sessionCookieFrom(cookies: string[]): string | null {
  const line = cookies.find((c) => c.startsWith('staff_session='));
  const value = line?.split(';')[0];
  return value && value !== 'staff_session=' ? value : null;
}

/** The TOTP code for `secret` at `at` (generateTOTP reads the wall clock, so it is pinned for the call). */
export function totpCodeAt(secret: string, at = Date.now()): string {
  const realNow = Date.now;
  Date.now = () => at;
  try {
    return generateTOTP(decodeBase32IgnorePadding(secret), 30, 6);
  } finally {
    Date.now = realNow;
  }
}
