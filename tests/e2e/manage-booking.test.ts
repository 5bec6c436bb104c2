import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manageMessages } from '../../src/shared/manage-booking.ts';
import { addDays, localDateOf, parseIsoDate, toIsoDate } from '../../src/shared/time.ts';
import { axeViolations, baseUrl, openBrowser, type Browser } from './browser.ts';
import { confirmedBookingWithManageLink } from './bookings.ts';
import { waitForMail } from './mailbox.ts';

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
