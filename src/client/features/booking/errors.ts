import { TRPCClientError } from '@trpc/client';

export const unexpectedErrorMessage = 'An unexpected error occurred';

/** The server's message for a refusal it explained; otherwise `fallback`. */
export function errorMessage(error: unknown, fallback = unexpectedErrorMessage): string {
  if (error instanceof TRPCClientError && typeof error.message === 'string' && error.message) {
    // Network failures surface as TRPCClientError too, with the browser's text: not for visitors.
    return error.data ? error.message : fallback;
  }
  return fallback;
}

export function errorCode(error: unknown): string | undefined {
  return error instanceof TRPCClientError ? (error.data as { code?: string } | undefined)?.code : undefined;
}

/** A 4xx refusal: the request itself was wrong, so sending it again will not help. */
export function isClientError(error: unknown): boolean {
  const status = error instanceof TRPCClientError ? (error.data as { httpStatus?: number } | undefined)?.httpStatus : undefined;
  return status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429;
}

export function fieldErrorsOf(error: unknown): Record<string, string[] | undefined> | undefined {
  return error instanceof TRPCClientError ? (error.data as { fieldErrors?: Record<string, string[]> } | undefined)?.fieldErrors : undefined;
}
