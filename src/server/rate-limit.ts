import { sql } from 'drizzle-orm';
import { queryRows, type Db } from './db/client.ts';
import { DomainError } from './errors.ts';

export interface RateRule {
  /** Names the counter, e.g. "contact" or "login:ip". */
  name: string;
  /** Requests allowed per window. */
  limit: number;
  windowSeconds: number;
  /**
   * Where the counter lives (docs/decisions/077-rate-limits-in-memory.md):
   * - `node` (the default): in this process's memory, no database round trip.
   *   A brake on floods and scripts; behind a load balancer with N nodes an
   *   address gets at most N × `limit` per window.
   * - `shared`: in the `rate_limits` table, one atomic upsert per call, exact
   *   across every node. For the limits that guard a secret against guessing
   *   (staff sign-in failures, second-factor codes, invitation tokens), where
   *   N × the attempts would weaken the guarantee.
   */
  scope?: 'node' | 'shared';
}

export interface RateDecision {
  allowed: boolean;
  remaining: number;
  retryAfterSeconds: number;
}

/** What the limiter needs: the database for shared counters, this node's counters for the rest. */
export interface RateContext {
  db: Db;
  rateCounters: NodeRateCounters;
}

/**
 * Fixed-window counters in this process's memory. Bounded: past `maxKeys`
 * live counters, expired ones are dropped first, then the oldest (a flood of
 * new addresses can make an old address start over, never exhaust memory).
 */
export class NodeRateCounters {
  private readonly counters = new Map<string, { points: number; expiresAt: number }>();
  private insertsSinceSweep = 0;
  private readonly maxKeys: number;

  constructor(maxKeys = 50_000) {
    this.maxKeys = maxKeys;
  }

  /** Counts one call; returns the window's points so far and when it ends. */
  consume(key: string, windowMs: number, nowMs: number): { points: number; expiresAt: number } {
    let counter = this.counters.get(key);
    if (counter && counter.expiresAt <= nowMs) {
      this.counters.delete(key);
      counter = undefined;
    }
    if (!counter) {
      counter = { points: 0, expiresAt: nowMs + windowMs };
      this.counters.set(key, counter);
      // Amortised: a full pass at most once per as many inserts as there are counters.
      if (this.counters.size > this.maxKeys || ++this.insertsSinceSweep >= Math.max(1_000, this.counters.size)) this.sweep(nowMs);
    }
    counter.points++;
    return counter;
  }

  reset(key: string): void {
    this.counters.delete(key);
  }

  /** Live counters (tests, and the bound). */
  get size(): number {
    return this.counters.size;
  }

  /** Drops expired counters; then, if still over the bound, the oldest down to 90 % of it. */
  sweep(nowMs: number): void {
    this.insertsSinceSweep = 0;
    for (const [key, counter] of this.counters) if (counter.expiresAt <= nowMs) this.counters.delete(key);
    if (this.counters.size <= this.maxKeys) return;
    const keep = Math.floor(this.maxKeys * 0.9);
    for (const key of this.counters.keys()) {
      if (this.counters.size <= keep) break;
      this.counters.delete(key);
    }
  }
}

/**
 * Rate limits for every transport: tRPC procedures declare theirs with
 * `rateLimitedProcedure` (trpc.ts), plain HTTP routes mount `rateLimit`
 * (http/rate-limit.ts), the chat socket and the sign-in throttle ask
 * `consumeRate` directly and answer in their own protocol.
 *
 * Fixed windows: in memory for `node` rules; for `shared` rules one atomic
 * upsert in the database, where a window that has expired starts again at 1.
 */
export async function consumeRate(context: RateContext, rule: RateRule, subject: string, now = new Date()): Promise<RateDecision> {
  const key = `${rule.name}:${subject}`;
  let points: number;
  let expiresAt: number;
  if (rule.scope === 'shared') {
    const expires = new Date(now.getTime() + rule.windowSeconds * 1000);
    const [row] = await queryRows<{ points: number; expires_at: string | Date }>(context.db, sql`
      insert into rate_limits (key, points, expires_at) values (${key}, 1, ${expires.toISOString()}::timestamptz)
      on conflict (key) do update set
        points = case when rate_limits.expires_at <= ${now.toISOString()}::timestamptz then 1 else rate_limits.points + 1 end,
        expires_at = case when rate_limits.expires_at <= ${now.toISOString()}::timestamptz then excluded.expires_at else rate_limits.expires_at end
      returning points, expires_at`);
    points = Number(row!.points);
    expiresAt = new Date(row!.expires_at).getTime();
  } else {
    ({ points, expiresAt } = context.rateCounters.consume(key, rule.windowSeconds * 1000, now.getTime()));
  }
  const retryAfterSeconds = Math.max(1, Math.ceil((expiresAt - now.getTime()) / 1000));
  return { allowed: points <= rule.limit, remaining: Math.max(0, rule.limit - points), retryAfterSeconds };
}

/** Clears a counter (e.g. failed logins after a successful one). */
export async function resetRate(context: RateContext, rule: RateRule, subject: string): Promise<void> {
  const key = `${rule.name}:${subject}`;
  if (rule.scope === 'shared') await context.db.execute(sql`delete from rate_limits where key = ${key}`);
  else context.rateCounters.reset(key);
}

/**
 * Deletes shared counters whose window has ended (the retention job, hourly):
 * every reader already treats them as absent, and without this the table kept
 * a row per address forever.
 */
export async function sweepExpiredRates(db: Db, now = new Date()): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`with gone as (delete from rate_limits where expires_at <= ${now.toISOString()}::timestamptz returning 1) select count(*)::int as n from gone`,
  );
  return Number(row?.n ?? 0);
}

export const tooManyRequestsMessage = 'Too many requests. Please wait a moment and try again.';

/** The refusal past a limit, for any transport: TOO_MANY_REQUESTS, sent with Retry-After. */
export function tooManyRequests(retryAfterSeconds: number): DomainError {
  return new DomainError('TOO_MANY_REQUESTS', tooManyRequestsMessage, { retryAfterSeconds });
}
