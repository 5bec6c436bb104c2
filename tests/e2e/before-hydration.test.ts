import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { staffAccounts } from './console.ts';
import { holdEntryScript, openBrowser, type Browser } from './browser.ts';

/**
 * What a visitor does before a page's scripts have hydrated it is held and done once
 * they have, never lost nor sent by the browser as plain HTML
 * (docs/decisions/056-actions-before-hydration.md). The entry script is held back
 * until the action has been made, as a slow phone would.
 */
const pdf = path.resolve('tests/fixtures/sample.pdf');

describe('actions before hydration', () => {
  let browser: Browser;
  beforeEach(async () => {
    browser = await openBrowser();
  });
  afterEach(() => browser.close());

  it('a sign-in submitted before hydration never puts the password in the address, and signs in once hydrated', async () => {
    const { page, errors } = browser;
    const addresses: string[] = [];
    page.on('request', (request) => addresses.push(request.url()));
    const release = await holdEntryScript(page);
    await page.goto('/admin/login', { waitUntil: 'commit' });
    const account = staffAccounts().staff;
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByLabel('Password').press('Enter');
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(await page.locator('html[data-hydrated]').count()).toBe(0);
    expect(new URL(page.url()).search).toBe('');

    await release();
    // The held submission is made by the page's own handler: signed in, into the console.
    await page.waitForURL((url) => url.pathname !== '/admin/login');
    expect(addresses.filter((url) => url.includes('password') || url.includes(encodeURIComponent(account.email)))).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("the wizard's Continue to Booking pressed before hydration moves on once it has", async () => {
    const { page, errors } = browser;
    const release = await holdEntryScript(page);
    await page.goto('/schedule', { waitUntil: 'commit' });
    await page.getByLabel('Choose files').setInputFiles([pdf]);
    await page.getByRole('button', { name: 'Continue to Booking' }).click();
    expect(await page.locator('html[data-hydrated]').count()).toBe(0);

    await release();
    await page.getByRole('heading', { level: 2, name: 'Select Date & Time' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('a visitor who scrolled down before hydration stays there once the page hydrates', async () => {
    const { page, errors } = browser;
    const release = await holdEntryScript(page);
    await page.goto('/business-solutions', { waitUntil: 'commit' });
    const form = page.getByRole('form', { name: 'Business inquiry form' });
    await form.scrollIntoViewIfNeeded();
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(200);

    await release();
    await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
    // Where the visitor is, the form's code loads (it waits until the form nears the viewport).
    await page.locator('form[data-hydrated]').waitFor();
    expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
    expect(errors).toEqual([]);
  });
});
