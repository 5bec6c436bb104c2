import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, openBrowser, type Browser } from './browser.ts';

/**
 * The contact form is in the server's HTML: a visitor can send it before the
 * page's script has loaded. The browser then posts it itself; the message
 * must be kept and the outcome shown with the spec's texts.
 */
describe('contact form before the page script has loaded', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await openBrowser({ javaScriptEnabled: false });
  });
  afterAll(() => browser?.close());

  it('is sent by the browser and confirmed with the spec texts', async () => {
    const { page } = browser;
    await page.goto(`${baseUrl()}/#contact`);
    const form = page.getByRole('form', { name: 'Contact form' });
    await form.getByLabel('Name').fill('Katherine Johnson');
    await form.getByLabel('Email').fill('katherine@example.com');
    await form.getByLabel('Message').fill('Do you notarize vehicle title transfers?');
    await Promise.all([page.waitForURL(/\?contact=sent#contact$/), form.getByRole('button', { name: 'Send Message' }).click()]);
    const notice = page.getByRole('status').filter({ hasText: 'Message sent successfully!' });
    await notice.waitFor();
    expect(await notice.textContent()).toContain("We'll get back to you as soon as possible.");
  });

  it('shows the business confirmation after a plain post', async () => {
    const { page } = browser;
    await page.goto(`${baseUrl()}/business-solutions`);
    const form = page.getByRole('form', { name: 'Business inquiry form' });
    await form.getByLabel(/Full name/).fill('Dorothy Vaughan');
    await form.getByLabel(/Business email/).fill('dorothy@firm.example');
    await Promise.all([page.waitForURL(/inquiry=sent/), form.getByRole('button', { name: /Send/ }).click()]);
    await page.getByText('Our business team will reply within 24 hours on business days.').waitFor();
  });
});
