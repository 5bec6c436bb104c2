import type { RequestHandler } from 'express';

/**
 * What each route that reads a body may receive (docs/decisions/025-request-bounds.md).
 * tRPC inputs are small forms and ids; the largest legitimate one (a contact
 * message of 5,000 characters, escaped as JSON, in a batch) is far below this.
 */
export const bodyLimits = {
  trpc: 100 * 1024,
  /** Stripe's events are a few kB; its documented ceiling is well under this. */
  stripeWebhook: 1024 * 1024,
  /** The no-script contact forms (urlencoded). */
  formPost: 32 * 1024,
} as const;

/**
 * Refuses a body whose declared length is over `maxBytes` with 413 before a
 * byte of it is read; a chunked body without a length is cut off by the
 * reader's own limit (tRPC's `maxBodySize`, body-parser's `limit`). The
 * connection is closed after the answer so the unread body is not parsed as
 * the next request.
 */
export function bodyLimit(maxBytes: number): RequestHandler {
  return (req, res, next) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (!Number.isFinite(declared) || declared <= maxBytes) return next();
    res.setHeader('Connection', 'close');
    res.status(413).json({ error: 'Request too large' });
  };
}
