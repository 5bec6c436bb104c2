import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import { consumeRate, resetRate, tooManyRequests, type RateRule } from '../../rate-limit.ts';

/**
 * Failed-login limits (docs/decisions/011-staff-sign-in-limits-and-two-factor.md). Only failures count, and
 * a refused attempt counts nothing, so hammering a locked account does not
 * lengthen its lock:
 * - per account: the 10th failure inside 15 minutes locks the account for
 *   1 minute, doubling with each lock that day up to 15 minutes;
 * - per address: 20 failures inside 15 minutes refuse that address until the
 *   window ends.
 * Counters live in the shared `rate_limits` table (`scope: 'shared'`), so every node agrees:
 * N nodes never mean N × the guesses (docs/decisions/077-rate-limits-in-memory.md).
 */
export const accountFailures: RateRule = { name: 'login-fail:account', limit: 10, windowSeconds: 15 * 60, scope: 'shared' };
export const ipFailures: RateRule = { name: 'login-fail:ip', limit: 20, windowSeconds: 15 * 60, scope: 'shared' };
const lockouts: RateRule = { name: 'login-lockouts', limit: 1_000_000, windowSeconds: 24 * 60 * 60, scope: 'shared' };
const lockKey = (account: string) => `login-lock:${account}`;
const maxLockSeconds = 15 * 60;

async function activeCounter(deps: Deps, key: string): Promise<{ points: number; retryAfterSeconds: number } | null> {
  const now = deps.now();
  const [row] = await queryRows<{ points: number; expires_at: string | Date }>(
    deps.db,
    sql`select points, expires_at from rate_limits where key = ${key} and expires_at > ${now.toISOString()}::timestamptz`,
  );
  if (!row) return null;
  const retryAfterSeconds = Math.max(1, Math.ceil((new Date(row.expires_at).getTime() - now.getTime()) / 1000));
  return { points: Number(row.points), retryAfterSeconds };
}

/** Throws TOO_MANY_REQUESTS (429, Retry-After) while the account or the address is locked. */
export async function assertLoginAllowed(deps: Deps, account: string, ip: string): Promise<void> {
  const lock = await activeCounter(deps, lockKey(account));
  const ipCount = await activeCounter(deps, `${ipFailures.name}:${ip}`);
  const retryAfter = Math.max(
    lock?.retryAfterSeconds ?? 0,
    ipCount && ipCount.points >= ipFailures.limit ? ipCount.retryAfterSeconds : 0,
  );
  if (retryAfter > 0) throw tooManyRequests(retryAfter);
}

export async function recordLoginFailure(deps: Deps, account: string, ip: string): Promise<void> {
  const now = deps.now();
  await consumeRate(deps, ipFailures, ip, now);
  const failures = await consumeRate(deps, accountFailures, account, now);
  if (failures.remaining > 0) return;
  const lockCount = lockouts.limit - (await consumeRate(deps, lockouts, account, now)).remaining;
  const seconds = Math.min(maxLockSeconds, 60 * 2 ** Math.max(0, lockCount - 1));
  const until = new Date(now.getTime() + seconds * 1000);
  await deps.db.execute(sql`
    insert into rate_limits (key, points, expires_at) values (${lockKey(account)}, 1, ${until.toISOString()}::timestamptz)
    on conflict (key) do update set points = 1, expires_at = excluded.expires_at`);
  await resetRate(deps, accountFailures, account);
}

export async function recordLoginSuccess(deps: Deps, account: string): Promise<void> {
  await resetRate(deps, accountFailures, account);
}
