import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRoutes, type Manifest } from '../../src/build/route-chunks.ts';
import { serverHtmlRoutes } from '../../src/client/server-html.ts';
import { axeViolations, baseUrl, firstLoadScripts, openBrowser, type Browser } from './browser.ts';
import { blogPosts } from './public-pages.ts';

/**
 * Marketing pages that hydrate as their server HTML (src/client/server-html.ts,
 * docs/decisions/051): the first load runs the entry alone — not the page's module —
 * the page's DOM is the server's, and what a visitor does on it still works.
 */

/** Issue 16, goal 4: 100 KB of gzipped JavaScript on a marketing page's first load (decision 051). */
const firstLoadLimit = 100 * 1024;

const article = `/blog/${blogPosts[0]!.slug}`;
const samples: Array<{ path: string; route: string }> = [
  { path: '/terms-of-service', route: '/terms-of-service' },
  { path: '/sitemap', route: '/sitemap' },
  { path: '/blog', route: '/blog' },
  { path: article, route: '/blog/:slug' },
  { path: '/remote-notarization', route: '/remote-notarization' },
  // Fade-ins, "Learn More" and the forms as islands: public-site.test.ts and contact.test.ts.
  { path: '/', route: '/' },
  { path: '/business-solutions', route: '/business-solutions' },
];

/** Fade-ins (reveal-observer.ts) hide and show sections by class; the rest of the DOM must be the server's. */
const withoutReveals = (html: string) =>
  html
    .replace(/ data-reveal="[a-z]+"/g, '')
    .replace(/ style="transition-delay: \d+ms;"/g, '')
    .replace(/ (?:translate-y-6|opacity-0|transition-\[opacity,translate\]|duration-700|ease-out)(?=[ "])/g, '');

const clientDir = path.join(process.cwd(), 'dist/client');
const manifest = JSON.parse(readFileSync(path.join(clientDir, '.vite/manifest.json'), 'utf8')) as Manifest;
const routeModules = new Map(readRoutes(readFileSync('src/client/routes.tsx', 'utf8')).map((r) => [r.route, r.module]));

describe('marketing pages hydrated as their server HTML', () => {
  let browser: Browser;
  let noScript: Browser;
  beforeAll(async () => {
    browser = await openBrowser();
    noScript = await openBrowser({ javaScriptEnabled: false });
  });
  afterAll(async () => {
    await browser.close();
    await noScript.close();
  });

  for (const { path: pagePath, route } of samples) {
    it(`${pagePath}: first load within the limit, without the page's module; the server's DOM kept; no errors`, async () => {
      expect(serverHtmlRoutes.has(route)).toBe(true);
      const { page, errors } = browser;
      const errorsBefore = errors.length;
      const scripts = await firstLoadScripts(page, pagePath);
      const hydratedMain = await page.locator('#main').evaluate((main) => main.outerHTML);

      const gzipped = [...scripts].reduce((sum, file) => sum + gzipSync(readFileSync(path.join(clientDir, file)), { level: 6 }).length, 0);
      expect(gzipped).toBeLessThanOrEqual(firstLoadLimit);
      const pageModule = manifest[routeModules.get(route)!]!.file;
      expect([...scripts]).not.toContain(`/${pageModule}`);

      // The same DOM as the server's HTML, read by a browser that runs no script.
      await noScript.page.goto(pagePath);
      expect(withoutReveals(hydratedMain)).toBe(withoutReveals(await noScript.page.locator('#main').evaluate((main) => main.outerHTML)));
      expect(errors.slice(errorsBefore)).toEqual([]);
    });
  }

  it('links in the page, header and footer navigate client-side; the next page renders from its module; the chat button works', async () => {
    const { page, errors } = browser;
    const errorsBefore = errors.length;
    await page.goto('/terms-of-service');
    await page.locator('html[data-hydrated]').waitFor();
    // Survives client-side navigations only.
    await page.evaluate(() => ((window as { stayed?: boolean }).stayed = true));
    const stayed = () => page.evaluate(() => (window as { stayed?: boolean }).stayed === true);

    // A link inside the server HTML (the breadcrumb), by keyboard.
    await page.locator('#main nav[aria-label="Breadcrumb"] a').focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/');
    expect(await stayed()).toBe(true);
    await page.getByRole('heading', { level: 1 }).waitFor();

    // The footer (server HTML in the browser too) and the header.
    await page.locator('footer').getByRole('link', { name: 'Privacy Policy' }).click();
    await page.waitForURL('**/privacy-policy');
    await expect.poll(() => page.title()).toContain('Privacy Policy');
    await page.locator('header nav[aria-label="Main"]').getByRole('link', { name: 'Blog' }).click();
    await page.waitForURL((url) => url.pathname === '/blog');
    await expect.poll(() => page.title()).toContain('Blog');
    // The header stays server HTML; its controller marks the page's own link (header-controller.ts).
    const mainNav = page.locator('header nav[aria-label="Main"]');
    const current = () => mainNav.locator('a[aria-current="page"]').allTextContents();
    await expect.poll(current).toEqual(['Blog']);
    await page.goBack();
    await page.waitForURL('**/privacy-policy');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toContain('Privacy Policy');
    await expect.poll(current).toEqual([]);
    expect(await stayed()).toBe(true);

    await page.getByTestId('chat-launcher').click();
    await page.getByRole('dialog', { name: 'Chat with NotaryOnline' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(errors.slice(errorsBefore)).toEqual([]);
  });

  it("an article's share buttons hydrate as an island when they come near; FAQ answers open; axe finds nothing", async () => {
    const { page, errors, context } = browser;
    const errorsBefore = errors.length;
    await page.goto(article);
    await page.locator('html[data-hydrated]').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Copy link' }).scrollIntoViewIfNeeded();
    const articleUrl = `${baseUrl()}${article}`;
    await expect.poll(() => page.getByRole('link', { name: /Share on LinkedIn/ }).getAttribute('href')).toContain(encodeURIComponent(articleUrl));
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() });
    await page.getByRole('button', { name: 'Copy link' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(articleUrl);
    await expect.poll(() => page.getByText('Link copied').first().isVisible()).toBe(true);

    await page.goto('/remote-notarization');
    await page.locator('html[data-hydrated]').waitFor();
    const question = page.locator('#main details').first();
    await question.locator('summary').click();
    expect(await question.evaluate((details) => (details as HTMLDetailsElement).open)).toBe(true);
    expect(errors.slice(errorsBefore)).toEqual([]);
  });
});
