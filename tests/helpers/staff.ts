import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { generateTOTP } from '@oslojs/otp';
import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { staffUsers, type StaffRole } from '../../src/server/db/schema.ts';
import type { Deps } from '../../src/server/deps.ts';
import { createStaffAccount } from '../../src/server/features/staff/service.ts';
import { createSession, staffSessionCookie } from '../../src/server/features/staff/session.ts';
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
    await deps.db.update(staffUsers).set({ totpKey: totpSecret, totpEnabled: true }).where(eq(staffUsers.id, id));
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
      return `${staffSessionCookie}=${session.token}`;
    },
  };
}
