import { Router } from 'express';
import type { Deps } from '../deps.ts';
import { writeAudit } from '../features/audit.ts';
import { authorise, documentReadAction } from '../features/access/service.ts';
import { findDocumentForDownload } from '../features/console/service.ts';
import { sendPrivateFile } from './downloads.ts';
import { staffRoute } from './handlers.ts';
import { isUuid } from '../../shared/ids.ts';

/**
 * GET /api/staff/documents/:id — a customer's document for staff, as the access
 * policy allows ('download_original', or 'download_supporting' for a supporting
 * file: admins and staff any booking's, a notary only those of bookings
 * assigned to them). Always an attachment.
 */
export function staffDocumentsRouter(deps: Deps): Router {
  const routes = Router();
  routes.get(
    '/api/staff/documents/:id',
    staffRoute<'id'>(
      deps,
      async (staff, req, res, next) => {
        const id = req.params.id;
        const doc = isUuid(id) ? await findDocumentForDownload(deps.db, id) : undefined;
        if (!doc || doc.status !== 'stored' || doc.scanStatus === 'infected') {
          res.status(404).json({ error: 'Document not found' });
          return;
        }
        await authorise(deps, { staff }, await documentReadAction(deps.db, doc.id), { bookingId: doc.bookingId, notaryId: doc.notaryId }, { refusal: 'This document belongs to an appointment not assigned to you.' });
        const object = await deps.storage.get(doc.storageKey);
        await writeAudit(deps.db, {
          actorType: 'staff',
          actorId: staff.user.id,
          action: 'document.downloaded',
          entityType: 'booking',
          entityId: doc.bookingId,
          data: { documentId: doc.id, name: doc.name },
        });
        sendPrivateFile(res, next, { name: doc.name, contentType: doc.contentType, size: object.size, body: object.body });
      },
      'Document not found',
    ),
  );
  return routes;
}
