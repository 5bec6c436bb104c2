import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { brotliCompressSync } from 'node:zlib';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import type { Express, NextFunction, Request as ExpressRequest, RequestHandler, Response } from 'express';
import express from 'express';
import sirv from 'sirv';
import type { ViteDevServer } from 'vite';
import type { PublicConfig } from '../../shared/public-config.ts';
import type { ErrorPageRenderer } from './errors.ts';
import { businessTimeZone } from '../../shared/time.ts';
import type { Deps } from '../deps.ts';
import {
  chooseEncoding,
  createPageCache,
  etagFor,
  inlineScripts,
  isCacheablePage,
  notModified,
  scriptHash,
  type CachedPage,
  type PageCache,
} from './page-cache.ts';
import { createCriticalStyles } from './critical-styles.ts';
import { holdUntilHydratedScript } from './hold-until-hydrated.ts';
import { loadRoutePreloads, type RoutePreloader } from './route-preloads.ts';
import { redactPath } from './security.ts';
import { describeServiceHours, type ServiceHours } from '../../shared/service-hours.ts';
import { currentServiceHours, onAvailabilityChanged, watchAvailability } from '../features/availability/service.ts';
import { onDemandOffered } from '../features/on-demand/service.ts';

type RenderFn = (typeof import('../../client/entry-server.tsx'))['render'];

/**
 * The built client's files: hashed assets (cached for a year) and public files
 * (favicon, images; every one has an extension, so page paths skip the
 * file-system lookup, and the raw template is never served as a file). Only a
 * path whose first segment is in the built folder is looked up: tRPC paths
 * (`/trpc/slots.list`) have an extension too, and a file-system miss per call
 * was a sixth of slots.list's time.
 *
 * Mounted before the request log and the security headers: a script, style
 * sheet, font or image is never a document, so the document policies (CSP,
 * Permissions-Policy, frame options, referrer policy, HSTS, cross-origin
 * opener policy, request id) do not apply to it — about 1.4 KB per asset.
 * What does apply: nosniff (a script or style must be served as one) and
 * Cross-Origin-Resource-Policy (other sites may not embed our files). An SVG
 * opened directly is a document: it gets a policy with no scripts at all.
 */
export function builtFiles(root = process.cwd()): RequestHandler {
  const clientDir = path.join(root, 'dist/client');
  const setHeaders = (res: ServerResponse, filePath: string) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    if (filePath.endsWith('.svg')) res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
  };
  // Hashed names: a year, immutable. Brotli/gzip bodies were made at build time
  // (src/build/precompress-plugin.ts); sirv picks the one the browser accepts.
  const assets = sirv(path.join(clientDir, 'assets'), {
    brotli: true,
    gzip: true,
    etag: false,
    setHeaders: (res, pathname) => {
      setHeaders(res, pathname);
      res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    },
  });
  const publicFiles = express.static(clientDir, { index: false, maxAge: '1h', setHeaders });
  const topLevel = new Set(builtEntries(clientDir));
  return (req, res, next) => {
    if (req.path.startsWith('/assets/')) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return next();
      const url = req.url;
      req.url = url.slice('/assets'.length);
      return assets(req, res, () => {
        req.url = url;
        res.status(404).type('text/plain').send('Not found');
      });
    }
    if (!/\.[a-z0-9]+$/i.test(req.path) || req.path === '/index.html') return next();
    if (!topLevel.has(req.path.slice(1).split('/', 1)[0]!)) return next();
    publicFiles(req, res, next);
  };
}

/** Names directly inside the built client folder (none before a build). */
function builtEntries(clientDir: string): string[] {
  try {
    return readdirSync(clientDir);
  } catch {
    return [];
  }
}

/**
 * Server rendering of every page. Development: Vite's middleware and
 * on-the-fly SSR modules. Production: the built client (hashed assets cached
 * for a year) and the built server bundle.
 */
export async function mountPages(
  app: Express,
  deps: Deps,
  mode: 'development' | 'production',
): Promise<{ close: () => Promise<void>; renderErrorPage: ErrorPageRenderer }> {
  const root = process.cwd();
  let vite: ViteDevServer | undefined;
  let loadRender: () => Promise<RenderFn>;
  let loadTemplate: (url: string) => Promise<string>;
  /** Public pages' template: the same, with the style sheet inline (see below). */
  let loadPublicTemplate: (url: string) => Promise<string>;
  /** Writes the matched route's `modulepreload` links into a template (production builds only). */
  let routePreloads: RoutePreloader = { apply: (template) => template, isServerHtml: () => false };
  /** A server-HTML page's inline sheet cut to its critical rules (production, when the sheet is inline; decision 055). */
  let criticalStyles: ((html: string) => Promise<string>) | undefined;

  if (mode === 'development') {
    const { createServer } = await import('vite');
    vite = await createServer({ root, server: { middlewareMode: true }, appType: 'custom' });
    app.use(vite.middlewares);
    const devServer = vite;
    loadTemplate = async (url) => devServer.transformIndexHtml(url, await readFile(path.join(root, 'index.html'), 'utf8'));
    loadPublicTemplate = loadTemplate;
    loadRender = async () => ((await devServer.ssrLoadModule('/src/client/entry-server.tsx')) as { render: RenderFn }).render;
  } else {
    const clientDir = path.join(root, 'dist/client');
    // Hashed assets and public files: served by builtFiles(), mounted first in app.ts.
    const template = await readFile(path.join(clientDir, 'index.html'), 'utf8');
    const entry = path.join(root, 'dist/server/entry-server.js');
    const { render } = (await import(entry)) as { render: RenderFn };
    const publicTemplate = withInlineStyles(template, clientDir);
    loadTemplate = async () => template;
    loadPublicTemplate = async () => publicTemplate;
    loadRender = async () => render;
    // With the sheet inline, a server-HTML page keeps only its critical rules and loads the whole sheet after its first paint.
    const inlined = publicTemplate === template ? undefined : stylesheetLink.exec(template)?.[1];
    routePreloads = loadRoutePreloads(clientDir, inlined && `/${inlined}`);
    if (inlined) criticalStyles = createCriticalStyles(clientDir);
  }

  const staticConfig: Omit<PublicConfig, 'serviceHours' | 'serviceHoursText' | 'onDemand'> = {
    baseFeeCents: deps.config.BOOKING_BASE_FEE_CENTS,
    extraDocumentFeeCents: deps.config.BOOKING_EXTRA_DOCUMENT_FEE_CENTS,
    extraSignerFeeCents: deps.config.BOOKING_EXTRA_SIGNER_FEE_CENTS,
    paymentsMode: deps.config.paymentsMode,
    stripePublishableKey: deps.config.STRIPE_PUBLISHABLE_KEY ?? null,
    businessTimeZone,
    holdMinutes: deps.config.BOOKING_HOLD_MINUTES,
    bookingWindowDays: deps.config.BOOKING_WINDOW_DAYS,
    documentRetentionDays: deps.config.DOCUMENT_RETENTION_DAYS,
    notarizedRetentionDays: notarizedRetentionDays(deps.config),
  };
  // The hours of service the pages state follow the notaries' hours (decision 096): read now,
  // and again (with every cached page forgotten) when they change here or on another node.
  const hoursConfig = (serviceHours: ServiceHours) => ({ serviceHours, serviceHoursText: describeServiceHours(serviceHours) });
  // "Notarize now", "in minutes", "no appointments": only while a notary is on duty (decision 110); the switch is in the watched signature.
  let publicConfig: PublicConfig = { ...staticConfig, ...hoursConfig(await currentServiceHours(deps)), onDemand: await onDemandOffered(deps) };
  let configJson = JSON.stringify(publicConfig).replace(/</g, '\\u003c');
  const stopListening = onAvailabilityChanged(() => {
    Promise.all([currentServiceHours(deps), onDemandOffered(deps)])
      .then(([serviceHours, onDemand]) => {
        publicConfig = { ...publicConfig, ...hoursConfig(serviceHours), onDemand };
        configJson = JSON.stringify(publicConfig).replace(/</g, '\\u003c');
        cache?.clear();
        pending.clear();
      })
      .catch((error: unknown) => deps.log.error({ err: error }, 'could not read the hours of service'));
  });
  const watcher = watchAvailability(deps.db, 30_000, (error) => deps.log.warn({ err: error }, 'could not check the notaries’ hours'));

  // Production only: in development every edit must show on the next request.
  // Only 200s are kept, so unknown URLs (404s) never take a place; see decision 019.
  const cache: PageCache | undefined = mode === 'production' ? createPageCache({ maxEntries: 500, maxBytes: 32 * 1024 * 1024 }) : undefined;

  // Two requests for a page not yet cached render it once.
  const pending = new Map<string, Promise<CachedPage>>();

  app.get('/{*path}', async (req: ExpressRequest, res: Response, next: NextFunction) => {
    try {
      // Public pages (cacheable or not: a 404 at a public path too) are the same for
      // every visitor, so their inline scripts are allowed by hash, not by nonce.
      const hashed = isCacheablePage(req.method, req.path, req.originalUrl);
      const cacheable = cache !== undefined && hashed;
      if (cacheable) {
        const hit = cache.get(req.originalUrl) ?? (await pending.get(req.originalUrl));
        res.setHeader('X-Page-Cache', hit ? 'hit' : 'miss');
        if (hit) return sendCachedPage(req, res, hit);
      }
      const nonce = hashed ? undefined : ((res.locals.cspNonce as string | undefined) ?? randomBytes(16).toString('base64'));
      const generation = cache?.generation;
      const [template, render] = await Promise.all([(hashed ? loadPublicTemplate : loadTemplate)(req.originalUrl), loadRender()]);
      const result = await render(toFetchRequest(req, deps.config.publicUrl), {
        origin: deps.config.publicUrl,
        nonce,
        publicConfig,
      });
      if (result.redirect) return res.redirect(result.status, result.redirect);
      if (result.status === 404) deps.log.warn({ path: redactPath(req.path) }, 'page not found');
      const rendered = fillTemplate(routePreloads.apply(template, req.path), result, nonce);
      if (cacheable && result.status === 200) {
        const critical = criticalStyles && routePreloads.isServerHtml(req.path) ? criticalStyles : undefined;
        const stored = critical ? critical(rendered).then((page) => cache.set(req.originalUrl, result.status, page, generation)) : cache.set(req.originalUrl, result.status, rendered, generation);
        pending.set(req.originalUrl, stored);
        try {
          return sendCachedPage(req, res, await stored);
        } finally {
          pending.delete(req.originalUrl);
        }
      }
      if (hashed) allowScripts(res, inlineScripts(rendered).map(scriptHash));
      // A route may know better than the page (an unknown manage token: the friendly page, with 404).
      sendHtml(res, (res.locals.pageStatus as number | undefined) ?? result.status, rendered);
    } catch (error) {
      vite?.ssrFixStacktrace(error as Error);
      next(error);
    }
  });

  /** The rendered page in the template; scripts carry `nonce` when given (without one, cached pages' are allowed by hash). */
  function fillTemplate(template: string, result: { head: string; html: string }, nonce: string | undefined): string {
    const nonceAttribute = nonce ? ` nonce="${nonce}"` : '';
    return (
      template
        // Function replacers: page text may contain "$&" or "$$", which string replacements would interpret.
        .replace('<!--app-head-->', () => result.head)
        .replace('<!--app-html-->', () => result.html)
        .replace('<!--app-config-->', () => `<script${nonceAttribute}>window.__PUBLIC_CONFIG__=${configJson};${holdUntilHydratedScript}</script>`)
        .replaceAll('<script type="module"', `<script${nonceAttribute} type="module"`)
    );
  }

  /** The Not Found page under another status (a URL that cannot be decoded is a 400), never cached. */
  const renderErrorPage: ErrorPageRenderer = async (_req, res, status) => {
    const nonce = (res.locals.cspNonce as string | undefined) ?? randomBytes(16).toString('base64');
    const [template, render] = await Promise.all([loadTemplate('/'), loadRender()]);
    const result = await render(new Request(new URL('/not-found', deps.config.publicUrl)), { origin: deps.config.publicUrl, nonce, publicConfig });
    res.setHeader('Cache-Control', 'no-store');
    sendHtml(res, status, fillTemplate(routePreloads.apply(template, '/not-found'), result, nonce));
  };

  return {
    close: async () => {
      stopListening();
      watcher.stop();
      await vite?.close();
    },
    renderErrorPage,
  };
}

/**
 * First paint of a public page without waiting for a style sheet: the whole
 * sheet goes inline when it is small enough (~7.5 KB brotli; the budget below).
 * Public pages only: they are compressed once and cached (decision 019); the
 * booking wizard and the console keep the linked, browser-cached sheet. A
 * server-HTML page then keeps only the rules its HTML uses and loads the whole
 * sheet after its first paint (critical-styles.ts, decision 055), so the page
 * fits the first ~14 KB a server may send before the browser acknowledges (TCP's
 * initial window). A sheet that outgrows the budget stays linked (and
 * render-blocking) rather than push the page's own bytes past the first window.
 */
const inlineStyleBudgetBytes = 9 * 1024;

const stylesheetLink = /<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/;

function withInlineStyles(template: string, clientDir: string): string {
  const link = stylesheetLink.exec(template);
  if (!link) return template;
  const file = path.join(clientDir, link[1]!);
  const css = readFileSync(file, 'utf8');
  if (css.includes('</style') || brotliSize(file, css) > inlineStyleBudgetBytes) return template;
  return template.replace(link[0], () => `<style>${css}</style>`);
}

/** The sheet's brotli size: the build's own .br beside it (no brotli-11 at start), else compressed now. */
function brotliSize(file: string, css: string): number {
  try {
    return statSync(`${file}.br`).size;
  } catch {
    return brotliCompressSync(css).length;
  }
}

/** Replaces the per-request nonce in the policy with the page's script hashes (same policy otherwise). */
function allowScripts(res: Response, hashes: string[]): void {
  const policy = res.getHeader('Content-Security-Policy');
  if (typeof policy !== 'string') return;
  res.setHeader('Content-Security-Policy', policy.replace(/\s*'nonce-[^']*'/, hashes.length > 0 ? ` ${hashes.join(' ')}` : ''));
}

/**
 * A cached page: the same bytes for every visitor, in the encoding the browser
 * prefers (made when the page was cached), with a strong ETag per encoding and
 * 304 when the browser already holds it. Browsers revalidate on every visit
 * (no-cache), so a deploy shows at once.
 */
function sendCachedPage(req: ExpressRequest, res: Response, page: CachedPage): void {
  const encoding = chooseEncoding(req.headers['accept-encoding']);
  const etag = etagFor(page, encoding);
  allowScripts(res, page.scriptHashes);
  res.setHeader('Vary', 'Accept-Encoding');
  res.setHeader('ETag', etag);
  // no-transform: a deflate-only client gets the identity bytes its ETag names, not a re-encoding.
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  if (notModified(req.headers['if-none-match'], etag)) {
    res.status(304).end();
    return;
  }
  const body = encoding === 'br' ? page.br : encoding === 'gzip' ? page.gzip : page.identity;
  // Set before the compression middleware looks: it leaves an encoded body alone.
  if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
  sendHtml(res, page.status, body);
}

function sendHtml(res: Response, status: number, html: string | Buffer): void {
  res.status(status).type('html');
  res.setHeader('Content-Length', Buffer.byteLength(html));
  res.end(html);
}

function toFetchRequest(req: ExpressRequest, origin: string): Request {
  const controller = new AbortController();
  req.on('close', () => controller.abort());
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(key, value);
  }
  return new Request(new URL(req.originalUrl, origin), { method: 'GET', headers, signal: controller.signal });
}

/**
 * How long notarized copies are kept, as the public pages state it:
 * NOTARIZED_DOCUMENT_RETENTION_DAYS where the configuration has it, else its default (90).
 */
function notarizedRetentionDays(config: Deps['config']): number {
  return (config as Partial<Record<'NOTARIZED_DOCUMENT_RETENTION_DAYS', number>>).NOTARIZED_DOCUMENT_RETENTION_DAYS ?? 90;
}
