import { bookingRouter, slotsRouter } from './features/booking/router.ts';
import { consoleRouter } from './features/console/router.ts';
import { contactRouter } from './features/contact/router.ts';
import { documentsRouter } from './features/documents/router.ts';
import { onDemandRouter } from './features/on-demand/router.ts';
import { manageBookingRouter } from './features/manage-booking/router.ts';
import { paymentsRouter } from './features/payments/router.ts';
import { refundRemovedSignerFee } from './features/payments/service.ts';
import { participantsRouter } from './features/participants/router.ts';
import { actRouter, manageActRouter } from './features/notarial-act/router.ts';
import { sessionRouter } from './features/session/router.ts';
import { staffRouter } from './features/staff/router.ts';
import { verificationRouter } from './features/verification/router.ts';
import { publicProcedure, router } from './trpc.ts';
import type { FastLaneProcedures } from './http/trpc-fast-lane.ts';

/**
 * The one root router: each feature adds its own router under its name.
 * Its type is what the client imports (types only).
 */
export const appRouter = router({
  health: publicProcedure.query(() => ({ ok: true as const })),
  contact: contactRouter,
  manageBooking: manageBookingRouter,
  staff: staffRouter,
  console: consoleRouter,
  booking: bookingRouter,
  onDemand: onDemandRouter,
  documents: documentsRouter,
  slots: slotsRouter,
  payments: paymentsRouter,
  act: actRouter,
  participants: participantsRouter(refundRemovedSignerFee),
  manageAct: manageActRouter,
  session: sessionRouter,
  verification: verificationRouter,
});

export type AppRouter = typeof appRouter;

/**
 * Answered by the tRPC fast lane (http/trpc-fast-lane.ts, decision 053): the
 * public calls every visitor's booking makes, each with its type.
 */
export const fastLaneProcedures = {
  'slots.list': 'query',
  'booking.hold': 'mutation',
} satisfies FastLaneProcedures;
