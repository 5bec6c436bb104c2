import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, openBrowser, type Browser } from './browser.ts';

describe('server-rendered pages', () => {
  it('serves the home page as HTML before any script runs', async () => {
    const res = await fetch(`${baseUrl()}/`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/<h1[^>]*>/);
    expect(html).toContain('<link rel="canonical"');
  });

  it('answers an unknown path with 404 and the Not Found page', async () => {
    const res = await fetch(`${baseUrl()}/no-such-page`);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('Page Not Found');
  });
});

describe('hydration', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await openBrowser();
  });
  afterAll(() => browser.close());

  it('hydrates without errors and navigates client-side', async () => {
    const { page, errors } = browser;
    await page.goto('/');
    await page.getByRole('link', { name: 'Admin Chat' }).waitFor();
    await page.getByRole('link', { name: 'Terms of Service' }).click();
    await page.waitForURL('**/terms-of-service');
    await expect.poll(() => page.title()).toContain('Terms of Service');
    expect(errors).toEqual([]);
  });
});
