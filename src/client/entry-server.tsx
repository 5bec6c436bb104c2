import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import {
  createStaticHandler,
  createStaticRouter,
  isRouteErrorResponse,
  StaticRouterProvider,
} from 'react-router-dom';
import type { PublicConfig } from '../shared/public-config.ts';
import { renderHeadTags, resolveMeta } from './lib/meta.ts';
import { PublicConfigProvider } from './lib/public-config.tsx';
import { loadRouteError, routes } from './routes.tsx';

export interface RenderResult {
  status: number;
  /** Set when a loader redirected. */
  redirect?: string;
  head: string;
  html: string;
}

const handler = createStaticHandler(routes);

/** Renders one page to HTML with its head tags; the router's data goes along for hydration. */
export async function render(
  request: Request,
  options: { origin: string; /** Absent for public pages: their inline scripts are allowed by hash (see http/page-cache.ts). */ nonce?: string; publicConfig: PublicConfig },
): Promise<RenderResult> {
  const [context] = await Promise.all([handler.query(request), loadRouteError()]);
  if (context instanceof Response) {
    return { status: context.status, redirect: context.headers.get('Location') ?? '/', head: '', html: '' };
  }
  const router = createStaticRouter(handler.dataRoutes, context);
  const html = renderToString(
    <StrictMode>
      <PublicConfigProvider value={options.publicConfig}>
        <StaticRouterProvider router={router} context={context} nonce={options.nonce} />
      </PublicConfigProvider>
    </StrictMode>,
  );
  const errors = Object.values(context.errors ?? {});
  const is404 = errors.some((e) => isRouteErrorResponse(e) && e.status === 404);
  const meta = resolveMeta(context.matches as never, context.loaderData, is404, options.publicConfig);
  return { status: context.statusCode, head: renderHeadTags(meta, options.origin, options.nonce), html };
}
