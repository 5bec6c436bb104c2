import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, openBrowser, sidewaysOverflow, type Browser } from './browser.ts';
import { publicPaths } from './public-pages.ts';

/** Scrolls through the page so every fade-in has finished before axe looks at colours. */
async function settle(page: Page) {
  await page.evaluate(async () => {
    for (let y = 0; y < document.body.scrollHeight; y += window.innerHeight / 2) {
      window.scrollTo(0, y);
      await new Promise((r) => setTimeout(r, 40));
    }
    window.scrollTo(0, 0);
  });
  await page.waitForFunction(() => [...document.querySelectorAll('[data-reveal]')].every((el) => getComputedStyle(el).opacity === '1'));
}

describe.each([
  { width: 1280, height: 900 },
  { width: 375, height: 740 },
])('axe on every public route at $width px', ({ width, height }) => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await openBrowser({ width, height });
  });
  afterAll(async () => {
    await browser.close();
  });

  const phone = width < 768;
  it.each([...publicPaths, '/no-such-page'])(phone ? '%s has no violations and does not scroll sideways' : '%s has no violations', async (path) => {
    const { page } = browser;
    await page.goto(path, { waitUntil: 'networkidle' });
    await settle(page);
    expect(await axeViolations(page)).toEqual([]);
    // On a phone no public page may scroll sideways (issue 15 item 2; the console's pages: no-sideways-scroll.test.ts).
    if (phone) expect(await sidewaysOverflow(page)).toBeNull();
  });

  if (phone) {
    it('the open mobile menu has no violations', async () => {
      const { page } = browser;
      await page.goto('/', { waitUntil: 'networkidle' });
      await page.getByRole('button', { name: 'Open menu' }).click();
      expect(await axeViolations(page)).toEqual([]);
    });
  }
});
