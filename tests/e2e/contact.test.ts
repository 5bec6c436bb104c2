import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contactMessages } from '../../src/shared/contact.ts';
import { openBrowser, type Browser } from './browser.ts';
import { readMailbox, waitForMail } from './mailbox.ts';

describe('home contact form', () => {
  let browser: Browser;
  beforeEach(async () => {
    browser = await openBrowser();
  });
  afterEach(() => browser.close());

  it('sends: "Sending Message..." while busy, success toast, fields cleared, staff emailed', async () => {
    const { page, errors } = browser;
    // Hold the request a moment so the sending state can be seen.
    await page.route('**/trpc/contact.send**', async (route) => {
      await new Promise((r) => setTimeout(r, 600));
      await route.continue();
    });
    await page.goto('/#contact');
    const form = page.getByRole('form', { name: 'Contact form' });
    // This journey is about the script's path; the no-script post has its own test.
    await page.locator('form[data-hydrated]').waitFor();
    const name = `Mary Ann ${Date.now()}`;
    await form.getByLabel('Name').fill(name);
    await form.getByLabel('Email').fill('mary@example.com');
    await form.getByLabel('Phone (optional)').fill('(555) 201-3344');
    await form.getByLabel('Message').fill('Can you notarize a vehicle title this weekend?');
    await form.getByRole('button', { name: 'Send Message' }).click();

    const sending = form.getByRole('button', { name: contactMessages.sending });
    await sending.waitFor();
    expect(await sending.isDisabled()).toBe(true);

    await page.getByText(contactMessages.successTitle, { exact: true }).waitFor();
    await page.getByText(contactMessages.successDescription, { exact: true }).waitFor();
    for (const label of ['Name', 'Email', 'Phone (optional)', 'Message']) expect(await form.getByLabel(label).inputValue()).toBe('');
    expect(await form.getByRole('button', { name: 'Send Message' }).isEnabled()).toBe(true);

    const mail = await waitForMail((m) => m.headers.subject === `New contact message from ${name}`);
    expect(mail.headers.to).toContain('staff@');
    expect(mail.headers['reply-to']).toContain('mary@example.com');
    expect(mail.text).toContain('Can you notarize a vehicle title this weekend?');
    expect(errors).toEqual([]);
  });

  it('shows the destructive toast when the server fails, keeping what was typed', async () => {
    const { page } = browser;
    await page.route('**/trpc/contact.send**', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify([{ error: { json: { message: 'An unexpected error occurred', code: -32603, data: { code: 'INTERNAL_SERVER_ERROR', httpStatus: 500 } } } }]) }),
    );
    await page.goto('/#contact');
    const form = page.getByRole('form', { name: 'Contact form' });
    // This journey is about the script's path; the no-script post has its own test.
    await page.locator('form[data-hydrated]').waitFor();
    await form.getByLabel('Name').fill('Failing Frank');
    await form.getByLabel('Email').fill('frank@example.com');
    await form.getByLabel('Message').fill('Hello?');
    await form.getByRole('button', { name: 'Send Message' }).click();
    await page.getByText(contactMessages.failureTitle, { exact: true }).waitFor();
    await page.getByText(contactMessages.failureDescription, { exact: true }).waitFor();
    expect(await form.getByLabel('Message').inputValue()).toBe('Hello?');
    expect(await form.getByRole('button', { name: 'Send Message' }).isEnabled()).toBe(true);
  });

  it('asks for the required fields when the name is only spaces, sending nothing', async () => {
    const { page } = browser;
    let sent = false;
    await page.route('**/trpc/contact.send**', (route) => {
      sent = true;
      return route.continue();
    });
    await page.goto('/#contact');
    const form = page.getByRole('form', { name: 'Contact form' });
    // This journey is about the script's path; the no-script post has its own test.
    await page.locator('form[data-hydrated]').waitFor();
    await form.getByLabel('Name').fill('   ');
    await form.getByLabel('Email').fill('blank@example.com');
    await form.getByLabel('Message').fill('Hi');
    await form.getByRole('button', { name: 'Send Message' }).click();
    await page.getByText(contactMessages.missingTitle, { exact: true }).waitFor();
    await page.getByText(contactMessages.missingDescription, { exact: true }).waitFor();
    expect(sent).toBe(false);
  });
});

describe('business solutions form', () => {
  let browser: Browser;
  beforeEach(async () => {
    browser = await openBrowser();
  });
  afterEach(() => browser.close());

  it('sends the inquiry to sales and confirms a reply within 24 hours on business days', async () => {
    const { page, errors } = browser;
    await page.goto('/business-solutions');
    const form = page.getByRole('form', { name: 'Business inquiry form' });
    // The form's code loads when it nears the viewport.
    await form.scrollIntoViewIfNeeded();
    await page.locator('form[data-hydrated]').waitFor();
    const company = `Rivers Title ${Date.now()}`;
    await form.getByLabel('Full name').fill('Dee Rivers');
    await form.getByLabel('Business email').fill('dee@rivers.example');
    await form.getByLabel('Company (optional)').fill(company);
    await form.getByLabel('Phone (optional)').fill('555-010-2000');
    await form.getByLabel('What are you interested in? (optional)').selectOption('bulk');
    await form.getByLabel('Message (optional)').fill('About 500 closings a month.');
    await form.getByRole('button', { name: 'Send Inquiry' }).click();
    await page.getByRole('status').getByText(contactMessages.businessSuccessDescription).waitFor();

    const mail = await waitForMail((m) => m.headers.subject === `Business Solutions Inquiry from Dee Rivers at ${company}`);
    expect(mail.headers.to).toContain('sales@');
    for (const line of ['Name: Dee Rivers', 'Email: dee@rivers.example', `Company: ${company}`, 'Phone: 555-010-2000', 'Interest: Bulk Processing', 'Message: About 500 closings a month.']) {
      expect(mail.text).toContain(line);
    }
    expect(readMailbox().length).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  });
});
