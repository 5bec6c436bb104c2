import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffSessionCookie } from '../../src/server/features/staff/session.ts';
import { trpcHttp } from '../helpers/staff.ts';
import { baseUrl, openBrowser, sidewaysOverflow, type Browser } from './browser.ts';
import { confirmedBookingWithManageLink } from './bookings.ts';
import { signInAs, staffAccounts } from './console.ts';

/**
 * No page may scroll sideways on a phone (issue 15 item 2): the customer's
 * manage page and every console route (as the role that sees it) at 375 × 812,
 * measured once the page has settled. Every public route is measured by the
 * accessibility crawl's phone pass (a11y-crawl.test.ts), which loads each anyway.
 */
const phone = { width: 375, height: 812 };

async function overflow(page: Page, path: string): Promise<string | null> {
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  // Console pages render in the browser: wait for their heading.
  await page.locator('h1').first().waitFor();
  const wide = await sidewaysOverflow(page);
  return wide ? `${path}: ${wide}` : null;
}

describe('nothing scrolls sideways at 375 px', () => {
  let visitor: Browser;
  let booking: Awaited<ReturnType<typeof confirmedBookingWithManageLink>>;

  beforeAll(async () => {
    booking = await confirmedBookingWithManageLink({ daysAhead: 4, fileName: 'a-rather-long-file-name-for-a-mortgage-refinance-agreement-final-signed-copy.pdf' });
    visitor = await openBrowser(phone);
  });
  afterAll(() => visitor?.close());

  it('the manage page', async () => {
    expect(await overflow(visitor.page, new URL(booking.manageUrl).pathname)).toBeNull();
  });

  it('console pages, signed in as the role that sees each', async () => {
    const { admin } = staffAccounts();
    const adminCookie = `${staffSessionCookie}=${admin.session}`;
    // An invitation link (for the invite page) and a notary on the booking (for the notary's pages).
    const invite = await trpcHttp(baseUrl(), 'staff.users.invite', { input: { email: `phone-${Date.now()}@example.com`, role: 'staff' }, cookie: adminCookie });
    const invitePath = new URL((invite.body.result!.data.json as { url: string }).url).pathname;
    const notaries = await trpcHttp(baseUrl(), 'staff.notaries', { type: 'query', cookie: adminCookie });
    const notary = (notaries.body.result?.data.json as { id: string; email: string }[] | undefined)?.find((n) => n.email === staffAccounts().notary.email);
    expect(notary).toBeTruthy();
    await trpcHttp(baseUrl(), 'console.bookings.assignNotary', { input: { bookingId: booking.bookingId, notaryId: notary!.id }, cookie: adminCookie });
    const mail = await trpcHttp(baseUrl(), 'console.mail.list', { type: 'query', input: { status: 'all' }, cookie: adminCookie });
    const mailId = (mail.body.result!.data.json as { id: string }[])[0]!.id;

    const wide: string[] = [];
    const check = async (browser: Browser, paths: string[]) => {
      for (const path of paths) {
        const problem = await overflow(browser.page, path);
        if (problem) wide.push(problem);
      }
    };

    const anonymous = await openBrowser(phone);
    const asAdmin = await openBrowser(phone);
    const asNotary = await openBrowser(phone);
    try {
      await check(anonymous, ['/admin/login', invitePath]);
      await signInAs(asAdmin, 'admin');
      await check(asAdmin, [
        '/admin/bookings',
        `/admin/bookings/${booking.bookingId}`,
        '/admin/chat',
        '/admin/messages',
        '/admin/mail',
        `/admin/mail/${mailId}`,
        '/admin/staff',
        '/admin/account',
        '/admin/no-such-page',
      ]);
      await signInAs(asNotary, 'notary');
      await check(asNotary, ['/admin/appointments', `/admin/appointments/${booking.bookingId}`, '/admin/account']);
    } finally {
      await Promise.all([anonymous.close(), asAdmin.close(), asNotary.close()]);
    }
    expect(wide).toEqual([]);
  });
});
