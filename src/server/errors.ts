/**
 * The services' one error vocabulary (docs/decisions/045): a refusal with a
 * code and the message the visitor or staff member reads. Services throw it
 * without knowing the transport; `trpc.ts` maps it to a tRPC error and
 * `httpStatusOf` to a status for the plain HTTP routes, so a service can be
 * called from a job or a script as well.
 */
export const errorStatuses = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  TIMEOUT: 408,
  CONFLICT: 409,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE_CONTENT: 422,
  TOO_MANY_REQUESTS: 429,
  SERVICE_UNAVAILABLE: 503,
  INSUFFICIENT_STORAGE: 507,
} as const;
export type ErrorCode = keyof typeof errorStatuses;

export class DomainError extends Error {
  readonly code: ErrorCode;
  /** For TOO_MANY_REQUESTS: when to try again; each transport sends it as `Retry-After`. */
  readonly retryAfterSeconds: number | undefined;
  /** The input field the refusal is about (a wrong code): forms show the message on that field. */
  readonly field: string | undefined;
  constructor(code: ErrorCode, message: string, options?: ErrorOptions & { retryAfterSeconds?: number; field?: string }) {
    super(message, options);
    this.name = 'DomainError';
    this.code = code;
    this.retryAfterSeconds = options?.retryAfterSeconds;
    this.field = options?.field;
  }

  /** The HTTP status of this refusal; Express's error handler (app.ts) reads `status` too. */
  get status(): number {
    return errorStatuses[this.code];
  }
}

/** The HTTP status for an error a plain route caught: the domain error's, otherwise 500. */
export function httpStatusOf(error: unknown): number {
  return error instanceof DomainError ? error.status : 500;
}
