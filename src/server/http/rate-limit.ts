import type { RequestHandler } from 'express';
import { consumeRate, tooManyRequestsMessage, type RateContext, type RateRule } from '../rate-limit.ts';

/** Express middleware: 429 with Retry-After once `subject(req)` exceeds the rule. */
export function rateLimit(context: RateContext, rule: RateRule, subject: (req: Parameters<RequestHandler>[0]) => string = (req) => req.ip ?? 'unknown'): RequestHandler {
  return async (req, res, next) => {
    try {
      const decision = await consumeRate(context, rule, subject(req));
      if (decision.allowed) return next();
      res.setHeader('Retry-After', String(decision.retryAfterSeconds));
      res.status(429).json({ error: tooManyRequestsMessage });
    } catch (error) {
      next(error);
    }
  };
}
