import { STATUS_CODES } from 'node:http';
import type { ErrorRequestHandler, Request, Response } from 'express';

/** Renders the site's branded error page (the Not Found page) with `status`; absent without pages. */
export type ErrorPageRenderer = (req: Request, res: Response, status: number) => Promise<void>;

/**
 * The last handler. An error's message or path never reaches the client: it
 * may name a file on the server (`ENOENT … stat '/srv/…/assets/x.js'`), a
 * query, or a library's internals. The client gets the status and its
 * standard reason; the log keeps the details with the request id.
 * A browser asking for a page whose URL cannot even be decoded
 * (`/%E0%A4%A`) gets the branded error page with 400, like any bad page URL.
 */
export function errorResponder(renderErrorPage?: ErrorPageRenderer): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const status = typeof error?.status === 'number' && error.status >= 400 && error.status < 600 ? error.status : 500;
    if (status >= 500) req.log?.error({ err: error }, 'request failed');
    else req.log?.warn({ status, err: { type: error?.name, code: error?.code } }, 'request refused');
    if (res.headersSent) return;
    const wantsPage = renderErrorPage && req.method === 'GET' && status === 400 && !/^\/(trpc|api|socket\.io)\//i.test(req.path) && req.accepts(['html', 'json']) === 'html';
    if (wantsPage) {
      renderErrorPage(req, res, status).catch(() => {
        if (!res.headersSent) res.status(status).json({ error: STATUS_CODES[status] });
      });
      return;
    }
    res.status(status).json({ error: status === 500 ? 'An unexpected error occurred' : (STATUS_CODES[status] ?? 'Error') });
  };
}
