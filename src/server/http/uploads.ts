import { Router, type Request, type Response } from 'express';
import type { Deps } from '../deps.ts';
import { DomainError, httpStatusOf } from '../errors.ts';
import { receiveUpload } from '../features/documents/service.ts';

/** How long, and how much more, we read (and discard) of a refused body so the client can read our answer. */
const lingerMs = 5_000;
const lingerBytes = 1024 * 1024;

/**
 * After refusing a body we have not read to the end, closing the socket at
 * once would make the kernel send a reset that can destroy our answer before
 * the browser reads it. Like nginx's `lingering_close`, discard what is still
 * coming for a few seconds (at most 1 MiB more), then close. Nothing discarded is stored.
 */
function lingerAndClose(req: Request, res: Response) {
  if (req.readableEnded) return;
  res.setHeader('Connection', 'close');
  const timer = setTimeout(() => req.socket.destroy(), lingerMs);
  timer.unref();
  let discarded = 0;
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > lingerBytes) req.socket.destroy();
  });
  req.once('end', () => clearTimeout(timer));
  req.once('close', () => clearTimeout(timer));
  req.resume();
}

/** `PUT /api/uploads/:token` — the raw bytes of one document, streamed to storage. */
export function uploadRoutes(deps: Deps): Router {
  const routes = Router();
  routes.put('/api/uploads/:token', async (req, res) => {
    const header = req.headers['content-length'];
    const declaredLength = header === undefined ? null : Number(header);
    try {
      const result = await receiveUpload(deps, {
        token: req.params.token,
        body: req,
        declaredLength: Number.isSafeInteger(declaredLength) ? declaredLength : null,
      });
      res.status(201).json(result);
    } catch (error) {
      if (req.socket.destroyed) return; // the client went away; nothing to answer
      lingerAndClose(req, res);
      if (error instanceof DomainError) {
        // The store's own failure is logged for the operator; the visitor gets the words.
        if (httpStatusOf(error) >= 500) req.log?.error({ err: error.cause ?? error }, 'upload could not be stored');
        res.status(httpStatusOf(error)).json({ error: error.message });
      } else {
        req.log?.error({ err: error }, 'upload failed');
        res.status(500).json({ error: 'An unexpected error occurred' });
      }
    }
  });
  return routes;
}
