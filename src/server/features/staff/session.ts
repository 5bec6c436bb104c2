import type { StaffRole } from '../../db/schema.ts';
import type { Deps } from '../../deps.ts';

export interface StaffIdentity {
  user: { id: string; email: string; name: string; role: StaffRole; timeZone: string };
  sessionId: string;
}

export const staffSessionCookie = 'staff_session';

/**
 * Who is calling, from the request's Cookie header (HTTP, tRPC and the staff
 * Socket.IO namespace all use this). Null for anonymous, expired, revoked or
 * deactivated. Placeholder until the staff-accounts work implements it.
 */
export async function staffFromCookieHeader(_deps: Deps, _cookieHeader: string | undefined): Promise<StaffIdentity | null> {
  return null;
}
