import type { RequestHandler } from 'express';

/**
 * Cross-site request forgery guard for state-changing requests (see
 * docs/decisions: CSRF). The staff cookie is SameSite=Lax, which already keeps
 * it off cross-site POSTs in current browsers; this is the second, explicit
 * layer that does not depend on cookie behaviour:
 * - `Sec-Fetch-Site` (sent by every current browser) must be same-origin
 *   (or `none`: typed by the user);
 * - otherwise `Origin`, when present, must be our own origin;
 * - tRPC mutations must be `application/json`, a type no HTML form can send
 *   and no cross-site fetch can send without a CORS preflight we never grant.
 * Requests without either header are not from a browser page and carry no
 * ambient credentials worth forging. Signed webhooks are exempt.
 */
const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const exemptPaths = ['/api/stripe/webhook'];

export const csrfRefusedMessage = 'Cross-site request refused.';

export function csrfProtection(options: { publicUrl: string }): RequestHandler {
  const configuredOrigin = new URL(options.publicUrl).origin;
  return (req, res, next) => {
    if (!unsafeMethods.has(req.method)) return next();
    const path = req.originalUrl.split('?')[0] ?? '';
    if (exemptPaths.includes(path)) return next();

    const site = req.get('sec-fetch-site');
    const origin = req.get('origin');
    const ownOrigin = `${req.protocol}://${req.get('host')}`;
    const crossSite =
      (site !== undefined && site !== 'same-origin' && site !== 'none') ||
      (origin !== undefined && origin !== configuredOrigin && origin !== ownOrigin);
    if (crossSite) {
      req.log?.warn({ origin, secFetchSite: site, path }, 'cross-site request refused');
      res.status(403).json({ error: csrfRefusedMessage });
      return;
    }
    if (path.startsWith('/trpc') && req.method === 'POST' && !req.is('application/json')) {
      res.status(415).json({ error: 'Requests must be sent as application/json.' });
      return;
    }
    next();
  };
}
