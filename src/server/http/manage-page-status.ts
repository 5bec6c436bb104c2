import { Router } from 'express';
import type { Deps } from '../deps.ts';
import { consumeRate, type RateRule } from '../rate-limit.ts';
import { manageTokenSchema } from '../../shared/manage-booking.ts';
import { customerLinkBooking } from '../features/access/service.ts';

/**
 * GET /booking/:token with a token no booking has: the same friendly page
 * ("We could not find this booking…", rendered by the page itself) but with
 * status 404, so the answer is honest to crawlers, link checkers and caches.
 * The lookup shares the manage link's per-address limit: past it, the status
 * is left alone (the page's own call answers 429), so the status is no
 * cheaper oracle than the API.
 */
/** `rate`: the manage link's per-address rule (features/manage-booking/router.ts `manageRate`). */
export function managePageStatus(deps: Deps, rate: RateRule): Router {
  const routes = Router();
  routes.get('/booking/:token', async (req, res, next) => {
    try {
      const token = req.params.token;
      const wellFormed = manageTokenSchema.safeParse(token).success;
      if (!wellFormed) {
        res.locals.pageStatus = 404;
        return next();
      }
      const { allowed } = await consumeRate(deps, rate, req.ip ?? 'unknown');
      if (allowed && !(await customerLinkBooking(deps.db, token))) res.locals.pageStatus = 404;
      next();
    } catch (error) {
      next(error);
    }
  });
  return routes;
}
