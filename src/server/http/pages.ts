import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Express, NextFunction, Request as ExpressRequest, Response } from 'express';
import express from 'express';
import type { ViteDevServer } from 'vite';
import type { PublicConfig } from '../../shared/public-config.ts';
import type { Deps } from '../deps.ts';
import { createPageCache, isCacheablePage, pageWithNonce, type PageCache } from './page-cache.ts';
import { redactPath } from './security.ts';

type RenderFn = (typeof import('../../client/entry-server.tsx'))['render'];

/**
 * Server rendering of every page. Development: Vite's middleware and
 * on-the-fly SSR modules. Production: the built client (hashed assets cached
 * for a year) and the built server bundle.
 */
export async function mountPages(app: Express, deps: Deps, mode: 'development' | 'production'): Promise<() => Promise<void>> {
  const root = process.cwd();
  let vite: ViteDevServer | undefined;
  let loadRender: () => Promise<RenderFn>;
  let loadTemplate: (url: string) => Promise<string>;

  if (mode === 'development') {
    const { createServer } = await import('vite');
    vite = await createServer({ root, server: { middlewareMode: true }, appType: 'custom' });
    app.use(vite.middlewares);
    const devServer = vite;
    loadTemplate = async (url) => devServer.transformIndexHtml(url, await readFile(path.join(root, 'index.html'), 'utf8'));
    loadRender = async () => ((await devServer.ssrLoadModule('/src/client/entry-server.tsx')) as { render: RenderFn }).render;
  } else {
    const clientDir = path.join(root, 'dist/client');
    app.use(
      '/assets',
      express.static(path.join(clientDir, 'assets'), { immutable: true, maxAge: '1y', index: false, fallthrough: false }),
    );
    // Public files (favicon, images) all have an extension: page paths skip the
    // file-system lookup, and the raw template is never served as a file.
    const publicFiles = express.static(clientDir, { index: false, maxAge: '1h' });
    app.use((req, res, next) => {
      if (!/\.[a-z0-9]+$/i.test(req.path) || req.path === '/index.html') return next();
      publicFiles(req, res, next);
    });
    const template = await readFile(path.join(clientDir, 'index.html'), 'utf8');
    const entry = path.join(root, 'dist/server/entry-server.js');
    const { render } = (await import(entry)) as { render: RenderFn };
    loadTemplate = async () => template;
    loadRender = async () => render;
  }

  const publicConfig: PublicConfig = {
    baseFeeCents: deps.config.BOOKING_BASE_FEE_CENTS,
    extraDocumentFeeCents: deps.config.BOOKING_EXTRA_DOCUMENT_FEE_CENTS,
    paymentsMode: deps.config.paymentsMode,
    stripePublishableKey: deps.config.STRIPE_PUBLISHABLE_KEY ?? null,
    businessTimeZone: 'America/Chicago',
    holdMinutes: deps.config.BOOKING_HOLD_MINUTES,
    bookingWindowDays: deps.config.BOOKING_WINDOW_DAYS,
  };
  const configJson = JSON.stringify(publicConfig).replace(/</g, '\\u003c');

  // Production only: in development every edit must show on the next request.
  // Only 200s are kept, so unknown URLs (404s) never take a place; see decision 019.
  const cache: PageCache | undefined = mode === 'production' ? createPageCache({ maxEntries: 500, maxBytes: 32 * 1024 * 1024 }) : undefined;

  app.get('/{*path}', async (req: ExpressRequest, res: Response, next: NextFunction) => {
    try {
      const nonce = (res.locals.cspNonce as string | undefined) ?? randomBytes(16).toString('base64');
      const cacheable = cache !== undefined && isCacheablePage(req.method, req.path, req.originalUrl);
      if (cacheable) {
        const hit = cache.get(req.originalUrl);
        res.setHeader('X-Page-Cache', hit ? 'hit' : 'miss');
        if (hit) return sendHtml(res, hit.status, pageWithNonce(hit, nonce));
      }
      const renderNonce = cacheable ? cache.placeholder : nonce;
      const [template, render] = await Promise.all([loadTemplate(req.originalUrl), loadRender()]);
      const result = await render(toFetchRequest(req, deps.config.publicUrl), {
        origin: deps.config.publicUrl,
        nonce: renderNonce,
        publicConfig,
      });
      if (result.redirect) return res.redirect(result.status, result.redirect);
      if (result.status === 404) deps.log.warn({ path: redactPath(req.path) }, 'page not found');
      const rendered = template
        // Function replacers: page text may contain "$&" or "$$", which string replacements would interpret.
        .replace('<!--app-head-->', () => result.head)
        .replace('<!--app-html-->', () => result.html)
        .replace('<!--app-config-->', () => `<script nonce="${renderNonce}">window.__PUBLIC_CONFIG__=${configJson}</script>`)
        .replaceAll('<script type="module"', `<script nonce="${renderNonce}" type="module"`);
      if (!cacheable) return sendHtml(res, result.status, rendered);
      if (result.status === 200) cache.set(req.originalUrl, result.status, rendered);
      sendHtml(res, result.status, rendered.replaceAll(cache.placeholder, nonce));
    } catch (error) {
      vite?.ssrFixStacktrace(error as Error);
      next(error);
    }
  });

  return async () => {
    await vite?.close();
  };
}

/**
 * Every page response differs by its nonce, so an ETag (a hash of the whole
 * page, per response) could never match: send without one.
 */
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
