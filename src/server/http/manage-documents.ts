import { Router } from 'express';
import type { Deps } from '../deps.ts';
import { ObjectNotFoundError } from '../adapters/storage/types.ts';
import { writeAudit } from '../features/audit.ts';
import { authorise, documentReadAction } from '../features/access/service.ts';
import { openDocument } from '../features/documents/service.ts';
import { sendPrivateFile } from './downloads.ts';
import { DomainError } from '../errors.ts';
import { isUuid } from '../../shared/ids.ts';

/**
 * GET /api/manage/documents/:documentId?token=… — a customer's own document,
 * streamed from storage, for a customer link the access policy lets download
 * the original (a co-signer's or witness's link: the documents to sign only, never a supporting file). Always an attachment,
 * never rendered in our origin.
 */
export function manageDocumentsRouter(deps: Deps): Router {
  const routes = Router();
  routes.get('/api/manage/documents/:documentId', async (req, res, next) => {
    const missing = () => res.status(404).json({ error: 'Document not found' });
    try {
      const token = typeof req.query.token === 'string' ? req.query.token : '';
      const documentId = req.params.documentId;
      if (!isUuid(documentId)) return void missing();
      // A supporting file (the customer's ID photo) asks its own action: a co-signer's or witness's link is refused it (decision 133).
      const { bookingId, participant } = await authorise(deps, { token }, await documentReadAction(deps.db, documentId));
      const doc = await openDocument(deps, { bookingId, documentId });
      await writeAudit(deps.db, { actorType: 'customer', actorId: null, action: 'document.downloaded', entityType: 'booking', entityId: bookingId, data: { documentId, participantId: participant?.id ?? null } });
      sendPrivateFile(res, next, doc);
    } catch (error) {
      if (error instanceof ObjectNotFoundError || (error instanceof DomainError && error.code === 'NOT_FOUND')) return void missing();
      if (error instanceof DomainError) return void res.status(error.status).json({ error: error.message });
      next(error);
    }
  });
  return routes;
}
