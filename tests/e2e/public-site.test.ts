import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { axeViolations, baseUrl, openBrowser, type Browser } from './browser.ts';
import { blogPosts } from './public-pages.ts';

let browser: Browser | undefined;
afterEach(async () => {
  // Hydration and every interaction must leave the console clean.
  const errors = browser?.errors ?? [];
  await browser?.close();
  browser = undefined;
  expect(errors).toEqual([]);
});

async function open(options: Parameters<typeof openBrowser>[0] = {}) {
  browser = await openBrowser(options);
  return browser.page;
}

/** The page is hydrated once React has attached its handlers: wait for the network to settle. */
async function visit(page: Page, url: string) {
  const response = await page.goto(url, { waitUntil: 'networkidle' });
  return response!;
}

const sectionTop = (page: Page, id: string) => page.evaluate((sid) => document.getElementById(sid)!.getBoundingClientRect().top, id);

describe('header', () => {
  it('turns translucent only after more than 20 px of scroll', async () => {
    const page = await open();
    await visit(page, '/');
    const header = page.locator('header[data-scrolled]');
    const look = () =>
      header.evaluate((el) => {
        const style = getComputedStyle(el);
        return { scrolled: el.getAttribute('data-scrolled'), background: style.backgroundColor, shadow: style.boxShadow };
      });
    const atTop = await look();
    expect(atTop.scrolled).toBe('false');
    expect(atTop.shadow).toBe('none');
    expect(atTop.background).not.toMatch(/0\.8\)$/);

    await page.evaluate(() => window.scrollTo(0, 15));
    await page.waitForTimeout(100);
    expect((await look()).scrolled).toBe('false');

    await page.evaluate(() => window.scrollTo(0, 400));
    await expect.poll(async () => (await look()).scrolled).toBe('true');
    // The colour eases over 300 ms; it settles on white at 80 % opacity.
    await expect.poll(async () => (await look()).background).toMatch(/[ ,/]\s*0\.8\)$/);
    await expect.poll(async () => (await look()).shadow).not.toBe('none');

    await page.evaluate(() => window.scrollTo(0, 0));
    await expect.poll(async () => (await look()).scrolled).toBe('false');
  });

  it('shows the header links in the spec order with the Schedule button', async () => {
    const page = await open();
    await visit(page, '/blog');
    const nav = page.getByRole('navigation', { name: 'Main' });
    const links = await nav.getByRole('link').evaluateAll((els) => els.map((e) => [e.textContent?.trim(), e.getAttribute('href')]));
    expect(links).toEqual([
      ['Home', '/'],
      ['Services', '/#services'],
      ['How It Works', '/#process'],
      ['Blog', '/blog'],
      ['About', '/#about'],
      ['Contact', '/#contact'],
      ['Schedule a Notary', '/schedule'],
    ]);
  });

  it('has a mobile menu at 375 px that opens and closes', async () => {
    const page = await open({ width: 375, height: 740 });
    await visit(page, '/blog');
    await expect.poll(() => page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
    const mobileNav = page.locator('#mobile-menu');
    expect(await mobileNav.isVisible()).toBe(false);

    await toggle.click();
    const close = page.getByRole('button', { name: 'Close menu' });
    expect(await close.getAttribute('aria-expanded')).toBe('true');
    expect(await close.getAttribute('aria-controls')).toBe('mobile-menu');
    for (const name of ['Home', 'Services', 'How It Works', 'Blog', 'About', 'Contact', 'Schedule a Notary']) {
      expect(await mobileNav.getByRole('link', { name, exact: true }).isVisible(), name).toBe(true);
    }
    await close.click();
    await expect.poll(() => mobileNav.isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Open menu' }).isVisible()).toBe(true);

    // Escape closes it too and gives focus back to the toggle.
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => mobileNav.isVisible()).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-controls'))).toBe('mobile-menu');
  });

  it('on the home page, anchor links in the mobile menu scroll to the section and close the menu', async () => {
    const page = await open({ width: 375, height: 740 });
    await visit(page, '/');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.locator('#mobile-menu').getByRole('link', { name: 'Contact' }).click();
    await expect.poll(() => page.locator('#mobile-menu').isVisible()).toBe(false);
    // Contact is the page's last section: the smooth scroll there is long (as in the desktop test below).
    await expect.poll(() => sectionTop(page, 'contact'), { timeout: 5000 }).toBeLessThan(120);
    expect(new URL(page.url()).pathname).toBe('/');
  });

  it('scrolls smoothly to sections and back to the top on the home page', async () => {
    const page = await open();
    await visit(page, '/');
    const nav = page.getByRole('navigation', { name: 'Main' });

    await nav.getByRole('link', { name: 'How It Works' }).click();
    // Smooth: shortly after the click the page is on its way, not there yet.
    await page.waitForTimeout(50);
    const during = await sectionTop(page, 'process');
    await expect.poll(() => sectionTop(page, 'process'), { timeout: 5000 }).toBeLessThan(100);
    expect(during).toBeGreaterThan(100);
    expect(await sectionTop(page, 'process')).toBeGreaterThanOrEqual(0);

    await nav.getByRole('link', { name: 'About' }).click();
    await expect.poll(() => sectionTop(page, 'about'), { timeout: 5000 }).toBeLessThan(100);

    await nav.getByRole('link', { name: 'Home' }).click();
    await expect.poll(() => page.evaluate(() => window.scrollY), { timeout: 5000 }).toBe(0);

    await page.getByRole('button', { name: 'Learn More' }).click();
    await expect.poll(() => sectionTop(page, 'services'), { timeout: 5000 }).toBeLessThan(100);
  });

  it('jumps without animation when the visitor prefers reduced motion', async () => {
    const page = await open({ reducedMotion: 'reduce' });
    await visit(page, '/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contact' }).click();
    // No smooth scrolling: the section is in place on the next frame.
    await page.waitForTimeout(50);
    expect(await sectionTop(page, 'contact')).toBeLessThan(100);
  });

  it('from another page, an anchor link goes to the home page section', async () => {
    const page = await open();
    await visit(page, '/blog');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Services' }).click();
    await page.waitForURL((url) => url.pathname === '/' && url.hash === '#services');
    await expect.poll(() => sectionTop(page, 'services'), { timeout: 5000 }).toBeLessThan(100);
  });

  it('starts every new page at the top', async () => {
    const page = await open();
    await visit(page, '/remote-notarization');
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' }).click();
    await page.waitForURL('**/privacy-policy');
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });
});

describe('home page', () => {
  it('shows the price from the server configuration and fades cards in as they scroll into view', async () => {
    const html = await (await fetch(`${baseUrl()}/`)).text();
    // Nothing is hidden in the server's HTML: without JavaScript every card is visible.
    // (The inlined style sheet defines the class; no element may carry it.)
    const markup = html.replace(/<style[^>]*>[\s\S]*?<\/style>/g, '');
    expect(markup).toContain('id="process"');
    expect(markup).not.toContain('opacity-0');

    const page = await open({ height: 700 });
    await visit(page, '/');
    expect(await page.getByText('Best Value!').isVisible()).toBe(true);
    expect(await page.getByText('$25.00', { exact: true }).isVisible()).toBe(true);

    const steps = page.locator('#process li');
    expect(await steps.count()).toBe(4);
    await expect.poll(() => steps.first().getAttribute('data-reveal')).toBe('hidden');
    expect(await steps.first().evaluate((el) => getComputedStyle(el).opacity)).toBe('0');

    await page.locator('#process').scrollIntoViewIfNeeded();
    await expect.poll(() => steps.last().getAttribute('data-reveal')).toBe('revealing');
    const delays = await steps.evaluateAll((els) => els.map((e) => (e as HTMLElement).style.transitionDelay));
    expect(delays).toEqual(['0ms', '120ms', '240ms', '360ms']);
    await expect.poll(() => steps.last().evaluate((el) => getComputedStyle(el).opacity), { timeout: 3000 }).toBe('1');
  });

  it('downloads the contact form code only when the visitor gets near the form', async () => {
    const page = await open();
    const scripts: string[] = [];
    page.on('request', (req) => {
      if (req.resourceType() === 'script') scripts.push(new URL(req.url()).pathname);
    });
    await visit(page, '/');
    // The server-rendered form is there from the start...
    expect(await page.locator('#contact form').count()).toBeGreaterThan(0);
    expect(scripts.filter((s) => s.includes('contact-form'))).toEqual([]);
    // ...and its code arrives when the section comes into reach.
    await page.locator('#contact').scrollIntoViewIfNeeded();
    await expect.poll(() => scripts.some((s) => s.includes('contact-form'))).toBe(true);
    await page.waitForLoadState('networkidle');
    expect(await page.locator('#contact form').count()).toBeGreaterThan(0);
  });

  it('does not animate cards under prefers-reduced-motion', async () => {
    const page = await open({ reducedMotion: 'reduce', height: 700 });
    await visit(page, '/');
    const states = await page.locator('[data-reveal]').evaluateAll((els) => els.map((e) => e.getAttribute('data-reveal')));
    expect(states.length).toBeGreaterThanOrEqual(10);
    expect(new Set(states)).toEqual(new Set(['static']));
  });
});

describe('blog', () => {
  it('paginates: Load More, then numbered pages with Previous and no Next on the last page', async () => {
    const page = await open();
    await visit(page, '/blog');
    const cards = page.locator('#main ul.grid > li');
    expect(await cards.count()).toBe(6);
    for (const chip of ['Notarization', 'E-Signatures', 'Legal Tips', 'Document Security', 'Industry News', 'Technology']) {
      expect(await page.getByRole('list', { name: 'Topics we write about' }).getByText(chip, { exact: true }).count()).toBe(1);
    }
    expect(await page.getByRole('navigation', { name: 'Blog pages' }).count()).toBe(0);

    await page.getByRole('link', { name: 'Load More Articles' }).click();
    await page.waitForURL('**/blog?page=2');
    await expect.poll(() => cards.count()).toBe(blogPosts.length - 6);
    expect(await page.getByRole('link', { name: 'Load More Articles' }).count()).toBe(0);
    const pagination = page.getByRole('navigation', { name: 'Blog pages' });
    expect(await pagination.getByRole('link', { name: 'Previous' }).isVisible()).toBe(true);
    expect(await pagination.getByRole('link', { name: 'Next' }).count()).toBe(0);
    expect(await pagination.getByRole('link', { name: 'Page 2' }).getAttribute('aria-current')).toBe('page');
    expect(await pagination.getByRole('link', { name: 'Page 1' }).isVisible()).toBe(true);
    await expect.poll(() => page.title()).toContain('page 2');

    await pagination.getByRole('link', { name: 'Previous' }).click();
    await page.waitForURL((url) => url.pathname === '/blog' && url.search === '');
    await expect.poll(() => cards.count()).toBe(6);
    expect(await page.getByRole('link', { name: 'Load More Articles' }).isVisible()).toBe(true);
  });

  it('opens an article with its details, working share links and a way back', async () => {
    const post = blogPosts[0]!;
    const page = await open();
    await visit(page, '/blog');
    await page.getByRole('link', { name: post.title }).click();
    await page.waitForURL(`**/blog/${post.slug}`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(post.title);
    await expect.poll(() => page.title()).toContain(post.title);
    const main = page.locator('#main');
    const header = await main.locator('article > header').textContent();
    for (const text of [post.category, post.author, post.readTime]) expect(header, text).toContain(text);
    for (const tag of post.tags) expect(await main.getByRole('listitem').filter({ hasText: tag }).count(), tag).toBeGreaterThan(0);
    const image = main.locator('article img').first();
    expect(await image.getAttribute('width')).toBe('1200');
    expect(await image.getAttribute('height')).toBe('675');

    const articleUrl = encodeURIComponent(`${baseUrl()}/blog/${post.slug}`);
    await expect.poll(() => page.getByRole('link', { name: /Share on LinkedIn/ }).getAttribute('href')).toContain(articleUrl);
    expect(await page.getByRole('link', { name: /Share on X/ }).getAttribute('href')).toContain(articleUrl);
    expect(await page.getByRole('link', { name: /Share on Facebook/ }).getAttribute('href')).toContain(articleUrl);
    expect(await page.getByRole('link', { name: /Share by email/ }).getAttribute('href')).toMatch(/^mailto:\?subject=/);
    await browser!.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() });
    await page.getByRole('button', { name: 'Copy link' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseUrl()}/blog/${post.slug}`);
    await expect.poll(() => page.getByText('Link copied').first().isVisible()).toBe(true);

    expect(await page.getByRole('link', { name: 'Schedule a Notary' }).last().getAttribute('href')).toBe('/schedule');
    await page.getByRole('link', { name: 'Back to Blog' }).click();
    await page.waitForURL((url) => url.pathname === '/blog');
  });

  it('loads an article body only when that article is opened', async () => {
    const page = await open();
    const scripts: string[] = [];
    page.on('response', async (res) => {
      if (res.request().resourceType() === 'script') scripts.push(await res.text().catch(() => ''));
    });
    await visit(page, '/blog');
    // A sentence from the body of one article.
    expect(scripts.join('\n')).not.toContain('The single most common reason a notarization cannot go ahead');
  });
});

describe('not found', () => {
  it('shows Page Not Found with a way home for unknown paths and unknown articles', async () => {
    const page = await open();
    for (const url of ['/no-such-page', '/blog/no-such-article']) {
      const response = await visit(page, url);
      expect(response.status()).toBe(404);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Page Not Found');
    }
    await page.getByRole('link', { name: 'Return to Home' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Get Your Documents Notarized Online');
    // A fresh install: the real hours, and none of the claims only on-demand notaries working 24/7 would make true.
    expect(await page.getByTestId('service-hours').textContent()).toContain('Notaries are available every day 8:00 AM–11:00 PM (Central Time).');
    const hero = await page.locator('main section').first().textContent();
    for (const claim of ['24/7', 'in minutes', 'No appointments']) expect(hero).not.toContain(claim);
    // The 404 page logs the missing path (console.warn); that is not an error.
    browser!.errors.splice(0);
  });
});

describe('footer', () => {
  it('has the spec links and every footer link resolves', async () => {
    const page = await open();
    await visit(page, '/');
    const footer = page.getByRole('contentinfo');
    const hrefs = await footer.locator('a[href^="/"]').evaluateAll((els) => [...new Set(els.map((e) => e.getAttribute('href')!))]);
    for (const required of ['/terms-of-service', '/privacy-policy', '/cookie-policy', '/accessibility', '/sitemap', '/admin/chat']) {
      expect(hrefs).toContain(required);
    }
    expect(await footer.getByRole('link', { name: 'Admin Chat' }).getAttribute('href')).toBe('/admin/chat');
    for (const href of hrefs) {
      const res = await fetch(`${baseUrl()}${href}`);
      if (href.startsWith('/admin')) {
        expect(res.status, href).not.toBe(404);
        expect(res.status, href).toBeLessThan(500);
      } else {
        expect(res.status, href).toBe(200);
      }
    }
    expect(await footer.getByRole('link', { name: /@/ }).first().getAttribute('href')).toMatch(/^mailto:/);
    expect(await footer.getByText(/© \d{4}/).isVisible()).toBe(true);
  });
});

describe('verify a notarized document', () => {
  it('at 375 px: a dropped PDF is hashed in the browser and reported intact, changed or unknown; the code alone works too — axe clean', async () => {
    const act = inject('verifiableAct');
    const page = await open({ width: 375, height: 800 });
    // The file never leaves the browser: every request body stays small.
    const bodies: number[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') bodies.push(request.postDataBuffer()?.length ?? 0);
    });
    await visit(page, '/');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Verify a Document' }).click();
    await page.waitForURL('**/verify');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Verify a notarized document');
    expect(await axeViolations(page)).toEqual([]);

    const check = async (file: string | null, code: string) => {
      if (file) await page.getByLabel('Notarized PDF').setInputFiles(file);
      await page.getByLabel(/^Verification code/).fill(code);
      await page.getByRole('button', { name: 'Check document' }).click();
      const result = page.locator('#verify-result');
      await result.waitFor();
      // Focus moves to the result, so a screen reader reads it next.
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('verify-result');
      return page.locator('section[data-outcome]');
    };

    const intact = await check(act.file, '');
    expect(await intact.getByRole('heading').textContent()).toBe('This document is intact');
    const facts = await intact.textContent();
    for (const fact of ['Nia Notary', 'IA-424242', 'Iowa', '2030-01-31', 'Jurat', 'PAdES B-B (basic signature; the signing time is our server clock)', act.code]) expect(facts).toContain(fact);
    // Nothing of the signer.
    expect(facts).not.toContain('Vera');
    expect(await axeViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    // One byte changed: the code printed in the file still names the act, the hash does not match.
    const changed = Buffer.from(readFileSync(act.file));
    changed.writeUInt8(changed[12]! ^ 1, 12);
    const changedFile = act.file.replace(/\.pdf$/, '-changed.pdf');
    writeFileSync(changedFile, changed);
    const outcome = await check(changedFile, '');
    expect(await outcome.getByRole('heading').textContent()).toBe('This document was changed after it was notarized');
    expect(await outcome.textContent()).toContain('Nia Notary');
    expect(await axeViolations(page)).toEqual([]);

    // A PDF we never sealed.
    const unknown = await check(path.resolve('tests/fixtures/sample.pdf'), '');
    expect(await unknown.getByRole('heading').textContent()).toBe('We have no record of this document');
    expect(await axeViolations(page)).toEqual([]);
    expect(Math.max(...bodies)).toBeLessThan(2048);

    // A mistyped code gets a message on its field and changes nothing.
    await page.getByLabel(/^Verification code/).fill('not-a-code');
    await page.getByRole('button', { name: 'Check document' }).click();
    await expect.poll(() => page.locator('#verify-code-error').textContent()).toBe('A verification code has 12 letters and digits, like ABCD-EFGH-JKMN.');
    expect(await page.getByLabel(/^Verification code/).getAttribute('aria-invalid')).toBe('true');

    // The link printed on the document checks its code on arrival; typed by keyboard it works the same.
    await visit(page, `/verify?code=${act.code}`);
    await page.locator('#verify-result').waitFor();
    expect(await page.locator('#verify-result').textContent()).toBe('This document is intact');
    await visit(page, '/verify');
    await page.getByLabel(/^Verification code/).focus();
    await page.keyboard.type(act.code.toLowerCase());
    await page.keyboard.press('Enter');
    await page.locator('#verify-result').waitFor();
    expect(await page.locator('#verify-result').textContent()).toBe('This document is intact');
  });
});

describe('performance budget', () => {
  it('keeps the home page first-load JavaScript within budget, without booking, payment, chat, admin or React Query code', async () => {
    const page = await open();
    const files = new Set<string>();
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (req.resourceType() === 'script' && url.origin === baseUrl()) files.add(url.pathname);
    });
    await visit(page, '/');
    const clientDir = path.join(process.cwd(), 'dist/client');
    let gzipped = 0;
    const code: string[] = [];
    for (const file of files) {
      const source = readFileSync(path.join(clientDir, file));
      gzipped += gzipSync(source, { level: 9 }).length;
      code.push(source.toString('utf8'));
    }
    console.info(`JS on first load of /: ${files.size} files, ${(gzipped / 1024).toFixed(1)} KB gzipped`);
    // Target (issue 2): 100 KB. React 19's react-dom (~64 KB) and React Router 7 (~28 KB) alone
    // are ~95 KB gzipped; the Radix toaster, tailwind-merge and Zod are kept off this load (see
    // docs/decisions/014-public-site-content-pipeline.md). This ceiling catches regressions.
    expect(gzipped).toBeLessThanOrEqual(116 * 1024);
    for (const file of files) expect(file).not.toMatch(/schedule|admin|chat-(page|widget)|stripe|manage-booking|socket/);
    const all = code.join('\n');
    expect(all).not.toContain('No QueryClient set');
    expect(all).not.toContain('js.stripe.com');
  });
});
