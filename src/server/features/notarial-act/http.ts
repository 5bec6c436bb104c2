import express, { Router, type Response } from 'express';
import { TRPCError } from '@trpc/server';
import { ObjectNotFoundError, type StoredObject } from '../../adapters/storage/types.ts';
import type { Deps } from '../../deps.ts';
import { identityParts, journalRangeInput } from '../../../shared/notarial-act.ts';
import { writeAudit } from '../audit.ts';
import { findBookingIdByManageToken } from '../booking/service.ts';
import { openIdentityImage, requireActAccess, submitTestVerification } from '../identity/service.ts';
import { listJournal } from '../journal/service.ts';
import { journalCsv, journalPdf } from '../journal/export-service.ts';
import { staffFromCookieHeader } from '../staff/session.ts';
import { openSealed } from './service.ts';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const statusOf: Partial<Record<TRPCError['code'], number>> = { BAD_REQUEST: 400, NOT_FOUND: 404, FORBIDDEN: 403, CONFLICT: 409, PRECONDITION_FAILED: 412 };

function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_') || 'document';
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

function send(res: Response, object: StoredObject, headers: { type: string; disposition: string }) {
  res.setHeader('Content-Type', headers.type);
  res.setHeader('Content-Length', String(object.size));
  res.setHeader('Content-Disposition', headers.disposition);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cache-Control', 'no-store');
  object.body.pipe(res);
}

function fail(res: Response, error: unknown): boolean {
  if (error instanceof ObjectNotFoundError) return void res.status(404).json({ error: 'Not found' }), true;
  if (error instanceof TRPCError && statusOf[error.code]) return void res.status(statusOf[error.code]!).json({ error: error.message }), true;
  return false;
}

/**
 * The notarial act's non-tRPC routes: the TEST MODE identity upload (three
 * images in one JSON body), the sealed PDF for the manage-link holder, ID
 * images for the booking's notary and admins, the journal's CSV/PDF export.
 */
export function actHttpRoutes(deps: Deps): Router {
  const routes = Router();

  // Three photos of at most 8 MB each, base64: the only large JSON body we accept.
  routes.post('/api/manage/identity/test', express.json({ limit: '34mb' }), async (req, res, next) => {
    try {
      const token = typeof req.query.token === 'string' ? req.query.token : '';
      const body = (req.body ?? {}) as Record<string, unknown>;
      const images = identityParts.map((part) => ({ part, bytes: Buffer.from(typeof body[part] === 'string' ? (body[part] as string) : '', 'base64') }));
      const view = await submitTestVerification(deps, token, { nameOnId: typeof body.nameOnId === 'string' ? body.nameOnId : '', images });
      res.json(view);
    } catch (error) {
      if (!fail(res, error)) next(error);
    }
  });

  routes.get('/api/manage/notarized/:documentId', async (req, res, next) => {
    try {
      const token = typeof req.query.token === 'string' ? req.query.token : '';
      const bookingId = uuidPattern.test(req.params.documentId) ? await findBookingIdByManageToken(deps.db, token) : null;
      const sealed = bookingId ? await openSealed(deps, bookingId, req.params.documentId) : null;
      if (!bookingId || !sealed) return void res.status(404).json({ error: 'Not found' });
      await writeAudit(deps.db, { actorType: 'customer', action: 'notarized_document.downloaded', entityType: 'booking', entityId: bookingId, data: { documentId: req.params.documentId } });
      send(res, sealed, { type: 'application/pdf', disposition: attachment(sealed.name) });
    } catch (error) {
      if (!fail(res, error)) next(error);
    }
  });

  routes.get('/api/staff/notarized/:bookingId/:documentId', async (req, res, next) => {
    try {
      const staff = await staffFromCookieHeader(deps, req.headers.cookie);
      if (!staff) return void res.status(401).json({ error: 'Please sign in.' });
      if (!uuidPattern.test(req.params.bookingId) || !uuidPattern.test(req.params.documentId)) return void res.status(404).json({ error: 'Not found' });
      await requireActAccess(deps, staff, req.params.bookingId);
      const sealed = await openSealed(deps, req.params.bookingId, req.params.documentId);
      if (!sealed) return void res.status(404).json({ error: 'Not found' });
      send(res, sealed, { type: 'application/pdf', disposition: attachment(sealed.name) });
    } catch (error) {
      if (!fail(res, error)) next(error);
    }
  });

  routes.get('/api/staff/identity/:verificationId/:part', async (req, res, next) => {
    try {
      const staff = await staffFromCookieHeader(deps, req.headers.cookie);
      if (!staff) return void res.status(401).json({ error: 'Please sign in.' });
      const part = req.params.part;
      if (!uuidPattern.test(req.params.verificationId) || !(identityParts as readonly string[]).includes(part)) return void res.status(404).json({ error: 'Not found' });
      const image = await openIdentityImage(deps, staff, req.params.verificationId, part);
      send(res, image, { type: image.contentType, disposition: 'inline' });
    } catch (error) {
      if (!fail(res, error)) next(error);
    }
  });

  routes.get('/api/staff/journal.:format', async (req, res, next) => {
    try {
      const staff = await staffFromCookieHeader(deps, req.headers.cookie);
      if (!staff) return void res.status(401).json({ error: 'Please sign in.' });
      const format = req.params.format;
      if (format !== 'csv' && format !== 'pdf') return void res.status(404).json({ error: 'Not found' });
      const range = journalRangeInput.safeParse({ from: req.query.from || undefined, to: req.query.to || undefined });
      if (!range.success) return void res.status(400).json({ error: 'Dates must be given as YYYY-MM-DD.' });
      const entries = await listJournal(deps.db, staff, range.data);
      await writeAudit(deps.db, { actorType: 'staff', actorId: staff.user.id, action: 'journal.exported', entityType: 'journal', entityId: staff.user.id, data: { format, ...range.data } });
      const name = `notary-journal${range.data.from ? `-${range.data.from}` : ''}${range.data.to ? `-to-${range.data.to}` : ''}.${format}`;
      const body = format === 'csv' ? Buffer.from(journalCsv(entries), 'utf8') : await journalPdf(entries, { title: `Notary journal — ${staff.user.name || staff.user.email}`, range: range.data });
      res.setHeader('Content-Type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/pdf');
      res.setHeader('Content-Disposition', attachment(name));
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.end(body);
    } catch (error) {
      if (!fail(res, error)) next(error);
    }
  });

  return routes;
}
