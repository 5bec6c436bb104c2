import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Express, NextFunction, Request as ExpressRequest, Response } from 'express';
import express from 'express';
import type { ViteDevServer } from 'vite';
import type { PublicConfig } from '../../shared/public-config.ts';
import type { Deps } from '../deps.ts';
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
    app.use(express.static(clientDir, { index: false, maxAge: '1h' }));
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

  app.get('/{*path}', async (req: ExpressRequest, res: Response, next: NextFunction) => {
    try {
      const nonce = (res.locals.cspNonce as string | undefined) ?? randomBytes(16).toString('base64');
      const [template, render] = await Promise.all([loadTemplate(req.originalUrl), loadRender()]);
      const result = await render(toFetchRequest(req, deps.config.publicUrl), {
        origin: deps.config.publicUrl,
        nonce,
        publicConfig,
      });
      if (result.redirect) return res.redirect(result.status, result.redirect);
      if (result.status === 404) deps.log.warn({ path: redactPath(req.path) }, 'page not found');
      const html = template
        // Function replacers: page text may contain "$&" or "$$", which string replacements would interpret.
        .replace('<!--app-head-->', () => result.head)
        .replace('<!--app-html-->', () => result.html)
        .replace('<!--app-config-->', () => `<script nonce="${nonce}">window.__PUBLIC_CONFIG__=${configJson}</script>`)
        .replaceAll('<script type="module"', `<script nonce="${nonce}" type="module"`);
      res.status(result.status).type('html').send(html);
    } catch (error) {
      vite?.ssrFixStacktrace(error as Error);
      next(error);
    }
  });

  return async () => {
    await vite?.close();
  };
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
