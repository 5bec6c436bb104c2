import type { NextFunction, Response } from 'express';
import type { Readable } from 'node:stream';

/** A name safe inside a quoted header value; the original goes in filename* (RFC 6266). */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_') || 'document';
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * Streams a private file (a customer's document, a sealed PDF, an ID image):
 * an attachment unless `inline` (shown in the console's own frame), never
 * sniffed, never cached. A storage error mid-stream goes to `next`.
 */
export function sendPrivateFile(
  res: Response,
  next: NextFunction,
  file: { name: string; contentType: string | null; size: number; body: Readable },
  { inline = false }: { inline?: boolean } = {},
): void {
  res.setHeader('Content-Type', file.contentType ?? 'application/octet-stream');
  res.setHeader('Content-Length', String(file.size));
  res.setHeader('Content-Disposition', inline ? 'inline' : contentDisposition(file.name));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cache-Control', 'no-store');
  file.body.on('error', next);
  file.body.pipe(res);
}
