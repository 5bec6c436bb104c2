import type { RequestHandler } from 'express';
import type { Deps } from '../deps.ts';
import { consolePages, homePathFor, type ConsolePage } from '../../shared/staff.ts';
import { staffAuthFromCookieHeader } from '../features/staff/session.ts';
import { isUnder, routerPath } from './router-path.ts';

/** Console pages anyone may open: signing in, the second step, accepting an invitation. */
const openPages = ['login', 'two-factor', 'invite'];

/**
 * Server-side gate for the /admin pages, before anything is rendered:
 * noindex always; anonymous → the login page; a session owing its second
 * factor → the code/enrolment page; a page outside the role → the role's own
 * start page. The data behind every page is refused by its procedures anyway.
 */
export function adminPagesGuard(deps: Deps): RequestHandler {
  return async (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const path = routerPath(req.path);
    if (path === null || !isUnder(path, '/admin')) return next();
    res.setHeader('X-Robots-Tag', 'noindex, nofollow');
    const section = path.split('/')[2] ?? '';
    if (openPages.includes(section)) return next();
    try {
      const auth = await staffAuthFromCookieHeader(deps, req.headers.cookie);
      if (!auth) {
        const back = req.originalUrl === '/admin' ? '' : `?next=${encodeURIComponent(req.originalUrl)}`;
        return res.redirect(302, `/admin/login${back}`);
      }
      if (auth.twoFactor !== 'ok') return res.redirect(302, '/admin/two-factor');
      const allowed = (consolePages as Record<string, readonly string[] | undefined>)[section as ConsolePage];
      if (section === '' || (allowed && !allowed.includes(auth.identity.user.role))) {
        return res.redirect(302, homePathFor(auth.identity.user.role));
      }
      next();
    } catch (error) {
      next(error);
    }
  };
}
