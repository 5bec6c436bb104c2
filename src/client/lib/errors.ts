import { TRPCClientError } from '@trpc/client';

export const unexpectedErrorMessage = 'An unexpected error occurred';

/**
 * The server's message for a refusal it explained; otherwise `fallback`. A
 * failed input check arrives with per-field messages (and a serialized list
 * as its message): the first field's message is shown, never the list.
 */
export function errorMessage(error: unknown, fallback = unexpectedErrorMessage): string {
  if (error instanceof TRPCClientError && typeof error.message === 'string' && error.message) {
    // Network failures surface as TRPCClientError too, with the browser's text: not for visitors.
    if (!error.data) return fallback;
    const first = Object.values(fieldErrorsOf(error) ?? {}).find((m) => m && m.length > 0)?.[0];
    if (first) return first;
    return readableMessage(error.message) ?? fallback;
  }
  return fallback;
}

/** A zod issue list serialized into a message becomes its first issue's sentence. */
function readableMessage(text: string): string | null {
  const trimmed = text.trim();
  if (!trimmed.startsWith('[') && !trimmed.startsWith('{')) return trimmed;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    const issue = Array.isArray(parsed) ? (parsed[0] as { message?: unknown } | undefined) : undefined;
    return typeof issue?.message === 'string' ? issue.message : null;
  } catch {
    return trimmed; // a sentence that happens to start with a bracket
  }
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
