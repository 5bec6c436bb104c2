import express, { Router } from 'express';
import type { Deps } from '../deps.ts';
import { isUuid } from '../../shared/ids.ts';
import { identityParts, journalRangeInput } from '../../shared/notarial-act.ts';
import { writeAudit } from '../features/audit.ts';
import { admitTestSubmission, maxImageBytes, openIdentityImage, submitTestVerification } from '../features/identity/service.ts';
import { latestCheckpointForExport, listJournal } from '../features/journal/service.ts';
import { journalCsv, journalPdf } from '../features/journal/export-service.ts';
import { openSealed } from '../features/notarial-act/service.ts';
import { bodyLimit } from './body-limit.ts';
import { contentDisposition, sendPrivateFile } from './downloads.ts';
import { beforeBody, jsonRoute, staffRoute } from './handlers.ts';

/**
 * Three photos of at most `maxImageBytes` each, base64 in one JSON body (4/3 of
 * the bytes), and the name: the only large JSON body we accept. Each image is
 * judged by its bytes afterwards, as uploads are (type from the first bytes, size).
 */
export const identityBodyBytes = Math.ceil((identityParts.length * maxImageBytes * 4) / 3) + 64 * 1024;

/**
 * The notarial act's non-tRPC routes: the TEST MODE identity upload (three
 * images in one JSON body), the sealed PDF for its signer, ID images for the
 * booking's notary and admins, the journal's CSV/PDF export. Who may: the
 * access policy (features/access), asked by the services.
 */
export function actHttpRoutes(deps: Deps): Router {
  const routes = Router();
  const tokenOf = (query: Record<string, unknown>) => (typeof query.token === 'string' ? query.token : '');

  routes.post(
    '/api/manage/identity/test',
    // The link, the provider and the attempts left are checked before a byte of the 32 MB body is read.
    beforeBody(async (req) => void (await admitTestSubmission(deps, tokenOf(req.query)))),
    bodyLimit(identityBodyBytes),
    express.json({ limit: identityBodyBytes }),
    jsonRoute(async (req, res) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const images = identityParts.map((part) => ({ part, bytes: Buffer.from(typeof body[part] === 'string' ? (body[part] as string) : '', 'base64') }));
      const view = await submitTestVerification(deps, tokenOf(req.query), { nameOnId: typeof body.nameOnId === 'string' ? body.nameOnId : '', images });
      res.json(view);
    }),
  );

  routes.get('/api/manage/notarized/:documentId', jsonRoute<'documentId'>(async (req, res, next) => {
    const sealed = await openSealed(deps, { token: tokenOf(req.query) }, { documentId: req.params.documentId });
    if (!sealed) return void res.status(404).json({ error: 'Not found' });
    await writeAudit(deps.db, { actorType: 'customer', action: 'notarized_document.downloaded', entityType: 'booking', entityId: sealed.bookingId, data: { documentId: req.params.documentId } });
    sendPrivateFile(res, next, { ...sealed, contentType: 'application/pdf' });
  }));

  routes.get('/api/staff/notarized/:bookingId/:documentId', staffRoute<'bookingId' | 'documentId'>(deps, async (staff, req, res, next) => {
    const sealed = await openSealed(deps, { staff }, { bookingId: req.params.bookingId, documentId: req.params.documentId });
    if (!sealed) return void res.status(404).json({ error: 'Not found' });
    sendPrivateFile(res, next, { ...sealed, contentType: 'application/pdf' });
  }));

  routes.get('/api/staff/identity/:verificationId/:part', staffRoute<'verificationId' | 'part'>(deps, async (staff, req, res, next) => {
    const part = req.params.part;
    if (!isUuid(req.params.verificationId) || !(identityParts as readonly string[]).includes(part)) return void res.status(404).json({ error: 'Not found' });
    const image = await openIdentityImage(deps, staff, req.params.verificationId, part);
    sendPrivateFile(res, next, { ...image, name: part }, { inline: true });
  }));

  routes.get('/api/staff/journal.:format', staffRoute<'format'>(deps, async (staff, req, res) => {
    const format = req.params.format;
    if (format !== 'csv' && format !== 'pdf') return void res.status(404).json({ error: 'Not found' });
    const range = journalRangeInput.safeParse({ from: req.query.from || undefined, to: req.query.to || undefined });
    if (!range.success) return void res.status(400).json({ error: 'Dates must be given as YYYY-MM-DD.' });
    const entries = await listJournal(deps.db, staff, range.data);
    await writeAudit(deps.db, { actorType: 'staff', actorId: staff.user.id, action: 'journal.exported', entityType: 'journal', entityId: staff.user.id, data: { format, ...range.data } });
    const name = `notary-journal${range.data.from ? `-${range.data.from}` : ''}${range.data.to ? `-to-${range.data.to}` : ''}.${format}`;
    // Every export carries the newest signed checkpoint: a copy of the anchor outside the database (decision 090).
    const checkpoint = await latestCheckpointForExport(deps.db);
    const body = format === 'csv' ? Buffer.from(journalCsv(entries, checkpoint), 'utf8') : await journalPdf(entries, { title: `Notary journal — ${staff.user.name || staff.user.email}`, range: range.data, checkpoint });
    res.setHeader('Content-Type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/pdf');
    res.setHeader('Content-Disposition', contentDisposition(name));
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.end(body);
  }));

  return routes;
}
