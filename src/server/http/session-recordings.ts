import express, { Router } from 'express';
import type { Deps } from '../deps.ts';
import { DomainError } from '../errors.ts';
import { staffFromCookieHeader, type StaffIdentity } from '../features/staff/session.ts';
import { bodyLimit } from './body-limit.ts';
import { beforeBody, jsonRoute, staffRoute } from './handlers.ts';
import { rateLimit } from './rate-limit.ts';
import type { RateRule } from '../rate-limit.ts';
import { maxRecordingChunkBytes } from '../../shared/session.ts';
import * as recordings from '../features/session/recording-service.ts';

/**
 * The recording's two plain HTTP routes (bytes do not fit tRPC):
 * - PUT /api/session/recordings/:id/chunks/:seq — one MediaRecorder chunk from
 *   the notary's browser (raw body, bounded), idempotent per sequence number;
 * - GET /api/session/recordings/:id — playback for admins and the booking's
 *   notary, with Range support (206) for seeking; every playback is audited.
 */
export const recordingChunkRate: RateRule = { name: 'recording-chunk', limit: 1200, windowSeconds: 600 };

export function recordingPath(recordingId: string): string {
  return `/api/session/recordings/${recordingId}`;
}

const recordingGone = 'Recording not found';

export function sessionRecordingRoutes(deps: Deps): Router {
  const routes = Router();

  routes.put(
    '/api/session/recordings/:recordingId/chunks/:seq',
    rateLimit(deps, recordingChunkRate),
    // The staff session and the recording's access are checked from the headers, before the body is read.
    beforeBody<'recordingId' | 'seq'>(async (req, res) => {
      const staff = await staffFromCookieHeader(deps, req.headers.cookie);
      if (!staff) throw new DomainError('UNAUTHORIZED', 'Please sign in.');
      await recordings.recordingForNotary(deps, staff, req.params.recordingId);
      res.locals.staff = staff;
    }),
    bodyLimit(maxRecordingChunkBytes),
    express.raw({ type: () => true, limit: maxRecordingChunkBytes }),
    jsonRoute<'recordingId' | 'seq'>(async (req, res) => {
      const staff = res.locals.staff as StaffIdentity;
      const seq = /^\d{1,6}$/.test(req.params.seq) ? Number(req.params.seq) : -1;
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const result = await recordings.receiveChunk(deps, staff, { recordingId: req.params.recordingId, seq, body });
      res.status(result.stored ? 201 : 200).json({ ok: true });
    }, recordingGone),
  );

  routes.get(
    '/api/session/recordings/:recordingId',
    staffRoute<'recordingId'>(
      deps,
      async (staff, req, res, next) => {
        const rangeHeader = req.headers.range;
        // Authorise before reading the Range against the size (the size is private too).
        const { recording, size } = await recordings.openRecording(deps, staff, { recordingId: req.params.recordingId, range: parseRange(rangeHeader, Number.MAX_SAFE_INTEGER) ?? undefined });
        res.setHeader('Accept-Ranges', 'bytes');
        res.setHeader('Content-Type', recording.mimeType);
        res.setHeader('Cache-Control', 'no-store');
        res.setHeader('X-Content-Type-Options', 'nosniff');
        res.setHeader('Content-Disposition', `inline; filename="${recording.id}.webm"`);
        let range = rangeHeader ? parseRange(rangeHeader, size) : null;
        if (rangeHeader && (!range || range.start >= size)) {
          res.setHeader('Content-Range', `bytes */${size}`);
          return void res.status(416).end();
        }
        const object = await deps.storage.get(recording.storageKey, range ?? undefined);
        if (range) {
          range = { start: range.start, end: Math.min(range.end, object.size - 1) };
          res.status(206);
          res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${object.size}`);
          res.setHeader('Content-Length', String(range.end - range.start + 1));
        } else {
          res.setHeader('Content-Length', String(object.size));
        }
        object.body.on('error', next);
        object.body.pipe(res);
      },
      recordingGone,
    ),
  );

  return routes;
}

/** One `bytes=start-end`, `bytes=start-` or `bytes=-suffix` range; null when absent or not understood. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return null;
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (end < start) return null;
  return { start, end };
}
