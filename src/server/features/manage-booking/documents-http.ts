import { Router } from 'express';
import { TRPCError } from '@trpc/server';
import type { Deps } from '../../deps.ts';
import { ObjectNotFoundError } from '../../adapters/storage/types.ts';
import { writeAudit } from '../audit.ts';
import { openDocument } from '../documents/service.ts';
import { findBookingIdByManageToken } from '../booking/service.ts';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_') || 'document';
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** Where the booking page links a document (the token in the query string, which logs drop). */
export function manageDocumentPath(documentId: string, token: string): string {
  return `/api/manage/documents/${documentId}?token=${encodeURIComponent(token)}`;
}

/**
 * GET /api/manage/documents/:documentId?token=… — a customer's own document,
 * streamed from storage, only for the holder of that booking's manage link.
 * Always an attachment, never rendered in our origin.
 */
export function manageDocumentsRouter(deps: Deps): Router {
  const routes = Router();
  routes.get('/api/manage/documents/:documentId', async (req, res, next) => {
    const missing = () => res.status(404).json({ error: 'Document not found' });
    try {
      const token = typeof req.query.token === 'string' ? req.query.token : '';
      const documentId = req.params.documentId;
      const bookingId = uuidPattern.test(documentId) ? await findBookingIdByManageToken(deps.db, token) : null;
      if (!bookingId) return void missing();
      const doc = await openDocument(deps, { bookingId, documentId });
      await writeAudit(deps.db, { actorType: 'customer', actorId: null, action: 'document.downloaded', entityType: 'booking', entityId: bookingId, data: { documentId } });
      res.setHeader('Content-Type', doc.contentType);
      res.setHeader('Content-Length', String(doc.size));
      res.setHeader('Content-Disposition', contentDisposition(doc.name));
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Cache-Control', 'no-store');
      doc.body.on('error', next);
      doc.body.pipe(res);
    } catch (error) {
      if (error instanceof ObjectNotFoundError || (error instanceof TRPCError && error.code === 'NOT_FOUND')) return void missing();
      next(error);
    }
  });
  return routes;
}
