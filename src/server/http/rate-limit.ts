import { sql } from 'drizzle-orm';
import type { RequestHandler, Response } from 'express';
import { TRPCError } from '@trpc/server';
import { queryRows, type Db } from '../db/client.ts';

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

function refuse(res: Response, decision: RateDecision) {
  res.setHeader('Retry-After', String(decision.retryAfterSeconds));
}

/** Express middleware: 429 with Retry-After once `subject(req)` exceeds the rule. */
export function rateLimit(db: Db, rule: RateRule, subject: (req: Parameters<RequestHandler>[0]) => string = (req) => req.ip ?? 'unknown'): RequestHandler {
  return async (req, res, next) => {
    try {
      const decision = await consumeRate(db, rule, subject(req));
      if (decision.allowed) return next();
      refuse(res, decision);
      res.status(429).json({ error: tooManyRequestsMessage });
    } catch (error) {
      next(error);
    }
  };
}

/** For tRPC procedures: throws TOO_MANY_REQUESTS (HTTP 429) and sets Retry-After. */
export async function enforceRate(db: Db, res: Response, rule: RateRule, subject: string): Promise<void> {
  const decision = await consumeRate(db, rule, subject);
  if (decision.allowed) return;
  refuse(res, decision);
  throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: tooManyRequestsMessage });
}
