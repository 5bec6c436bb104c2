import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdExpiredMessage } from '../../src/shared/booking.ts';
import { addDays, localDateOf, parseIsoDate, toIsoDate } from '../../src/shared/time.ts';
import { createTestDatabase } from '../helpers/db.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { bookingClient, putBytes } from '../integration/booking-helpers.ts';
import { pickDateTwoDaysAhead } from './wizard.ts';
import { axeViolations, baseUrl, holdEntryScript, openBrowser, type Browser } from './browser.ts';

/**
 * Wizard journeys off the happy path, in Chromium: a hold that lapses while
 * the visitor is on the way to paying, the payment step's error view, and the
 * per-file upload progress bar.
 */
const fixtures = path.resolve('tests/fixtures');
const pdf = path.join(fixtures, 'sample.pdf');

const stepHeading = (page: Page, name: string) => page.getByRole('heading', { level: 2, name });
const toastWith = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text }).or(page.locator('li', { hasText: text })).first();
const bookingIdOf = (page: Page) => new URL(page.url()).searchParams.get('booking')!;

/** Queues a file (even before hydration: the step takes it over) and waits until the step lists it. */
async function queueFile(page: Page, file: string) {
  await page.getByLabel('Choose files').setInputFiles([file]);
  await page.getByRole('button', { name: `Remove ${path.basename(file)}` }).waitFor();
}

/** A booking made through the API up to the Payment step (a document, a held slot two days ahead, contact details). */
async function bookingReadyToPay(url: string): Promise<string> {
  const api = bookingClient(url);
  const { bookingId } = await api.booking.start.mutate({ timeZone: 'America/Chicago' });
  const bytes = readFileSync(pdf);
  const { uploadUrl } = await api.documents.createUpload.mutate({ bookingId, fileName: 'sample.pdf', sizeBytes: bytes.length, contentType: 'application/pdf' });
  expect((await putBytes(url, uploadUrl, bytes, 'application/pdf')).status).toBe(201);
  const date = toIsoDate(addDays(parseIsoDate(localDateOf(new Date(), 'America/Chicago')), 2));
  const { slots } = await api.slots.list.query({ date, timeZone: 'America/Chicago' });
  const slot = slots.find((s) => s.available)!;
  await api.booking.hold.mutate({ bookingId, startsAt: slot.startsAt, timeZone: 'America/Chicago' });
  await api.booking.saveContact.mutate({ bookingId, firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '(555) 010-2030' });
  return bookingId;
}

/** Two days ahead in the page's calendar (unless a date is already chosen), then the first free time; on to Contact. */
async function chooseTime(page: Page, { pickDate = true } = {}) {
  if (pickDate) await pickChicagoDateTwoDaysAhead(page);
  const grid = page.getByTestId('slot-grid');
  await expect.poll(() => grid.locator('button:not([disabled])').count()).toBeGreaterThan(0);
  const slot = grid.locator('button:not([disabled])').first();
  await slot.click();
  await expect.poll(() => slot.getAttribute('aria-checked')).toBe('true');
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await stepHeading(page, 'Contact Information').waitFor();
}

async function pickChicagoDateTwoDaysAhead(page: Page) {
  await page.getByLabel('Time zone').selectOption('America/Chicago');
  await pickDateTwoDaysAhead(page);
}

describe('booking wizard: edge journeys', () => {
  describe.skipIf(!process.env.TEST_DATABASE_URL)('a lapsed hold (own server on PostgreSQL; skipped without TEST_DATABASE_URL)', () => {
    let database: Awaited<ReturnType<typeof createTestDatabase>>;
    let server: RunningServer;
    let sql: pg.Client;
    let browser: Browser;
    beforeAll(async () => {
      database = await createTestDatabase('postgres');
      server = await startServer({ DATABASE_URL: database.url! });
      sql = new pg.Client({ connectionString: database.url });
      await sql.connect();
      browser = await openBrowser();
    });
    afterAll(async () => {
      await browser?.close();
      await sql?.end();
      await server?.stop();
      await database?.close();
    });

    /** What 15 minutes of waiting would do: the hold ended a minute ago. */
    const lapseHold = async (bookingId: string) => {
      const res = await sql.query(`update bookings set hold_expires_at = now() - interval '1 minute' where id = $1 and hold_expires_at is not null`, [bookingId]);
      expect(res.rowCount).toBe(1);
    };

    it('sends the visitor back to the Booking step with the message, on the Payment step and after a reload', async () => {
      const { page, errors } = browser;
      await page.goto(`${server.url}/schedule`);
      await stepHeading(page, 'Upload Documents').waitFor();
      await queueFile(page, pdf);
      await page.getByRole('button', { name: 'Continue to Booking' }).click();
      await stepHeading(page, 'Select Date & Time').waitFor();
      await chooseTime(page);
      await page.getByLabel('First name').fill('Grace');
      await page.getByLabel('Last name').fill('Hopper');
      await page.getByLabel('Email').fill('grace@example.com');
      await page.getByLabel('Phone number').fill('(555) 010-2030');
      await page.getByRole('button', { name: 'Continue', exact: true }).click();
      await stepHeading(page, 'Payment Information').waitFor();
      await page.getByRole('button', { name: 'Pay Now' }).waitFor();
      const bookingId = bookingIdOf(page);

      // The hold lapses while the visitor looks back at their details, then returns to Payment.
      await page.getByRole('tab', { name: '3 Contact' }).click();
      await stepHeading(page, 'Contact Information').waitFor();
      await lapseHold(bookingId);
      await page.getByRole('tab', { name: '4 Payment' }).click();
      await toastWith(page, holdExpiredMessage).waitFor();
      await stepHeading(page, 'Select Date & Time').waitFor();
      expect(await page.getByRole('button', { name: 'Pay Now' }).count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);

      // The chosen date is still open: choosing a time again takes the visitor through to paying.
      await chooseTime(page, { pickDate: false });
      expect(await page.getByLabel('Email').inputValue()).toBe('grace@example.com');
      await page.getByRole('button', { name: 'Continue', exact: true }).click();
      await page.getByRole('button', { name: 'Pay Now' }).waitFor();

      // The same on coming back later (a reload after the hold ran out).
      await lapseHold(bookingId);
      await page.reload();
      await stepHeading(page, 'Select Date & Time').waitFor();
      await toastWith(page, holdExpiredMessage).waitFor();
      expect(await page.getByRole('tab', { name: '4 Payment' }).getAttribute('aria-selected')).toBe('false');
      // The refused payment request is the only error the console saw.
      expect(errors.filter((e) => !e.includes('412') && !e.includes('Failed to load resource'))).toEqual([]);
    });
  });

  describe('on the shared server', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await openBrowser();
    });
    afterAll(() => browser?.close());

    it('keeps a file chosen before the page finished loading its scripts', async () => {
      const { page, errors } = browser;
      // Hold the client entry back until the file is chosen in the server-rendered page.
      const release = await holdEntryScript(page);
      try {
        // Module scripts delay DOMContentLoaded, so wait only for the server's HTML.
        await page.goto(`${baseUrl()}/schedule`, { waitUntil: 'commit' });
        await page.getByLabel('Choose files').setInputFiles([pdf]);
        expect(await page.evaluate(() => document.readyState)).not.toBe('complete');
      } finally {
        await release();
      }
      await page.getByRole('button', { name: 'Remove sample.pdf' }).waitFor();
      expect(errors).toEqual([]);
    });

    it("shows the payment step's error view with the spec's texts, and 'Try Again' reloads into a working form", async () => {
      const { page } = browser;
      const bookingId = await bookingReadyToPay(baseUrl());

      // The server answers with an error it explains.
      await page.route('**/trpc/payments.createIntent*', (route) =>
        route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify([
            { error: { json: { message: 'The payment provider is unavailable.', code: -32603, data: { code: 'INTERNAL_SERVER_ERROR', httpStatus: 500, path: 'payments.createIntent' } } } },
          ]),
        }),
      );
      await page.goto(`/schedule?booking=${bookingId}`);
      await stepHeading(page, 'Payment Information').waitFor();
      const alert = page.getByRole('alert').filter({ hasText: 'Failed to create payment intent' });
      await alert.waitFor();
      expect(await alert.getByText('Failed to create payment intent: The payment provider is unavailable.', { exact: true }).count()).toBe(1);
      expect(await page.getByRole('button', { name: 'Pay Now' }).count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);

      // No answer at all (the connection dropped): the generic text.
      await page.unroute('**/trpc/payments.createIntent*');
      await page.route('**/trpc/payments.createIntent*', (route) => route.abort('connectionreset'));
      await page.reload();
      await page.getByRole('alert').getByText('Failed to initialize payment system', { exact: true }).waitFor();

      // The provider is back: 'Try Again' reloads the page and the form appears.
      await page.unroute('**/trpc/payments.createIntent*');
      const reloaded = page.waitForEvent('load');
      await page.getByRole('button', { name: 'Try Again' }).click();
      await reloaded;
      await page.getByRole('button', { name: 'Pay Now' }).waitFor();
      expect(await page.getByRole('alert').filter({ hasText: 'Failed to' }).count()).toBe(0);
    });

    it('shows each file’s upload progress as a progressbar whose value climbs to 100', async () => {
      const { page } = browser;
      await page.goto('/schedule');
      await stepHeading(page, 'Upload Documents').waitFor();
      // Every value any upload progress bar takes, as the DOM commits it.
      await page.evaluate(() => {
        const seen: number[] = [];
        (window as unknown as { progressSeen: number[] }).progressSeen = seen;
        const record = () => {
          for (const bar of document.querySelectorAll('progress')) {
            const value = Number(bar.getAttribute('value'));
            if (seen.at(-1) !== value) seen.push(value);
          }
        };
        new MutationObserver(record).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['value'] });
      });
      // Hold the bytes' PUT until the bar has been inspected mid-upload.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/uploads/*', async (route) => {
        await held;
        await route.continue();
      });

      await queueFile(page, pdf);
      await page.getByRole('button', { name: 'Continue to Booking' }).click();
      const bar = page.getByRole('progressbar', { name: 'Uploading sample.pdf' });
      await bar.waitFor();
      // What assistive technology reads: the progressbar's current value from the accessibility tree.
      const cdp = await page.context().newCDPSession(page);
      const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
        nodes: { role?: { value: string }; value?: { value: unknown }; properties?: { name: string; value: { value: unknown } }[] }[];
      };
      const node = nodes.find((n) => n.role?.value === 'progressbar')!;
      // Chromium reports aria-valuenow (or a native <progress>'s value) as the node's value.
      const valueNow = Number(node.value?.value);
      expect(valueNow).toBeGreaterThanOrEqual(10);
      expect(valueNow).toBeLessThan(100);
      expect(Number(node.properties?.find((p) => p.name === 'valuemax')?.value.value)).toBe(100);
      await cdp.detach();
      expect(await axeViolations(page)).toEqual([]);

      release();
      await stepHeading(page, 'Select Date & Time').waitFor();
      await page.unroute('**/api/uploads/*');
      const seen = await page.evaluate(() => (window as unknown as { progressSeen: number[] }).progressSeen);
      expect(seen[0]).toBeGreaterThanOrEqual(10);
      expect(seen).toContain(25);
      expect(seen.at(-1)).toBe(100);
      expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    });
  });
});
