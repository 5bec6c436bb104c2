import { Router } from 'express';
import type { Deps } from '../deps.ts';
import { customerLinkBooking } from '../features/access/service.ts';
import { findBooking } from '../features/booking/service.ts';
import { bookingCalendar } from '../features/notifications/events.ts';
import { isUuid } from '../../shared/ids.ts';

/**
 * GET /api/bookings/:id/calendar.ics[?token=<manage token>] — 'Add to
 * Calendar'. Who may download it: the wizard, whose handle on its booking is
 * the (random, unguessable) booking id, once that booking is confirmed; or
 * the holder of the booking's private manage link.
 */
export function calendarRoutes(deps: Deps): Router {
  const routes = Router();
  routes.get('/api/bookings/:id/calendar.ics', async (req, res, next) => {
    try {
      const id = req.params.id;
      const token = typeof req.query.token === 'string' ? req.query.token : undefined;
      const booking = isUuid(id) ? await findBooking(deps.db, id) : null;
      const tokenMatches = token ? (await customerLinkBooking(deps.db, token)) === id : false;
      const allowed = booking?.startsAt && booking.status === 'confirmed' && (token === undefined || tokenMatches);
      if (!booking?.startsAt || !allowed) {
        res.status(404).json({ error: 'Booking not found' });
        return;
      }
      const manageUrl = tokenMatches ? `${deps.config.publicUrl}/booking/${token}` : undefined;
      const { ics, filename } = bookingCalendar(deps, { id: booking.id, reference: booking.reference, startsAt: booking.startsAt, calendarSequence: booking.calendarSequence }, { manageUrl });
      res.setHeader('Content-Type', 'text/calendar; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
      res.setHeader('Cache-Control', 'no-store');
      res.send(ics);
    } catch (error) {
      next(error);
    }
  });
  return routes;
}
