import { createExpressMiddleware } from '@trpc/server/adapters/express';
import compression from 'compression';
import express, { type Express, type Request, type Response } from 'express';
import type { TRPCError } from '@trpc/server';
import type { Deps } from './deps.ts';
import { healthRoutes, type Readiness } from './http/health.ts';
import { requestLog } from './http/request-log.ts';
import { builtFiles, mountPages } from './http/pages.ts';
import { mountSeo } from './http/seo.ts';
import { csrfProtection } from './http/csrf.ts';
import { staffDocumentsRouter } from './http/staff-documents.ts';
import { manageDocumentsRouter } from './http/manage-documents.ts';
import { manageRate } from './features/manage-booking/router.ts';
import { managePageStatus } from './http/manage-page-status.ts';
import { calendarRoutes } from './http/calendar.ts';
import { adminPagesGuard } from './http/admin-pages.ts';
import { rateLimit } from './http/rate-limit.ts';
import { nonceSource, noStoreForPrivatePaths, securityHeaders } from './http/security.ts';
import { mountStripeWebhook } from './http/stripe-webhook.ts';
import { uploadRoutes } from './http/uploads.ts';
import { appRouter, fastLaneProcedures } from './router.ts';
import type { Context } from './trpc.ts';
import { trpcFastLane } from './http/trpc-fast-lane.ts';
import { mountContactFormPosts } from './http/contact-forms.ts';
import { bodyLimit, bodyLimits } from './http/body-limit.ts';
import { errorResponder } from './http/errors.ts';
import { trpcMaxBatchSize } from '../shared/trpc-limits.ts';
import { sessionRecordingRoutes } from './http/session-recordings.ts';
import { actHttpRoutes } from './http/notarial-act.ts';

export interface App {
  app: Express;
  /** Set `draining` during shutdown: /readyz answers 503 so the load balancer moves traffic away. */
  readiness: Readiness;
  close(): Promise<void>;
}

/** The Express app: the middleware order, top to bottom, is the request's path. */
export async function createApp(deps: Deps, options: { pages?: 'development' | 'production' | false } = {}): Promise<App> {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.config.TRUST_PROXY);
  // Built scripts, styles, fonts and images: only the headers that apply to a file (see builtFiles).
  if (options.pages === 'production') app.use(builtFiles());

  // Assets and the load balancer's health probes would drown the request log.
  app.use(requestLog(deps.log, { quiet: (url) => /^\/(assets\/|healthz|readyz)/.test(url) }));
  const nonce = nonceSource();
  app.use((_req, res, next) => {
    res.locals.cspNonce = nonce();
    next();
  });
  app.use(securityHeaders(deps.config, { development: options.pages === 'development' }));
  app.use(noStoreForPrivatePaths);
  app.use(compression());

  const readiness: Readiness = { draining: false, watchdogs: [], stuckAfterMs: deps.config.LIVENESS_STUCK_SECONDS * 1000 };
  app.use(healthRoutes(deps, readiness));

  // Stripe signs the raw bytes: this route reads its own body, before any parser touches it.
  mountStripeWebhook(app, deps);

  // Forged cross-site writes are refused before any handler runs (the signed Stripe webhook is exempt).
  app.use(['/trpc', '/api'], csrfProtection({ publicUrl: deps.config.publicUrl }));
  const trpcContext = ({ req, res }: { req: Request; res: Response }): Context => ({ deps, req, res, requestId: String(req.id) });
  const onTrpcError = ({ error, path }: { error: TRPCError; path?: string }) => {
    if (error.code === 'INTERNAL_SERVER_ERROR') deps.log.error({ err: error, path }, 'tRPC procedure failed');
  };
  // tRPC before the /api routes: none of them answers under /trpc, and the busiest calls skip their matching.
  app.use(
    '/trpc',
    bodyLimit(bodyLimits.trpc),
    // The busiest public calls skip the adapter's request/response conversion (decision 053).
    trpcFastLane({ router: appRouter, procedures: fastLaneProcedures, createContext: trpcContext, onError: onTrpcError, maxBodySize: bodyLimits.trpc }),
    createExpressMiddleware({
      router: appRouter,
      // Chunked bodies carry no length for bodyLimit to check: tRPC stops reading at the same limit.
      maxBodySize: bodyLimits.trpc,
      // Each call in a batch pays its own rate limit; the batch itself is bounded too.
      maxBatchSize: trpcMaxBatchSize,
      createContext: trpcContext,
      onError: onTrpcError,
    }),
  );

  app.use(staffDocumentsRouter(deps));
  app.use(uploadRoutes(deps));
  app.use(sessionRecordingRoutes(deps));
  // Token-bearing downloads (.ics, the customer's documents) share the manage link's per-address limit.
  app.use(['/api/bookings', '/api/manage'], rateLimit(deps, manageRate));
  app.use(calendarRoutes(deps));
  app.use(manageDocumentsRouter(deps));
  // Identity photos (TEST MODE), the sealed PDF, ID images for the notary, the journal export.
  app.use(actHttpRoutes(deps));
  // The contact forms posted by the browser itself (before the page's script has loaded).
  mountContactFormPosts(app, deps);

  app.use(adminPagesGuard(deps));
  app.use(managePageStatus(deps, manageRate));
  mountSeo(app, deps);
  const pages = options.pages ? await mountPages(app, deps, options.pages) : null;
  app.use(errorResponder(pages?.renderErrorPage));

  return { app, readiness, close: pages?.close ?? (async () => {}) };
}
