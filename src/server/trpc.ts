import { initTRPC, TRPCError } from '@trpc/server';
import type { Request, Response } from 'express';
import { ZodError } from 'zod';
import { transformer } from '../shared/trpc-transformer.ts';
import type { Deps } from './deps.ts';
import { DomainError } from './errors.ts';
import { consumeRate, tooManyRequests, type RateRule } from './rate-limit.ts';

export interface Context {
  deps: Deps;
  req: Request;
  res: Response;
  requestId: string;
}

const t = initTRPC.context<Context>().create({
  // superjson's wire format, cheaply for JSON and Dates; the client uses the same one.
  transformer,
  errorFormatter({ shape, error }) {
    return {
      ...shape,
      // Field errors for forms; never a stack trace.
      data: {
        code: shape.data.code,
        httpStatus: shape.data.httpStatus,
        fieldErrors:
          error.cause instanceof ZodError
            ? error.cause.flatten().fieldErrors
            : error.cause instanceof DomainError && error.cause.field
              ? { [error.cause.field]: [error.cause.message] }
              : undefined,
      },
      message:
        error.code === 'INTERNAL_SERVER_ERROR' ? 'An unexpected error occurred' : shape.message,
    };
  },
});

export const router = t.router;
/**
 * Every procedure starts here: a service's DomainError becomes the tRPC error
 * with the same code and message, and its `retryAfterSeconds` the Retry-After
 * header (anything else stays an internal error, logged, with a generic message).
 */
export const publicProcedure = t.procedure.use(async ({ ctx, next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof DomainError) {
    const cause = result.error.cause;
    if (cause.retryAfterSeconds !== undefined) ctx.res.setHeader('Retry-After', String(cause.retryAfterSeconds));
    // tRPC has no 507: a full store is, to a caller, a service that cannot take it now.
    const code = cause.code === 'INSUFFICIENT_STORAGE' ? 'SERVICE_UNAVAILABLE' : cause.code;
    throw new TRPCError({ code, message: cause.message, cause });
  }
  return result;
});

/** The caller's address as Express resolved it (behind TRUST_PROXY proxies). */
export const clientAddress = (ctx: Context): string => ctx.req.ip ?? ctx.req.socket?.remoteAddress ?? 'unknown';

/**
 * A middleware counting each call against `rule` per `subject` (by default the
 * caller's address); over the limit: TOO_MANY_REQUESTS (HTTP 429) with
 * Retry-After. Declared on a procedure, before its input is parsed, like the
 * role checks: `rateLimitedProcedure(rule)` or `someProcedure.use(rateLimited(rule, subject))`.
 */
export function rateLimited<TContext extends Context>(rule: RateRule, subject: (ctx: TContext) => string = clientAddress) {
  return async <TNext>({ ctx, next }: { ctx: TContext; next: () => Promise<TNext> }): Promise<TNext> => {
    await chargeRate(ctx, rule, subject(ctx));
    return next();
  };
}

/** Counts one call against `rule` for `subject`; over the limit: TOO_MANY_REQUESTS with Retry-After. For limits that apply to some calls only. */
export async function chargeRate(ctx: Pick<Context, 'deps'>, rule: RateRule, subject: string): Promise<void> {
  const decision = await consumeRate(ctx.deps, rule, subject);
  if (!decision.allowed) throw tooManyRequests(decision.retryAfterSeconds);
}

/** A public procedure limited per caller address by `rule`. */
export function rateLimitedProcedure(rule: RateRule) {
  return publicProcedure.use(rateLimited(rule));
}
