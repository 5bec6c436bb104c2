import { Router } from 'express';
import type { Deps } from '../../deps.ts';
import { ObjectNotFoundError } from '../../adapters/storage/types.ts';
import { writeAudit } from '../audit.ts';
import { staffFromCookieHeader } from '../staff/session.ts';
import { documentForDownload } from './repository.ts';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A name safe inside a quoted header value; the original goes in filename* (RFC 6266). */
function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_') || 'document';
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * GET /api/staff/documents/:id — a customer's document for staff. Admins and
 * staff may read any booking's documents; a notary only those of bookings
 * assigned to them. Always an attachment, never rendered in our origin.
 */
export function staffDocumentsRouter(deps: Deps): Router {
  const routes = Router();
  routes.get('/api/staff/documents/:id', async (req, res, next) => {
    try {
      const staff = await staffFromCookieHeader(deps, req.headers.cookie);
      if (!staff) {
        res.status(401).json({ error: 'Please sign in.' });
        return;
      }
      const id = req.params.id;
      const doc = uuidPattern.test(id) ? await documentForDownload(deps.db, id) : undefined;
      if (!doc || doc.status !== 'stored' || doc.scanStatus === 'infected') {
        res.status(404).json({ error: 'Document not found' });
        return;
      }
      if (staff.user.role === 'notary' && doc.notaryId !== staff.user.id) {
        res.status(403).json({ error: 'This document belongs to an appointment not assigned to you.' });
        return;
      }
      const object = await deps.storage.get(doc.storageKey);
      await writeAudit(deps.db, {
        actorType: 'staff',
        actorId: staff.user.id,
        action: 'document.downloaded',
        entityType: 'booking',
        entityId: doc.bookingId,
        data: { documentId: doc.id, name: doc.name },
      });
      res.setHeader('Content-Type', doc.contentType ?? 'application/octet-stream');
      res.setHeader('Content-Length', String(object.size));
      res.setHeader('Content-Disposition', contentDisposition(doc.name));
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Cache-Control', 'no-store');
      object.body.on('error', next);
      object.body.pipe(res);
    } catch (error) {
      if (error instanceof ObjectNotFoundError) {
        res.status(404).json({ error: 'Document not found' });
        return;
      }
      next(error);
    }
  });
  return routes;
}
