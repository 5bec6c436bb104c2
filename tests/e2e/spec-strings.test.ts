import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseUrl, openBrowser } from './browser.ts';

/**
 * Spec texts and figures checked on the built server, where the other suites
 * do not already: accessibility conformance wording, the remote-notarization
 * article's advice, marketing step counts and plans, the upload and time
 * messages in the wizard.
 */
async function html(pathname: string): Promise<string> {
  const response = await fetch(new URL(pathname, baseUrl()));
  expect(response.status, pathname).toBe(200);
  return (await response.text()).replace(/&#x27;|&#39;/g, "'");
}

// React separates the number from the text with a comment: 'Step <!-- -->1<!-- -->: '.
const stepCount = (page: string) => new Set(page.match(/<span class="sr-only">Step (<!-- -->)?\d+(<!-- -->)?: <\/span>/g) ?? []).size;

describe('spec texts on the built site', () => {
  it('the accessibility statement says partially conformant with WCAG 2.1 AA, feedback within 2 business days', async () => {
    const page = await html('/accessibility');
    expect(page).toContain('partially conformant with WCAG 2.1 Level AA');
    expect(page).toContain('within 2 business days');
  });

  it('the remote-notarization article suggests 1 Mbps and uploading 24 hours ahead', async () => {
    const page = await html('/blog/how-remote-online-notarization-works');
    expect(page).toContain('at least 1 Mbps');
    expect(page).toContain('uploaded 24 hours ahead');
  });

  it('marketing pages have the spec step counts', async () => {
    expect(stepCount(await html('/electronic-signatures'))).toBe(3);
    expect(stepCount(await html('/remote-notarization'))).toBe(4);
    expect(stepCount(await html('/identity-verification'))).toBe(4);
    expect(stepCount(await html('/'))).toBe(4);
  });

  it('document management shows the three plans, sells none of them (no accounts yet: a waiting list), and says how long copies are kept', async () => {
    const page = await html('/document-management');
    for (const text of ['Personal Documents', '5GB', 'Business Pro', '50GB', 'Enterprise', 'Unlimited storage', 'Contact Sales', 'Join the waiting list', 'Notarized copies: 90 days', '30 days after your booking ends']) {
      expect(page, text).toContain(text);
    }
    // Issue 30: no price for a plan that cannot be bought, nothing "saved to your account automatically".
    for (const text of ['$9.99', '$29.99', '/month', 'saved to your account', 'Get Started']) expect(page, text).not.toContain(text);
  });

  it('identity verification links its use cases to the four pages of the spec', async () => {
    const page = await html('/identity-verification');
    for (const href of ['/remote-notarization', '/electronic-signatures', '/schedule', '/business-solutions']) {
      expect(page, href).toContain(`href="${href}"`);
    }
  });
});

describe('spec messages in the wizard', () => {
  it('rejects a file over 10 MB by name, keeps the others, and asks for both a date and a time', async () => {
    const { page, errors, close } = await openBrowser();
    try {
      await page.goto('/schedule');
      await page.getByRole('heading', { level: 2, name: 'Upload Documents' }).waitFor();
      await page.getByLabel('Choose files').setInputFiles([
        { name: 'scan.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(10_485_761) },
        { name: 'sample.pdf', mimeType: 'application/pdf', buffer: readFileSync(path.resolve('tests/fixtures/sample.pdf')) },
      ]);
      await page.getByText('scan.pdf exceeds the maximum file size of 10MB.', { exact: true }).first().waitFor();
      await page.getByRole('button', { name: 'Remove sample.pdf' }).waitFor();
      expect(await page.getByRole('button', { name: 'Remove scan.pdf' }).count()).toBe(0);

      await page.getByRole('button', { name: 'Continue to Booking' }).click();
      await page.getByRole('heading', { level: 2, name: 'Select Date & Time' }).waitFor();
      await page.getByText('Documents uploaded successfully!', { exact: true }).waitFor();
      await page.getByText('1 document(s) uploaded successfully!', { exact: true }).waitFor();
      await page.getByText('Please select both a date and time', { exact: true }).waitFor();
      expect(await page.getByRole('button', { name: 'Continue', exact: true }).isDisabled()).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
