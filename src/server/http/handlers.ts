import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ObjectNotFoundError } from '../adapters/storage/types.ts';
import type { Deps } from '../deps.ts';
import { DomainError, httpStatusOf } from '../errors.ts';
import { staffFromCookieHeader, type StaffIdentity } from '../features/staff/session.ts';

/** `Name`: the route's parameters (`'documentId'` for `/…/:documentId`), each a string. */
type Params<Name extends string> = Record<Name, string>;
type Run<Name extends string> = (req: Request<Params<Name>>, res: Response, next: NextFunction) => Promise<void>;

/**
 * An async plain route whose refusals are answered as JSON: a service's
 * DomainError with its status and message (docs/decisions/045), a stored
 * object that is gone with 404 `notFound`. Anything else goes to the error handler.
 */
export function jsonRoute<Name extends string = never>(run: Run<Name>, notFound = 'Not found'): RequestHandler<Params<Name>> {
  return async (req, res, next) => {
    try {
      await run(req, res, next);
    } catch (error) {
      if (error instanceof DomainError) res.status(httpStatusOf(error)).json({ error: error.message });
      else if (error instanceof ObjectNotFoundError) res.status(404).json({ error: notFound });
      else next(error);
    }
  };
}

/** The same for signed-in staff only (second factor done): anyone else gets 401 'Please sign in.'. */
export function staffRoute<Name extends string = never>(
  deps: Deps,
  run: (staff: StaffIdentity, ...args: Parameters<Run<Name>>) => Promise<void>,
  notFound?: string,
): RequestHandler<Params<Name>> {
  return jsonRoute<Name>(async (req, res, next) => {
    const staff = await staffFromCookieHeader(deps, req.headers.cookie);
    if (!staff) return void res.status(401).json({ error: 'Please sign in.' });
    await run(staff, req, res, next);
  }, notFound);
}

/**
 * Authenticates and authorises a request from its headers alone, before any
 * body parser runs (docs/decisions/067-headers-before-bodies.md): an anonymous
 * or refused caller is answered at once and its body is never read. The
 * connection is closed after the answer, so the unread body is not parsed as
 * the next request. `check` may leave what it found in `res.locals`.
 */
export function beforeBody<Name extends string = never>(check: (req: Request<Params<Name>>, res: Response) => Promise<void>): RequestHandler<Params<Name>> {
  return async (req, res, next) => {
    try {
      await check(req, res);
      next();
    } catch (error) {
      if (!(error instanceof DomainError)) return next(error);
      res.setHeader('Connection', 'close');
      res.status(httpStatusOf(error)).json({ error: error.message });
    }
  };
}
