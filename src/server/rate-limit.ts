import { sql } from 'drizzle-orm';
import { queryRows, type Db } from './db/client.ts';
import { DomainError } from './errors.ts';

export interface RateRule {
  /** Names the counter, e.g. "contact" or "login:ip". */
  name: string;
  /** Requests allowed per window. */
  limit: number;
  windowSeconds: number;
}

export interface RateDecision {
  allowed: boolean;
  remaining: number;
  retryAfterSeconds: number;
}

/**
 * Rate limits for every transport: tRPC procedures declare theirs with
 * `rateLimitedProcedure` (trpc.ts), plain HTTP routes mount `rateLimit`
 * (http/rate-limit.ts), the chat socket and the sign-in throttle ask
 * `consumeRate` directly and answer in their own protocol.
 *
 * Fixed-window counter kept in the database, so every node shares it. One
 * atomic upsert per call: a window that has expired starts again at 1.
 */
export async function consumeRate(db: Db, rule: RateRule, subject: string, now = new Date()): Promise<RateDecision> {
  const key = `${rule.name}:${subject}`;
  const expires = new Date(now.getTime() + rule.windowSeconds * 1000);
  const [row] = await queryRows<{ points: number; expires_at: string | Date }>(db, sql`
    insert into rate_limits (key, points, expires_at) values (${key}, 1, ${expires.toISOString()}::timestamptz)
    on conflict (key) do update set
      points = case when rate_limits.expires_at <= ${now.toISOString()}::timestamptz then 1 else rate_limits.points + 1 end,
      expires_at = case when rate_limits.expires_at <= ${now.toISOString()}::timestamptz then excluded.expires_at else rate_limits.expires_at end
    returning points, expires_at`);
  const points = Number(row!.points);
  const retryAfterSeconds = Math.max(1, Math.ceil((new Date(row!.expires_at).getTime() - now.getTime()) / 1000));
  return { allowed: points <= rule.limit, remaining: Math.max(0, rule.limit - points), retryAfterSeconds };
}

/** Clears a counter (e.g. failed logins after a successful one). */
export async function resetRate(db: Db, rule: RateRule, subject: string): Promise<void> {
  await db.execute(sql`delete from rate_limits where key = ${`${rule.name}:${subject}`}`);
}

export const tooManyRequestsMessage = 'Too many requests. Please wait a moment and try again.';

/** The refusal past a limit, for any transport: TOO_MANY_REQUESTS, sent with Retry-After. */
export function tooManyRequests(retryAfterSeconds: number): DomainError {
  return new DomainError('TOO_MANY_REQUESTS', tooManyRequestsMessage, { retryAfterSeconds });
}
