import { initTRPC, TRPCError } from '@trpc/server';
import type { Request, Response } from 'express';
import superjson from 'superjson';
import { ZodError } from 'zod';
import type { Deps } from './deps.ts';

export interface Context {
  deps: Deps;
  req: Request;
  res: Response;
  requestId: string;
}

const t = initTRPC.context<Context>().create({
  transformer: superjson,
  errorFormatter({ shape, error }) {
    return {
      ...shape,
      // Field errors for forms; never a stack trace.
      data: {
        code: shape.data.code,
        httpStatus: shape.data.httpStatus,
        fieldErrors: error.cause instanceof ZodError ? error.cause.flatten().fieldErrors : undefined,
      },
      message:
        error.code === 'INTERNAL_SERVER_ERROR' ? 'An unexpected error occurred' : shape.message,
    };
  },
});

export const router = t.router;
export const middleware = t.middleware;
export const mergeRouters = t.mergeRouters;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure;
export { TRPCError };
