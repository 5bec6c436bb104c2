import { TRPCClientError } from '@trpc/client';

/** Polls `check` (sync or async) until it holds; fails naming `what` after `timeoutMs`. */
export async function until(check: () => boolean | Promise<boolean>, what = 'condition', timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export interface Rejection {
  /** The tRPC code ('CONFLICT', …) for a tRPC error, the error's own `code` otherwise. */
  code: string | undefined;
  message: string;
  /** Only for a call made over HTTP. */
  httpStatus: number | undefined;
}

/**
 * What a call that must fail failed with: a service's error (TRPCError or a
 * domain error with a `code`) or a tRPC client's (with the HTTP status).
 * Fails the test when the call succeeds.
 */
export async function rejectionOf(promise: Promise<unknown>): Promise<Rejection> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof TRPCClientError) {
      const data = error.data as { code: string; httpStatus: number } | undefined;
      if (!data) throw error;
      return { code: data.code, message: error.message, httpStatus: data.httpStatus };
    }
    if (error instanceof Error) return { code: (error as { code?: string }).code, message: error.message, httpStatus: undefined };
    throw error;
  }
  throw new Error('expected the call to fail');
}
