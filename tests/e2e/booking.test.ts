import { supportingFileLabel } from '../../src/shared/booking-rules.ts';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { onDemandMessages } from '../../src/shared/on-demand.ts';
import { openPglite } from '../../src/server/db/client.ts';
import { bookings, customers, onDemandQueue } from '../../src/server/db/schema.ts';
import { hashToken } from '../../src/server/tokens.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { leafParts, parseMime } from '../helpers/smtp.ts';
import { expectRemoteVideoPlaying, joinFromDeviceCheck, openMediaBrowser, seedSession, signInNotary, type SessionFixture } from './session-helpers.ts';
import { slotTakenMessage } from '../../src/shared/booking.ts';
import { bookingClient } from '../integration/booking-helpers.ts';
import { phoneHint, sessionActions } from '../../src/shared/session-copy.ts';
import { pickDateTwoDaysAhead } from './wizard.ts';
import { axeViolations, baseUrl, openBrowser, type Browser } from './browser.ts';
import { answerKbaQuiz, kbaQuestions, startKbaQuiz } from './kba.ts';

/**
 * The booking journey in Chromium with the built-in test payment provider:
 * real files uploaded, a real slot held, contact saved, a declined card and
 * a successful one, the confirmation — and a reload at every step.
 */
const fixtures = path.resolve('tests/fixtures');
const pdf = path.join(fixtures, 'sample.pdf');
const png = path.join(fixtures, 'sample.png');

const stepHeading = (page: Page, name: string) => page.getByRole('heading', { level: 2, name });
const toastWith = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text }).or(page.locator('li', { hasText: text })).first();

async function expectNoAxeViolations(page: Page) {
  expect(await axeViolations(page)).toEqual([]);
}

/** A new wizard from /schedule: one PDF uploaded, on to the Select Date & Time step. */
async function toDateStepWithOnePdf(page: Page) {
  await page.goto('/schedule');
  await stepHeading(page, 'Upload Documents').waitFor();
  await page.getByLabel('Choose files').setInputFiles([pdf]);
  await page.getByRole('button', { name: 'Continue to Booking' }).click();
  await stepHeading(page, 'Select Date & Time').waitFor();
}

async function uploadDocuments(page: Page) {
  await stepHeading(page, 'Upload Documents').waitFor();
  await page.getByLabel('Choose files').setInputFiles([pdf, png]);
  await expect.poll(() => page.getByRole('button', { name: /^Remove sample\.(pdf|png)$/ }).count()).toBe(2);
  // The photo is a supporting file: shown to the notary, not notarized (nor charged).
  await page.getByRole('checkbox', { name: `${supportingFileLabel} (sample.png)` }).check();
  await page.getByRole('button', { name: 'Continue to Booking' }).click();
  await stepHeading(page, 'Select Date & Time').waitFor();
  await toastWith(page, '2 document(s) uploaded successfully!').waitFor();
  const bookingId = new URL(page.url()).searchParams.get('booking')!;
  const view = await page.request.get(`/trpc/booking.get?input=${encodeURIComponent(JSON.stringify({ json: { bookingId } }))}`);
  const documents = ((await view.json()) as { result: { data: { json: { documents: { name: string; supporting: boolean }[] } } } }).result.data.json.documents;
  expect(documents.map((d) => [d.name, d.supporting])).toEqual([
    ['sample.pdf', false],
    ['sample.png', true],
  ]);
}

async function chooseSlot(page: Page) {
  await page.getByLabel('Time zone').selectOption('America/Chicago');
  await pickDateTwoDaysAhead(page);
  const grid = page.getByTestId('slot-grid');
  await grid.waitFor();
  await expect.poll(() => grid.locator('button').count()).toBeGreaterThan(0);
  const slot = grid.locator('button:not([disabled])').first();
  const label = await slot.getAttribute('aria-label');
  expect(label).toMatch(/^\d{1,2}:\d{2} (AM|PM) C[SD]T \(Central (Standard|Daylight) Time\)$/);
  await slot.click();
  await expect.poll(() => slot.getAttribute('aria-checked')).toBe('true');
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await stepHeading(page, 'Contact Information').waitFor();
  await toastWith(page, 'Appointment time selected!').waitFor();
  return label!;
}

async function fillContact(page: Page) {
  await page.getByLabel('First name').fill('Grace');
  await page.getByLabel('Last name').fill('Hopper');
  await page.getByLabel('Email').fill('grace@example.com');
  await page.getByLabel('Phone number').fill('(555) 010-2030');
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await stepHeading(page, 'Payment Information').waitFor();
  await toastWith(page, 'Contact information saved!').waitFor();
}

async function payWith(page: Page, number: string) {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiration date (MM / YY)').fill('12 / 34');
  await page.getByLabel('Security code (CVC)').fill('123');
  await page.getByRole('button', { name: 'Pay Now' }).click();
}

async function reloadAndExpect(page: Page, heading: string) {
  await page.reload();
  await stepHeading(page, heading).waitFor();
  expect(new URL(page.url()).searchParams.get('booking')).toMatch(/^[0-9a-f-]{36}$/);
}

describe('booking wizard (test payment provider)', () => {
  let browser: Browser;
  beforeEach(async () => {
    // A visitor outside the business zone: the receipt shows their own time, zone named.
    browser = await openBrowser({ timezoneId: 'America/Denver' });
  });
  afterEach(() => browser.close());

  it('books and pays: documents, slot, contact, declined card then 4242, confirmation — resuming after a reload at each step', async () => {
    const { page, errors } = browser;
    await page.goto('/schedule');
    await expectNoAxeViolations(page);

    // The tab rules before anything exists.
    const tabs = page.getByRole('tablist', { name: 'Booking steps' }).getByRole('tab');
    await expect.poll(() => tabs.allTextContents()).toEqual(['1 Documents', '2 Booking', '3 Contact', '4 Payment', '5 Confirm']);
    for (const name of ['2 Booking', '3 Contact', '4 Payment', '5 Confirm']) {
      expect(await page.getByRole('tab', { name }).isDisabled()).toBe(true);
    }

    // An empty queue, then a file of the wrong type.
    await page.getByRole('button', { name: 'Continue to Booking' }).click();
    await page.getByText('Please upload at least one document before continuing.', { exact: true }).first().waitFor();
    await page.getByLabel('Choose files').setInputFiles(path.join(fixtures, 'script.txt'));
    await page.getByText('script.txt is not a supported file type. Please upload PDF, JPEG, or PNG.').first().waitFor();

    await uploadDocuments(page);
    await expectNoAxeViolations(page);
    await reloadAndExpect(page, 'Select Date & Time');
    // Upload is only enabled while current; Booking is, because documents exist.
    expect(await page.getByRole('tab', { name: '1 Documents' }).isDisabled()).toBe(true);
    expect(await page.getByRole('tab', { name: '3 Contact' }).isDisabled()).toBe(true);

    const slotLabel = await chooseSlot(page);
    await expectNoAxeViolations(page);
    await reloadAndExpect(page, 'Contact Information');

    // The spec's validation, inline, clearing as the field is edited.
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    for (const message of ['First name is required', 'Last name is required', 'Email is required', 'Phone number is required']) {
      await page.getByText(message, { exact: true }).waitFor();
    }
    expect(await page.getByLabel('First name').getAttribute('aria-invalid')).toBe('true');
    await page.getByText(phoneHint).waitFor();
    await expectNoAxeViolations(page);
    await page.getByLabel('First name').fill('G');
    expect(await page.getByText('First name is required', { exact: true }).count()).toBe(0);
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Phone number').fill('555-1234');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await page.getByText('Please enter a valid email address', { exact: true }).waitFor();
    await page.getByText('Please enter a valid phone number', { exact: true }).waitFor();
    await fillContact(page);

    // Payment: the amount and what it covers, test mode labelled.
    await page.getByRole('button', { name: 'Pay Now' }).waitFor();
    expect(await page.getByTestId('payment-amount').textContent()).toContain('$25.00');
    await page.getByText('TEST MODE — no real payment is taken').waitFor();
    await page.getByText('Identity verification', { exact: true }).waitFor();
    await expectNoAxeViolations(page);
    await reloadAndExpect(page, 'Payment Information');
    expect(await page.getByLabel('Email').inputValue()).toBe('grace@example.com');
    expect(await page.getByLabel('Name on card').inputValue()).toBe('Grace Hopper');

    await payWith(page, '4000 0000 0000 0002');
    expect(await page.getByTestId('payment-error').textContent()).toBe('Your card was declined.');
    await toastWith(page, 'Payment failed').waitFor();
    await expectNoAxeViolations(page);

    await payWith(page, '4242 4242 4242 4242');
    const receipt = page.getByTestId('payment-receipt');
    await receipt.getByRole('heading', { name: 'Payment Receipt' }).waitFor();
    const receiptText = await receipt.textContent();
    // Issue 15 item 6: "$25.00 USD", the time in the visitor's zone with the zone named, "Card".
    const receiptRow = (label: string) => receipt.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]').textContent();
    expect(await receiptRow('Amount')).toBe('$25.00 USD');
    expect(await receiptRow('Currency')).toBe('USD');
    expect(await receiptRow('Payment Method')).toBe('Card');
    expect(await receiptRow('Date')).toMatch(/^[A-Z][a-z]+ \d{1,2}, \d{4} at \d{1,2}:\d{2} (AM|PM) \(Mountain (Standard|Daylight) Time\)$/);
    // Item 7: the retry succeeded, so the earlier "Payment failed" toast is gone.
    await expect.poll(() => toastWith(page, 'Payment failed').isVisible()).toBe(false);
    expect(await page.getByTestId('receipt-status').textContent()).toBe('Succeeded');
    expect(await page.getByTestId('receipt-status').getAttribute('class')).toContain('green');
    const paymentId = /pi_test_[0-9a-f]+/.exec(receiptText ?? '')?.[0];
    expect(paymentId).toBeTruthy();

    // 2 s later: the completion toast and the confirmation.
    await toastWith(page, 'Payment processed successfully!').waitFor();
    await stepHeading(page, 'Appointment Confirmation').waitFor();
    await expectNoAxeViolations(page);

    const check = async () => {
      const main = page.locator('main');
      const text = (await main.textContent()) ?? '';
      expect(text).toContain('Online Notary Service');
      expect(await page.getByTestId('amount-paid').textContent()).toBe('$25.00 USD');
      expect(await page.getByTestId('transaction-id').textContent()).toMatch(/^NOTARY-[2-9A-Z]{8}$/);
      expect(await page.getByTestId('payment-id').textContent()).toBe(paymentId);
      // Issue 15 item 10: the session is by video from the booking page, not a phone call.
      expect(text).not.toMatch(/will call you/i);
      const notice = (await page.getByTestId('session-notice').textContent()) ?? '';
      for (const action of Object.values(sessionActions)) expect(notice).toContain(action);
      expect(text).toContain(slotLabel.replace(/ C[SD]T \(Central (Standard|Daylight) Time\)$/, ''));
      expect(text).toMatch(/Central (Standard|Daylight) Time/);
      expect(text).toContain('(515) 555-0142');
      expect(text).toContain('2 documents uploaded');
      expect(text).toContain('sample.pdf');
      expect(text).toContain('sample.png');
      expect(text).toContain('Grace Hopper');
      expect(text).toContain('Paid');
      expect(text).toContain('A confirmation email has been sent to grace@example.com');
      const bookingId = new URL(page.url()).searchParams.get('booking');
      expect(await page.getByRole('link', { name: 'Add to Calendar', exact: true }).getAttribute('href')).toBe(`/api/bookings/${bookingId}/calendar.ics`);
      expect(await page.getByRole('link', { name: /Add to Google Calendar/ }).getAttribute('href')).toMatch(/^https:\/\/calendar\.google\.com\//);
      expect(await page.getByRole('link', { name: /Add to Outlook Calendar/ }).getAttribute('href')).toMatch(/^https:\/\/outlook\.live\.com\//);
      expect(await page.getByRole('link', { name: 'Return to Home' }).getAttribute('href')).toBe('/');
    };
    await check();
    await reloadAndExpect(page, 'Appointment Confirmation');
    await check();
    // Paid: nothing to go back to.
    for (const name of ['1 Documents', '2 Booking', '3 Contact', '4 Payment']) {
      expect(await page.getByRole('tab', { name }).isDisabled()).toBe(true);
    }

    // A new visit to /schedule starts a new booking; the paid one stays reachable by its URL.
    await page.goto('/schedule');
    await stepHeading(page, 'Upload Documents').waitFor();
    expect(errors).toEqual([]);
  });

  it('handles a lost race for the last place in a slot: the server’s message, fresh slots, same step', async () => {
    const { page, errors } = browser;
    await toDateStepWithOnePdf(page);
    await page.getByLabel('Time zone').selectOption('America/Chicago');
    await pickDateTwoDaysAhead(page);
    const grid = page.getByTestId('slot-grid');
    await expect.poll(() => grid.locator('button').count()).toBeGreaterThan(0);
    // The visitor picks the last slot of the day…
    const slot = grid.locator('button:not([disabled])').last();
    const label = (await slot.getAttribute('aria-label'))!;
    await slot.click();

    // …and meanwhile other visitors take every remaining place in it.
    const api = bookingClient(baseUrl());
    const date = await page.evaluate(() => {
      const d = new Date();
      const t = new Date(d.getFullYear(), d.getMonth(), d.getDate() + 2);
      return `${t.getFullYear()}-${String(t.getMonth() + 1).padStart(2, '0')}-${String(t.getDate()).padStart(2, '0')}`;
    });
    const listed = await api.slots.list.query({ date, timeZone: 'America/Chicago' });
    const target = listed.slots.filter((s) => s.available).at(-1)!;
    for (let i = 0; i < target.remaining; i++) {
      const other = await api.booking.start.mutate({ timeZone: 'America/Chicago' });
      await api.booking.hold.mutate({ bookingId: other.bookingId, startsAt: target.startsAt, timeZone: 'America/Chicago' });
    }

    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await toastWith(page, slotTakenMessage).waitFor();
    await grid.getByRole('radio', { name: `${label}, unavailable` }).waitFor();
    expect(await grid.getByRole('radio', { name: `${label}, unavailable` }).isDisabled()).toBe(true);
    await stepHeading(page, 'Select Date & Time').waitFor();
    expect(await page.getByRole('button', { name: 'Continue', exact: true }).isDisabled()).toBe(true);
    expect(errors.filter((e) => !e.includes('409'))).toEqual([]);
  });

  it('shows only the step numbers below 768 px, keeping each tab’s name', async () => {
    const small = await openBrowser({ width: 375, height: 800 });
    try {
      await small.page.goto('/schedule');
      await stepHeading(small.page, 'Upload Documents').waitFor();
      const tab = small.page.getByRole('tab', { name: '2 Booking' });
      // The label is still in the tab (its name) but takes no space on screen.
      const label = await tab.getByText('Booking', { exact: true }).boundingBox();
      expect(label!.width).toBeLessThanOrEqual(1);
      expect((await tab.getByText('2', { exact: true }).boundingBox())!.width).toBeGreaterThan(10);
      await expectNoAxeViolations(small.page);
    } finally {
      await small.close();
    }
  });

  it('loads the wizard’s code only on /schedule, and never Stripe.js in test mode', async () => {
    const { page } = browser;
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.goto('/');
    await page.waitForLoadState('networkidle');
    expect(requested.filter((url) => /schedule-|stripe/.test(url))).toEqual([]);
    await page.goto('/schedule');
    await stepHeading(page, 'Upload Documents').waitFor();
    expect(requested.some((url) => /\/assets\/schedule-[\w-]+\.js$/.test(url))).toBe(true);
    expect(requested.filter((url) => /stripe/.test(url))).toEqual([]);
  });
});

/**
 * Issue 29 (decision 125): a server where each co-signer costs $10.00. The
 * customer adds a co-signer and a witness in the Contact step; the price shows
 * a line for the co-signer (the witness is free) on the payment step and the
 * confirmation; paying invites both by email.
 */
describe('booking wizard with a co-signer and a witness (extra signer fee)', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startServer({ BOOKING_EXTRA_SIGNER_FEE_CENTS: '1000' });
    browser = await openBrowser({ baseURL: server.url, timezoneId: 'America/Chicago' });
    // A server of its own (its own fee): on a loaded 2-core machine its start can take minutes.
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('adds them before paying, shows the fee as its own line everywhere the price is, and invites them once paid', async () => {
    const { page, errors } = browser;
    await toDateStepWithOnePdf(page);
    await chooseSlot(page);

    const section = page.getByRole('region', { name: 'Other signers and witnesses (optional)' });
    await section.getByText('Each additional signer costs $10.00; witnesses are free.').waitFor();
    const addPerson = async (role: 'Co-signer' | 'Witness', name: string, email: string) => {
      await section.getByRole('button', { name: 'Add a signer or witness' }).click();
      await section.getByRole('radio', { name: new RegExp(`^${role}`) }).check();
      await section.getByLabel('Their full name').fill(name);
      await section.getByLabel('Their email address').fill(email);
      await section.getByRole('button', { name: 'Add to booking' }).click();
      await section.getByTestId('booking-participants').getByRole('button', { name: `Remove ${name}` }).waitFor();
    };
    // A bad address is refused in words, and nothing is added.
    await section.getByRole('button', { name: 'Add a signer or witness' }).click();
    await section.getByLabel('Their full name').fill('Alan Turing');
    await section.getByLabel('Their email address').fill('alan@');
    await section.getByRole('button', { name: 'Add to booking' }).click();
    await section.getByRole('alert').filter({ hasText: 'Please enter a valid email address' }).waitFor();
    await expectNoAxeViolations(page);
    await section.getByRole('button', { name: 'Cancel' }).click();
    await addPerson('Co-signer', 'Alan Turing', 'alan@example.com');
    await addPerson('Witness', 'Ada Lovelace', 'ada@example.com');
    expect(await section.getByTestId('booking-participants').textContent()).toContain('$10.00');
    await expectNoAxeViolations(page);

    await fillContact(page);
    await page.getByRole('button', { name: 'Pay Now' }).waitFor();
    const lines = page.getByTestId('price-lines');
    expect((await lines.locator('dt').allTextContents())).toEqual(['Notary session', 'Additional signer: Alan Turing']);
    expect((await lines.locator('dd').allTextContents())).toEqual(['$25.00', '$10.00']);
    expect(await page.getByTestId('payment-amount').textContent()).toContain('$35.00');
    await expectNoAxeViolations(page);

    await payWith(page, '4242 4242 4242 4242');
    await stepHeading(page, 'Appointment Confirmation').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('amount-paid').textContent()).toBe('$35.00 USD');
    const main = (await page.locator('main').textContent()) ?? '';
    expect(main).toContain('Additional signer: Alan Turing');
    expect(await page.getByTestId('confirm-participants').textContent()).toMatch(/Alan Turing \(Co-signer.*Ada Lovelace \(Witness/);
    await expectNoAxeViolations(page);

    // Each is invited by an email of their own, and the customer's confirmation lists the fee.
    const mailDir = path.join(server.dataDir, 'mail');
    const mailTo = (address: string) => {
      let files: string[] = [];
      try {
        files = readdirSync(mailDir).filter((f) => f.endsWith('.eml'));
      } catch {
        return [];
      }
      return files
        .map((f) => parseMime(readFileSync(path.join(mailDir, f), 'utf8')))
        .filter((m) => m.headers.to?.includes(address))
        .map((m) => ({ subject: m.headers.subject ?? '', text: leafParts(m).find((p) => p.contentType.startsWith('text/plain'))?.body ?? '' }));
    };
    await expect
      .poll(() => ['alan@example.com', 'ada@example.com'].map((a) => mailTo(a).map((m) => m.subject.startsWith("You've been invited to sign"))), { timeout: 20_000 })
      .toEqual([[true], [true]]);
    await expect.poll(() => mailTo('grace@example.com').some((m) => m.text.includes('Additional signer: Alan Turing')), { timeout: 20_000 }).toBe(true);
    expect(errors).toEqual([]);
    // Four axe runs and two inboxes on a server of its own: more than the default on a loaded machine.
  }, 240_000);
});

describe('booking wizard by keyboard alone', () => {
  let browser: Browser;
  beforeEach(async () => {
    browser = await openBrowser();
  });
  afterEach(() => browser.close());

  /** Presses Tab until the focused element has this accessible name (or label). */
  async function tabTo(page: Page, name: string | RegExp, options: { shift?: boolean } = {}) {
    for (let i = 0; i < 80; i++) {
      await page.keyboard.press(options.shift ? 'Shift+Tab' : 'Tab');
      const focused = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el) return '';
        const labelled = el.getAttribute('aria-label');
        const byId = el.id ? document.querySelector(`label[for="${CSS.escape(el.id)}"]`)?.textContent : null;
        return (labelled ?? byId ?? el.textContent ?? '').trim();
      });
      if (typeof name === 'string' ? focused === name : name.test(focused)) return;
    }
    throw new Error(`could not reach ${String(name)} with Tab`);
  }

  it('completes a booking without the mouse', async () => {
    const { page, errors } = browser;
    const focusedText = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    await page.goto('/schedule');
    await stepHeading(page, 'Upload Documents').waitFor();
    await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });

    await tabTo(page, 'Choose files');
    const chooser = page.waitForEvent('filechooser');
    await page.keyboard.press('Space');
    await (await chooser).setFiles([pdf]);
    await tabTo(page, 'Continue to Booking');
    await page.keyboard.press('Enter');
    await stepHeading(page, 'Select Date & Time').waitFor();
    // Each new step starts where it is read: focus on its heading, not at the top of the page.
    await expect.poll(focusedText).toBe('Select Date & Time');

    // The calendar: into the grid, two days on with the arrow keys, Enter.
    await tabTo(page, /^(Today, )?\w+day, \w+ \d+, \d{4}/);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    const slots = page.getByRole('radiogroup', { name: 'Choose a time' });
    await slots.waitFor();
    // The day's times are one radio group: one Tab stop, the arrow keys between free times.
    await tabTo(page, /^\d{1,2}:\d{2} (AM|PM) .*Time\)$/);
    const free = slots.getByRole('radio', { disabled: false });
    expect(await slots.locator('[tabindex="0"]').count()).toBe(1);
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => free.nth(1).getAttribute('aria-checked')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-checked'))).toBe('true');
    await page.keyboard.press('End');
    await expect.poll(() => free.last().getAttribute('aria-checked')).toBe('true');
    await page.keyboard.press('Home');
    await expect.poll(() => free.first().getAttribute('aria-checked')).toBe('true');
    expect(await slots.getByRole('radio', { checked: true }).count()).toBe(1);
    // One Tab leaves the group.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).not.toBe('radio');
    await tabTo(page, 'Continue');
    await page.keyboard.press('Enter');
    await stepHeading(page, 'Contact Information').waitFor();
    await expect.poll(focusedText).toBe('Contact Information');

    for (const [label, value] of [
      ['First name', 'Alan'],
      ['Last name', 'Turing'],
      ['Email', 'alan@example.com'],
      ['Phone number', '555 010 9999'],
    ] as const) {
      await tabTo(page, label);
      await page.keyboard.type(value);
    }
    await page.keyboard.press('Enter');
    await stepHeading(page, 'Payment Information').waitFor();
    await expect.poll(focusedText).toBe('Payment Information');

    await page.getByRole('button', { name: 'Pay Now' }).waitFor();
    // The card field's placeholder is a hint, not something that looks typed in already.
    expect(await page.getByLabel('Card number').getAttribute('placeholder')).not.toMatch(/\d{3}/);
    await tabTo(page, 'Card number');
    await page.keyboard.type('4242424242424242');
    await page.keyboard.press('Tab');
    await page.keyboard.type('1234');
    await page.keyboard.press('Tab');
    await page.keyboard.type('123');
    await tabTo(page, 'Pay Now');
    await page.keyboard.press('Enter');
    await stepHeading(page, 'Appointment Confirmation').waitFor();
    await expect.poll(focusedText).toBe('Appointment Confirmation');
    expect(await page.getByTestId('transaction-id').textContent()).toMatch(/^NOTARY-/);
    await tabTo(page, 'Return to Home');
    expect(errors).toEqual([]);
  });
});

/**
 * Notarize now (issue 28, decision 110), on a server of its own seeded with a
 * notary (off duty) and a customer who has waited past the limit: nobody on
 * duty → no offer; the notary goes on duty; a customer uploads, chooses
 * Notarize now, pays, waits in the lobby (position, estimate); the notary
 * accepts from Waiting customers; both are in the room. Then the timed-out
 * customer's offer of a scheduled time or a full refund.
 */
describe('Notarize now', () => {
  let fixture: SessionFixture & { timedOutToken: string };
  let customer: Browser;
  let notary: Browser;
  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'notary-on-demand-e2e-'));
    const seeded = await seedSession(dataDir);
    const timedOutToken = await seedTimedOutCustomer(dataDir);
    const server = await startServer({ DATA_DIR: dataDir }, { removeDataDir: true });
    fixture = { ...seeded, server, dataDir, timedOutToken };
    [customer, notary] = await Promise.all([openMediaBrowser(fixture), openMediaBrowser(fixture)]);
  }, 180_000);
  afterAll(async () => {
    await customer?.close();
    await notary?.close();
    await fixture?.server.stop();
  });

  it('nobody on duty: says so; on duty: a customer waits in line, the notary accepts, both are in the room', async () => {
    const page = customer.page;
    await page.goto(`${fixture.server.url}/schedule?now=1`);
    await uploadDocuments(page);
    const offer = page.getByTestId('notarize-now');
    await offer.getByText(onDemandMessages.nobodyOnDuty).waitFor();
    await offer.getByText(/^Next available: /).waitFor();
    expect(await offer.getByRole('button', { name: onDemandMessages.notarizeNow }).count()).toBe(0);
    expect(await fetch(`${fixture.server.url}/`).then((r) => r.text())).not.toContain('href="/schedule?now=1"');

    // The notary goes on duty from the console.
    const consolePage = notary.page;
    await signInNotary(consolePage, fixture, fixture.notary, '/admin/hours');
    await consolePage.getByRole('switch', { name: 'Off duty' }).click();
    await expect.poll(() => consolePage.getByRole('switch', { name: 'On duty' }).count()).toBe(1);
    const waiting = consolePage.getByTestId('waiting-customers');
    await waiting.getByText(onDemandMessages.nobodyWaiting).waitFor();
    await expect.poll(() => fetch(`${fixture.server.url}/`).then((r) => r.text()), { timeout: 40_000 }).toContain('href="/schedule?now=1"');

    // The offer re-reads who is on duty; Notarize now, contact, pay.
    await offer.getByText(`${onDemandMessages.availableNow}: 1`).waitFor({ timeout: 20_000 });
    await expectNoAxeViolations(page);
    await offer.getByRole('button', { name: onDemandMessages.notarizeNow }).click();
    await stepHeading(page, 'Contact Information').waitFor();
    await fillContact(page);
    await payWith(page, '4242 4242 4242 4242');
    await stepHeading(page, 'Appointment Confirmation').waitFor();
    await page.getByText('Your session is paid: you are in line.').waitFor();
    await page.getByRole('button', { name: 'Go to the waiting room' }).click();
    await page.waitForURL(/\/booking\/[^/]+\/session$/);
    const lobby = page.getByTestId('lobby');
    await lobby.getByText(onDemandMessages.positionInLine(1)).waitFor();
    await lobby.getByText(/^Estimated wait: \d+ minutes?$/).waitFor();
    // Identity is proved while waiting (TEST MODE provider: the name on the ID decides), then the questions are offered.
    await page.getByLabel('Your name exactly as on your ID').fill('Grace Hopper');
    await page.getByLabel('Front of your ID').setInputFiles(path.join(fixtures, 'sample.jpg'));
    await page.getByLabel('Back of your ID').setInputFiles(path.join(fixtures, 'sample.png'));
    await page.getByLabel('A selfie').setInputFiles(path.join(fixtures, 'sample.jpg'));
    await page.getByRole('button', { name: 'Verify your identity' }).click();
    await page.getByTestId('identity-status').getByText('Your identity is verified.').waitFor({ timeout: 20_000 });
    await page.getByRole('heading', { name: 'Identity questions' }).waitFor();
    await lobby.getByText(onDemandMessages.positionInLine(1)).waitFor();
    await expectNoAxeViolations(page);
    // The timed quiz is under way when the notary accepts: it is not cut off.
    await startKbaQuiz(page);

    // The notary's console: the badge, then Accept lands them in the room.
    await expect.poll(() => waiting.getByTestId('waiting-count').textContent(), { timeout: 15_000 }).toMatch(/^1/);
    // Where the customer stands with proving who they are, beside their place in line.
    await expect.poll(() => waiting.getByTestId('waiting-identity').textContent(), { timeout: 15_000 }).toBe('ID verified, answering the identity questions');
    expect(await axeViolations(consolePage)).toEqual([]);
    await waiting.getByRole('button', { name: onDemandMessages.accept }).click();
    await consolePage.waitForURL(/\/admin\/appointments\/[0-9a-f-]{36}\/session$/);
    await joinFromDeviceCheck(consolePage);
    // The customer's lobby hears it, keeps the quiz until it is submitted, then opens the room's device check.
    await lobby.getByText(onDemandMessages.acceptedFinishQuiz).waitFor({ timeout: 20_000 });
    expect(await kbaQuestions(page).count()).toBe(5);
    await answerKbaQuiz(page, true);
    await joinFromDeviceCheck(page);
    await expectRemoteVideoPlaying(page, consolePage);
    await expectRemoteVideoPlaying(consolePage, page);
  }, 240_000);

  it('offers a timed-out customer a scheduled time or a full refund', async () => {
    const page = customer.page;
    await page.goto(`${fixture.server.url}/booking/${fixture.timedOutToken}/session`);
    const offer = page.getByTestId('lobby-timed-out');
    await offer.getByText(onDemandMessages.timedOut).waitFor({ timeout: 20_000 });
    await offer.getByText(onDemandMessages.timedOutOffer).waitFor();
    expect(await offer.getByRole('link', { name: onDemandMessages.chooseScheduled }).getAttribute('href')).toBe(`/booking/${fixture.timedOutToken}`);
    await expectNoAxeViolations(page);
    await offer.getByRole('button', { name: onDemandMessages.fullRefund }).click();
    await offer.getByText(onDemandMessages.refunded).waitFor();
  });
});

/** A paid Notarize now customer who joined the line 20 minutes ago (the server's sweep times them out). */
async function seedTimedOutCustomer(dataDir: string): Promise<string> {
  const database = await openPglite(path.join(dataDir, 'pglite'));
  try {
    const [person] = await database.db.insert(customers).values({ firstName: 'Tim', lastName: 'Out', email: 'tim@example.com', phone: '(515) 555-0199' }).returning();
    const token = randomBytes(32).toString('base64url');
    const [booking] = await database.db
      .insert(bookings)
      .values({ reference: 'NOTARY-TIMEOUT2', status: 'confirmed', kind: 'on_demand', timeZone: 'America/Chicago', priceCents: 2500, customerId: person!.id, manageTokenHash: hashToken(token), confirmedAt: new Date() })
      .returning();
    const joined = new Date(Date.now() - 20 * 60_000);
    await database.db.insert(onDemandQueue).values({ bookingId: booking!.id, firstJoinedAt: joined, joinedAt: joined, customerSeenAt: new Date() });
    return token;
  } finally {
    await database.close();
  }
}
