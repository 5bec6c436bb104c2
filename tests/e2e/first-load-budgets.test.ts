import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, baseUrl, firstLoadScripts, holdEntryScript, openBrowser, type Browser } from './browser.ts';

/**
 * First-load budgets measured in a real browser (docs/decisions/040-first-load-budgets.md):
 * the console's sign-in page loads without the console — no tRPC client, React
 * Query, superjson or Zod — and the console arrives after signing in.
 */
describe('first-load budgets', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await openBrowser();
  });
  afterAll(() => browser.close());

  it('/admin/login: ≤ 110 KB of gzipped JavaScript, none of the console\'s libraries, usable and accessible', async () => {
    const { page, errors } = browser;
    const files = new Set<string>();
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (req.resourceType() === 'script' && url.origin === baseUrl()) files.add(url.pathname);
    });
    await page.goto('/admin/login', { waitUntil: 'networkidle' });
    await page.locator('html[data-hydrated]').waitFor();
    const clientDir = path.join(process.cwd(), 'dist/client');
    const code = [...files].map((file) => readFileSync(path.join(clientDir, file)));
    const gzipped = code.reduce((sum, source) => sum + gzipSync(source, { level: 6 }).length, 0);
    expect(gzipped).toBeLessThanOrEqual(110 * 1024);
    const all = code.map((c) => c.toString('utf8')).join('\n');
    for (const marker of ['No QueryClient set', 'superjson', 'ZodError', 'trpc-accept']) expect(all, marker).not.toContain(marker);

    // A wrong password shows the server's message, from the light client.
    await page.getByLabel('Email').fill('nobody@example.com');
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText('Incorrect email or password.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
  });

  // Docs/decisions/050: the page names every script its first load runs, so none waits for the entry to run first.
  it('/schedule: every script of the first load is announced in the HTML at low priority', async () => {
    const { page, errors } = browser;
    const errorsBefore = errors.length;
    const html = await (await fetch(new URL('/schedule', baseUrl()), { headers: { 'Accept-Encoding': 'br' } })).text();
    const announced = new Map<string, string>();
    for (const tag of html.match(/<(?:script[^>]* type="module"|link rel="modulepreload")[^>]*>/g) ?? []) {
      const url = /(?:src|href)="([^"]+)"/.exec(tag)?.[1];
      if (url) announced.set(url, tag);
    }
    const loaded = await firstLoadScripts(page, '/schedule');
    expect(loaded.size).toBeGreaterThan(3);
    // The route's own chunks are among them: more than the entry's.
    expect(announced.size).toBeGreaterThan(4);
    for (const file of loaded) expect([...announced.keys()], file).toContain(file);
    for (const tag of announced.values()) expect(tag).toContain('fetchpriority="low"');
    expect(errors.slice(errorsBefore)).toEqual([]);
  });

  // Docs/decisions/055: a page hydrated as its server HTML carries the style rules its HTML uses,
  // names the whole sheet and its scripts in the inline loader at the end of its body, and asks
  // for them only once it has been painted.
  for (const pagePath of ['/cookie-policy', '/blog/how-remote-online-notarization-works', '/']) {
    it(`${pagePath}: only its critical styles inline; the whole sheet and the scripts asked for after the first contentful paint`, async () => {
      const { page, errors } = browser;
      const errorsBefore = errors.length;
      const html = await (await fetch(new URL(pagePath, baseUrl()), { headers: { 'Accept-Encoding': 'br' } })).text();
      const head = html.slice(0, html.indexOf('</head>'));
      expect(head).not.toMatch(/<script[^>]* type="module"|rel="modulepreload"|rel="preload"|rel="stylesheet"/);
      const listed = JSON.parse(/\}\)\((\["[^\]]+\])\)<\/script>\s*<\/body>/.exec(html)?.[1] ?? '[]') as string[];
      const [sheet, ...scripts] = listed;
      expect(sheet).toMatch(/^\/assets\/index-[\w-]+\.css$/);
      expect(scripts.at(-1)).toMatch(/^\/assets\/index-[\w-]+\.js$/);
      const inline = /<style>([\s\S]*?)<\/style>/.exec(head)?.[1] ?? '';
      const whole = readFileSync(path.join(process.cwd(), 'dist/client', sheet!), 'utf8');
      expect(inline.length).toBeGreaterThan(1000);
      expect(inline.length).toBeLessThan(whole.length * 0.7);

      const loaded = await firstLoadScripts(page, pagePath);
      expect([...loaded].sort()).toEqual([...scripts].sort());
      const timing = await page.evaluate(() => ({
        paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
        assets: performance
          .getEntriesByType('resource')
          .filter((entry) => /\/assets\/.*\.(js|css)$/.test(entry.name))
          .map((entry) => entry.startTime),
        sheets: [...document.styleSheets].map((styleSheet) => styleSheet.href && new URL(styleSheet.href).pathname),
      }));
      expect(timing.assets.length).toBe(listed.length);
      for (const start of timing.assets) expect(start).toBeGreaterThan(timing.paint);
      expect(timing.sheets).toContain(sheet);
      expect(errors.slice(errorsBefore)).toEqual([]);
    });
  }

  it('a marketing page at an address too long for the page cache (its scripts allowed by nonce) hydrates too', async () => {
    const { page, errors } = browser;
    const errorsBefore = errors.length;
    const response = await page.goto(`/remote-notarization?utm_campaign=${'x'.repeat(300)}`);
    expect(response?.headers()['content-security-policy']).toContain("'nonce-");
    await page.locator('html[data-hydrated]').waitFor();
    expect(errors.slice(errorsBefore)).toEqual([]);
  });

  it("the home page's illustration is downloaded where it is shown (from 1024 px), not on a phone", async () => {
    const phone = await openBrowser({ width: 390, height: 844 });
    try {
      const images: string[] = [];
      phone.page.on('request', (req) => {
        if (req.resourceType() === 'image') images.push(new URL(req.url()).pathname);
      });
      await phone.page.goto('/', { waitUntil: 'networkidle' });
      expect(images.filter((file) => file.startsWith('/images/'))).toEqual([]);
    } finally {
      await phone.close();
    }
    const { page } = browser;
    await page.goto('/');
    const hero = page.locator('section').first().locator('picture img');
    await expect.poll(() => hero.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 1)).toBe(true);
    expect(await hero.evaluate((img: HTMLImageElement) => new URL(img.currentSrc).pathname)).toBe('/images/hero-illustration.svg');
  });

  it('a click on the menu before the page has hydrated is held and given to it once it has', async () => {
    const context = await openBrowser({ width: 390, height: 844 });
    try {
      const { page } = context;
      // The entry waits until the click has been made.
      const release = await holdEntryScript(page);
      await page.goto('/remote-notarization');
      await page.getByRole('button', { name: 'Open menu' }).click();
      // Its name changes once it has opened the menu.
      const menu = page.locator('header button[aria-controls]');
      expect(await page.locator('html[data-hydrated]').count()).toBe(0);
      await release();
      await page.locator('html[data-hydrated]').waitFor();
      await expect.poll(() => menu.getAttribute('aria-expanded')).toBe('true');
    } finally {
      await context.close();
    }
  });
});
