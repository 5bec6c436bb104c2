import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openBrowser, type Browser } from './browser.ts';

const laterSteps = /\/assets\/(booking|contact|payment|confirm)-step-[\w-]+\.js$/;

/** The wizard's first load carries the Documents step only; the next step's code arrives as the visitor works. */
describe('booking wizard first load', () => {
  let browser: Browser;
  beforeEach(async () => {
    browser = await openBrowser();
  });
  afterEach(() => browser.close());

  it('fetches the later steps only once the visitor works in the Documents step', async () => {
    const { page, errors } = browser;
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.goto('/schedule');
    await page.getByRole('heading', { level: 2, name: 'Upload Documents' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(requested.filter((url) => laterSteps.test(url))).toEqual([]);

    // Pointing at the step: the Booking step (calendar and slot grid) is fetched meanwhile.
    await page.getByRole('heading', { level: 2, name: 'Upload Documents' }).hover();
    await expect.poll(() => requested.filter((url) => /\/assets\/booking-step-[\w-]+\.js$/.test(url)).length).toBe(1);
    expect(requested.filter((url) => /\/assets\/(payment|confirm)-step-/.test(url))).toEqual([]);
    expect(errors).toEqual([]);
  });
});
