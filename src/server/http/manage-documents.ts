import { Router } from 'express';
import type { Deps } from '../deps.ts';
import { ObjectNotFoundError } from '../adapters/storage/types.ts';
import { writeAudit } from '../features/audit.ts';
import { openDocument } from '../features/documents/service.ts';
import { findBookingIdByManageToken } from '../features/booking/service.ts';
import { sendPrivateFile } from './downloads.ts';
import { DomainError } from '../errors.ts';
import { isUuid } from '../../shared/ids.ts';

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
      const bookingId = isUuid(documentId) ? await findBookingIdByManageToken(deps.db, token) : null;
      if (!bookingId) return void missing();
      const doc = await openDocument(deps, { bookingId, documentId });
      await writeAudit(deps.db, { actorType: 'customer', actorId: null, action: 'document.downloaded', entityType: 'booking', entityId: bookingId, data: { documentId } });
      sendPrivateFile(res, next, doc);
    } catch (error) {
      if (error instanceof ObjectNotFoundError || (error instanceof DomainError && error.code === 'NOT_FOUND')) return void missing();
      next(error);
    }
  });
  return routes;
}
