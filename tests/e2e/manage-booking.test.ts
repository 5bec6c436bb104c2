import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { kbaLabels, kbaMessages } from '../../src/shared/kba.ts';
import { manageMessages } from '../../src/shared/manage-booking.ts';
import { actStageLabels } from '../../src/shared/act-stages.ts';
import { addDays, localDateOf, parseIsoDate, toIsoDate } from '../../src/shared/time.ts';
import { axeViolations, baseUrl, openBrowser, type Browser } from './browser.ts';
import { confirmedBookingWithManageLink } from './bookings.ts';
import { startSessionServer, type SessionFixture } from './session-helpers.ts';
import { participantLabels, participantMessages } from '../../src/shared/participants.ts';
import { waitForMail } from './mailbox.ts';
import { answerKbaQuiz, kbaQuestions, startKbaQuiz } from './kba.ts';

/**
 * The customer's booking page, reached from the confirmation email. The
 * booking is made through the same HTTP calls the wizard makes (test payment
 * provider), and the manage link is read from the email the server wrote.
 */
const zone = 'America/Chicago';

/** The booking page's address in an email's text (with its token): there must be one. */
function manageLinkIn(text: string): string {
  const link = text.match(/https?:\/\/[^\s)>\]]+\/booking\/[A-Za-z0-9_-]{20,}/)?.[0];
  expect(link, text).toBeTruthy();
  return link!;
}

describe('booking page from the manage link', () => {
  let browser: Browser;
  let booking: { reference: string; manageUrl: string };

  beforeAll(async () => {
    booking = await confirmedBookingWithManageLink();
    browser = await openBrowser();
  });
  afterAll(() => browser.close());

  it('is private: no-store, noindex, and the token stays out of the canonical URL', async () => {
    const path = new URL(booking.manageUrl).pathname;
    const res = await fetch(`${baseUrl()}${path}`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).not.toContain(`<link rel="canonical" href="${baseUrl()}${path}"`);
  });

  it('shows the booking, reschedules without paying again, then cancels with a full refund', async () => {
    const { page, errors } = browser;
    await page.goto(new URL(booking.manageUrl).pathname);
    await page.getByText(booking.reference).waitFor();
    await expect.poll(() => page.getByTestId('booking-status').textContent()).toBe('Confirmed');
    expect(await page.getByTestId('booking-time').textContent()).toMatch(/at \d{1,2}:\d{2} (AM|PM) \(Central (Standard|Daylight) Time\)$/);
    await page.getByRole('listitem').filter({ hasText: 'lease-agreement.pdf' }).waitFor();
    await page.getByText(manageMessages.refundPolicy).waitFor();
    // The act's stage, the same label the room and the console show.
    expect(await page.getByTestId('act-stage').textContent()).toBe(actStageLabels.waiting);
    expect(await axeViolations(page)).toEqual([]);

    // The document downloads through the authorised handler.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download lease-agreement.pdf' }).click()]);
    expect(download.suggestedFilename()).toBe('lease-agreement.pdf');

    // Reschedule five days ahead.
    const before = await page.getByTestId('booking-time').textContent();
    const newDate = toIsoDate(addDays(parseIsoDate(localDateOf(new Date(), zone)), 5));
    await page.getByLabel('New date').fill(newDate);
    const times = page.getByRole('group', { name: /Available times/ }).getByRole('button');
    await expect.poll(() => times.count()).toBeGreaterThan(0);
    await times.first().click();
    await page.getByRole('button', { name: 'Move my appointment' }).click();
    const moveDialog = page.getByRole('dialog', { name: 'Move your appointment?' });
    await moveDialog.getByText('There is nothing more to pay.').waitFor();
    await moveDialog.getByRole('button', { name: 'Move appointment' }).click();
    await page.getByText(manageMessages.rescheduled).first().waitFor();
    await expect.poll(() => page.getByTestId('booking-time').textContent()).not.toBe(before);
    const moved = await waitForMail((m) => m.headers.subject === `Your notary appointment has a new time (${booking.reference})`);
    // Its own working link to this page, and in the updated calendar entry's description too.
    const movedLink = manageLinkIn(moved.text);
    const ics = moved.parts.find((part) => part.contentType.startsWith('text/calendar'))!.body.replace(/\r\n[ \t]/g, '');
    expect(ics).toContain(`DESCRIPTION:`);
    expect(ics.replace(/\\n/g, '\n')).toContain(movedLink);
    expect((await fetch(`${baseUrl()}/trpc/manageBooking.get?input=${encodeURIComponent(JSON.stringify({ json: { token: new URL(movedLink).pathname.split('/')[2] } }))}`)).status).toBe(200);

    // The identity check is offered while the appointment stands…
    const identity = page.getByRole('heading', { name: 'Verify your identity' });
    await identity.waitFor();

    // Cancel: the refund is stated before confirming, then recorded.
    await page.getByRole('button', { name: 'Cancel appointment' }).click();
    const cancelDialog = page.getByRole('dialog', { name: 'Cancel your appointment?' });
    await cancelDialog.getByText(manageMessages.refundOnCancel(2500)).waitFor();
    await cancelDialog.getByRole('button', { name: 'Cancel and refund' }).click();
    await expect.poll(() => page.getByTestId('booking-status').textContent()).toBe('Cancelled');
    expect(await page.getByTestId('refunded').textContent()).toBe('$25.00 USD');
    expect(await page.getByRole('button', { name: 'Cancel appointment' }).count()).toBe(0);
    // …and goes with the cancellation, without a reload.
    await expect.poll(() => identity.count()).toBe(0);
    const cancelled = await waitForMail((m) => m.headers.subject === `Your notary appointment is cancelled (${booking.reference})`);
    expect(cancelled.text).toContain('A refund of $25.00 has been issued');
    manageLinkIn(cancelled.text);
    expect(errors).toEqual([]);
  });

  it('says the link is unknown for a wrong token', async () => {
    const { page } = browser;
    await page.goto('/booking/this-token-does-not-exist-anywhere');
    await page.getByText(manageMessages.notFound).waitFor();
  });
});

/**
 * Identity questions (KBA) on the manage page with the TEST MODE provider, at
 * phone width: fail then pass (the retry is a fresh quiz), and fail twice then
 * locked out (staff emailed, the appointment can still be moved). The booking
 * starts within 24 hours and "Verify your identity" is passed over HTTP first
 * (its own journey is the session room's), so the page opens on the questions.
 */
describe('identity questions on the booking page', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await openBrowser({ width: 375, height: 812 });
  });
  afterAll(() => browser.close());

  async function verifiedBooking() {
    const booking = await confirmedBookingWithManageLink({ soonest: true });
    const token = new URL(booking.manageUrl).pathname.split('/').at(-1)!;
    const jpg = readFileSync('tests/fixtures/sample.jpg').toString('base64');
    const res = await fetch(`${baseUrl()}/api/manage/identity/test?token=${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ nameOnId: 'Grace Hopper', front: jpg, back: jpg, selfie: jpg }),
    });
    expect(res.status).toBe(200);
    return booking;
  }

  it('fails, then passes with a fresh set of questions', async () => {
    const { page, errors } = browser;
    const booking = await verifiedBooking();
    await page.goto(new URL(booking.manageUrl).pathname);
    await page.getByRole('heading', { name: kbaLabels.heading }).waitFor();
    await page.getByText(kbaMessages.ssnWhy).waitFor();
    await page.getByText(kbaMessages.timeLimit).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await startKbaQuiz(page);
    await page.getByText(kbaMessages.timeLimit).first().waitFor();
    expect(await kbaQuestions(page).count()).toBe(5);
    expect(await page.getByRole('timer', { name: kbaLabels.timeLeft }).textContent()).toMatch(/^[12]:\d\d$/);
    const firstSet = await kbaQuestions(page).allTextContents();
    expect(await axeViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await answerKbaQuiz(page, false);
    const failed = page.getByTestId('kba-status');
    await failed.getByText(kbaLabels.notPassed).waitFor();
    await failed.getByText(kbaMessages.attemptsLeft(1)).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await startKbaQuiz(page);
    const secondSet = await kbaQuestions(page).allTextContents();
    expect(secondSet.filter((q) => firstSet.includes(q)).length).toBeLessThanOrEqual(2);
    await answerKbaQuiz(page, true);
    await page.getByTestId('kba-status').getByText(kbaLabels.passed).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('fails twice and is locked out for 24 hours; staff are emailed to move the appointment', async () => {
    const { page, errors } = browser;
    const booking = await verifiedBooking();
    await page.goto(new URL(booking.manageUrl).pathname);
    await page.getByRole('heading', { name: kbaLabels.heading }).waitFor();
    for (let attempt = 1; attempt <= 2; attempt++) {
      await startKbaQuiz(page, 'KbaFail');
      await answerKbaQuiz(page, true);
      await page.getByTestId('kba-status').getByText(kbaLabels.notPassed).waitFor();
    }
    const status = page.getByTestId('kba-status');
    await status.getByText(/^You can try again after \w+ \d{1,2}, \d{4} at \d{1,2}:\d{2} (AM|PM) \(.+\)\./).waitFor();
    expect(await page.getByRole('button', { name: kbaLabels.start }).count()).toBe(0);
    // Inside 24 hours the customer cannot move it online; staff can, and are told to.
    await status.getByText(kbaMessages.lockedOutReschedule, { exact: false }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await waitForMail((m) => m.headers.subject === `Identity questions failed twice (${booking.reference})`);
    expect(errors).toEqual([]);
  });
});

/**
 * A co-signer's fee from the booking page (issue 29; decision 125): with
 * `BOOKING_EXTRA_SIGNER_FEE_CENTS` set, **Add a signer ($15.00)** opens a second
 * payment through the same (test) provider; once it succeeds the signer is
 * invited and the price lines show the fee beside the booking's own payment.
 * Its own server: the shared one runs with no fee (every other journey's prices
 * assume it), and a fee is configuration read at start-up.
 */
describe('a co-signer’s fee paid from the booking page', () => {
  let fixture: SessionFixture;
  let browser: Browser;

  beforeAll(async () => {
    fixture = await startSessionServer({ BOOKING_EXTRA_SIGNER_FEE_CENTS: '1500' }, { paid: true });
    browser = await openBrowser({ baseURL: fixture.server.url });
    // Seeding the embedded database (migrations, staff passwords) takes most of a minute on a loaded machine.
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await fixture?.server.stop();
  });

  it('adds a signer for a second payment through the test provider; the price lines show it', async () => {
    const { page, errors } = browser;
    await page.goto(`/booking/${fixture.manageToken}`);
    await page.getByRole('heading', { name: 'Signers and witnesses' }).waitFor();
    await page.getByText(participantMessages.paymentRequired(1500), { exact: false }).waitFor();
    await page.getByLabel('Full name', { exact: true }).fill('Alan Turing');
    await page.getByLabel('Email', { exact: true }).fill('alan.fee@example.com');
    await page.getByRole('button', { name: `${participantLabels.addSigner} ($15.00)` }).click();
    // The second payment: nobody is added before it succeeds.
    const payment = page.getByTestId('signer-payment');
    await payment.getByRole('heading', { name: 'Pay $15.00 to add Alan Turing' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await payment.getByLabel('Card number').fill('4242 4242 4242 4242');
    await payment.getByLabel('Expiration date (MM / YY)').fill('12 / 34');
    await payment.getByLabel('Security code (CVC)').fill('123');
    // The customer pays: the card form starts with their name and email (the seeded booking's).
    expect(await payment.getByLabel('Name on card').inputValue()).toBe('Grace Hopper');
    expect(await payment.getByLabel('Email', { exact: true }).inputValue()).toBe('grace@example.com');
    await payment.getByRole('button', { name: 'Pay Now' }).click();
    await page.getByText(participantLabels.added('Alan Turing')).waitFor();
    await expect.poll(() => page.getByTestId('participants').textContent()).toContain('Alan Turing');
    // The price lines: the booking's payment, and the fee paid separately.
    await page.reload();
    await page.getByText('Additional signer: Alan Turing').waitFor();
    expect(await page.getByTestId('signer-fee').textContent()).toBe('$15.00 USD, paid separately');
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
