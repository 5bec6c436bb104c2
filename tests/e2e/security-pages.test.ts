import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manageMessages } from '../../src/shared/manage-booking.ts';
import { axeViolations, openBrowser, type Browser } from './browser.ts';

/**
 * Error answers a visitor can land on, in a real browser (tests/security has
 * the HTTP-level checks): the friendly pages with honest statuses, accessible.
 */
describe('error pages in the browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await openBrowser();
  });
  afterAll(() => browser.close());

  it('an unknown manage link → 404 with the friendly manage page; an undecodable URL → 400 with the branded Not Found page; both pass axe', async () => {
    const { page } = browser;
    const unknown = await page.goto(`/booking/${'A'.repeat(43)}`);
    expect(unknown!.status()).toBe(404);
    await page.getByText(manageMessages.notFound).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    const malformed = await page.goto('/%E0%A4%A');
    expect(malformed!.status()).toBe(400);
    await page.getByRole('heading', { name: 'Page Not Found', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Return to Home' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    // Only the statuses themselves (the documents' 404 and 400, the manage query's 404): no script error, no hydration mismatch.
    expect(browser.errors.filter((e) => !e.startsWith('Failed to load resource'))).toEqual([]);
  });
});
