import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { staffSessionCookie } from '../../src/server/features/staff/session.ts';
import { trpcHttp } from '../helpers/staff.ts';
import { axeViolations, baseUrl, openBrowser } from './browser.ts';
import { confirmedBookingWithManageLink } from './bookings.ts';
import { signInAs, staffAccounts } from './console.ts';
import { waitForMail } from './mailbox.ts';

/**
 * What staff, notaries and admins tripped over (issue 15 items 11–16), on the
 * shared server with its seeded accounts (tests/e2e/global-setup.ts).
 */
const online = 'We are online and usually reply within minutes.';
const offline = "We're offline. Leave a message and we'll email you.";
const ignorable = (message: string) => message.includes('Failed to load resource');
const chatDialog = (page: Page) => page.getByRole('dialog', { name: 'Chat with NotaryOnline' });

describe('the console at 1280 × 800', () => {
  let booking: Awaited<ReturnType<typeof confirmedBookingWithManageLink>>;
  beforeAll(async () => {
    booking = await confirmedBookingWithManageLink({ daysAhead: 6 });
  });

  const unreadText = (n: number) => (n === 1 ? '1 unread message' : `${n} unread messages`);

  it('items 11 and 12: available from any console page, Away, unread badge and title; a reply to an absent visitor is emailed', async () => {
    const staff = await openBrowser({ width: 1280, height: 800 });
    const visitor = await openBrowser({ width: 1280, height: 800 });
    try {
      await signInAs(staff, 'staff');
      const email = `ivy-${Date.now()}@example.com`;

      // Nobody signed in: offline.
      await visitor.page.goto('/');
      await visitor.page.getByRole('button', { name: 'Chat with us' }).click();
      const dialog = chatDialog(visitor.page);
      await dialog.getByText(offline).waitFor();

      // A staff member on Bookings (not Chat) counts as available.
      await staff.page.goto('/admin/bookings');
      await staff.page.getByRole('heading', { name: 'Bookings', level: 1 }).waitFor();
      await dialog.getByText(online).waitFor();
      const availability = staff.page.getByRole('switch', { name: /Chat availability/ });
      expect(await availability.getAttribute('aria-checked')).toBe('true');

      // Unread before this visitor writes (a retried run finds its first try's message).
      const badge = staff.page.getByRole('navigation', { name: 'Console' }).getByTestId('chat-unread');
      const unreadBefore = (await badge.count()) > 0 ? Number((await badge.textContent())!.match(/\d+/)![0]) : 0;
      const unread = unreadBefore + 1;

      // Away: visitors see offline, and leave a message with their email.
      await availability.click();
      await expect.poll(() => availability.getAttribute('aria-checked')).toBe('false');
      await dialog.getByText(offline).waitFor();
      await dialog.getByLabel('Your email').fill(email);
      await dialog.getByLabel('Message', { exact: true }).fill('Can you notarize a deed this evening?');
      await dialog.getByRole('button', { name: 'Leave a message' }).click();
      await dialog.getByText(`We'll reply to ${email}.`).waitFor();

      // The console shows it on whatever page is open: a badge by Chat, and the title.
      await expect.poll(() => badge.textContent()).toBe(unreadText(unread));
      await expect.poll(() => staff.page.title()).toMatch(new RegExp(`^\\(${unread}\\) Bookings`));
      expect(await axeViolations(staff.page)).toEqual([]);

      // The Away choice holds across a reload; Available again brings the visitor's "online" back.
      await staff.page.reload();
      await staff.page.getByRole('heading', { name: 'Bookings', level: 1 }).waitFor();
      await expect.poll(() => staff.page.getByRole('switch', { name: /Chat availability/ }).getAttribute('aria-checked')).toBe('false');
      await staff.page.getByRole('switch', { name: /Chat availability/ }).click();
      await dialog.getByText(online).waitFor();

      // The visitor leaves; staff reply from the Chat page; the reply is emailed with the conversation.
      await visitor.close();
      await staff.page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: /^Chat/ }).click();
      await staff.page.getByRole('button', { name: new RegExp(email.replace(/[.+]/g, '\\$&')) }).click();
      await staff.page.getByRole('textbox', { name: 'Reply' }).fill('Yes: book any evening slot and we will see you then.');
      await staff.page.getByRole('textbox', { name: 'Reply' }).press('Enter');
      const mail = await waitForMail((m) => !!m.headers.to?.includes(email) && m.headers.subject === 'NotaryOnline replied to your chat message');
      expect(mail.text).toContain('You: Can you notarize a deed this evening?');
      expect(mail.text).toContain('Yes: book any evening slot and we will see you then.');
      // Read on the Chat page: the badge and the title's count go (back to what they were).
      if (unreadBefore === 0) {
        await expect.poll(() => badge.count()).toBe(0);
        await expect.poll(() => staff.page.title()).toMatch(/^Chat \|/);
      } else {
        await expect.poll(() => badge.textContent()).toBe(unreadText(unreadBefore));
      }
      expect(staff.errors.filter((e) => !ignorable(e))).toEqual([]);
    } finally {
      await staff.close();
      // Closed mid-test already (the visitor leaves): a second close is harmless.
      await visitor.close().catch(() => {});
    }
  });

  it('items 13, 14, 16: field messages in console forms, the two-factor QR code, human words', async () => {
    const admin = await openBrowser({ width: 1280, height: 800 });
    const newcomer = await openBrowser({ width: 1280, height: 800 });
    const notary = await openBrowser({ width: 1280, height: 800 });
    try {
      await signInAs(admin, 'admin');
      const { page } = admin;

      // Staff: an invalid email gets its field's message.
      await page.goto('/admin/staff');
      await page.getByLabel('Email').fill('not-an-email');
      await page.getByRole('button', { name: 'Create invitation' }).click();
      await page.getByText('Please enter a valid email address').waitFor();
      expect(await page.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
      await page.getByLabel('Email').fill(`new-${Date.now()}@example.com`);
      await page.getByRole('button', { name: 'Create invitation' }).click();
      const link = (await page.getByText(/\/admin\/invite\/[a-z2-7]{32}/).textContent())!.trim();

      // The invitation page: a short password is a sentence under the field, never JSON.
      await newcomer.page.goto(new URL(link).pathname);
      await newcomer.page.getByLabel('Your name').fill('Nova Newcomer');
      await newcomer.page.getByLabel('Password').fill('short');
      await newcomer.page.getByRole('button', { name: 'Create account' }).click();
      await newcomer.page.getByText('Use at least 12 characters for the password.').waitFor();
      const text = (await newcomer.page.locator('main').textContent()) ?? '';
      expect(text).not.toMatch(/too_small|"code"|\[\{/);
      expect(await newcomer.page.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');
      expect(await axeViolations(newcomer.page)).toEqual([]);

      // Booking detail: history and payment in words; the cancel form's own message.
      await page.goto(`/admin/bookings/${booking.bookingId}`);
      const history = page.getByRole('region', { name: 'History' });
      await history.getByText('Booking started').waitFor();
      expect((await history.textContent()) ?? '').not.toMatch(/\b(booking|document|payment)\.[a-z_]+/);
      expect((await history.textContent()) ?? '').toContain('Confirmed');
      await page.getByText('Paid', { exact: true }).waitFor();
      expect(await page.getByText('succeeded', { exact: true }).count()).toBe(0);
      await page.getByRole('button', { name: 'Cancel with refund…' }).click();
      await page.getByRole('button', { name: 'Cancel and refund' }).click();
      await page.getByText('Please give a reason').waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Keep booking' }).click();

      // Two-factor set-up (a notary without it): the key as a QR code drawn as SVG on our server.
      await signInAs(notary, 'notary');
      await notary.page.goto('/admin/account');
      await notary.page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
      const qr = notary.page.getByRole('img', { name: /QR code/ });
      await qr.waitFor();
      expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
      await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      await notary.page.getByLabel('6-digit code').fill('12');
      await notary.page.getByRole('button', { name: 'Turn on' }).click();
      await notary.page.getByText('Enter the 6-digit code').waitFor();
      expect(await axeViolations(notary.page)).toEqual([]);
      for (const b of [admin, newcomer, notary]) expect(b.errors.filter((e) => !ignorable(e))).toEqual([]);
    } finally {
      await Promise.all([admin.close(), newcomer.close(), notary.close()]);
    }
  });

  it('item 15: the console on a phone (375 × 812): a compact header, chat, staff, bookings and the notary’s day', async () => {
    const admin = await openBrowser({ width: 375, height: 812 });
    const notary = await openBrowser({ width: 375, height: 812 });
    try {
      await signInAs(admin, 'admin');
      const adminCookie = `${staffSessionCookie}=${staffAccounts().admin.session}`;
      const notaries = await trpcHttp(baseUrl(), 'staff.notaries', { type: 'query', cookie: adminCookie });
      const nia = (notaries.body.result!.data.json as { id: string; email: string }[]).find((n) => n.email === staffAccounts().notary.email)!;
      await trpcHttp(baseUrl(), 'console.bookings.assignNotary', { input: { bookingId: booking.bookingId, notaryId: nia.id }, cookie: adminCookie });

      for (const [path, heading] of [
        ['/admin/bookings', 'Bookings'],
        ['/admin/chat', 'Chat'],
        ['/admin/staff', 'Staff'],
      ] as const) {
        await admin.page.goto(path);
        await admin.page.getByRole('heading', { name: heading, level: 1 }).waitFor();
        const header = (await admin.page.locator('header').boundingBox())!;
        // Two rows at most: brand, presence and sign-out, then the pages.
        expect(header.height, path).toBeLessThan(130);
        const signOut = (await admin.page.getByRole('button', { name: 'Sign out' }).boundingBox())!;
        expect(signOut.y + signOut.height).toBeLessThan(70);
        expect(await admin.page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(375);
        expect(await axeViolations(admin.page), path).toEqual([]);
      }
      await admin.page.goto('/admin/bookings');
      await admin.page.getByRole('link', { name: 'Grace Hopper' }).first().waitFor();

      await signInAs(notary, 'notary');
      await notary.page.goto('/admin/appointments');
      await notary.page.getByText(/Grace Hopper/).first().waitFor();
      expect(await notary.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      // Notaries do not answer chats: no availability switch.
      expect(await notary.page.getByRole('switch', { name: /Chat availability/ }).count()).toBe(0);
      expect(await axeViolations(notary.page)).toEqual([]);
      // The appointment: identity proofing per signer (credential analysis, KBA, the visual confirmation).
      await notary.page.goto(`/admin/appointments/${booking.bookingId}`);
      await notary.page.getByRole('heading', { name: 'Identity proofing' }).waitFor();
      await notary.page.getByTestId('kba-result').getByText('Not started').waitFor();
      await notary.page.getByTestId('visual-confirmation').getByText(/Not yet confirmed/).waitFor();
      expect(await notary.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      expect(await axeViolations(notary.page)).toEqual([]);
    } finally {
      await Promise.all([admin.close(), notary.close()]);
    }
  });
});

describe('issue 30: what staff and notaries tripped over, round 3', () => {
  it('the commission form on the journal page: an empty number is a sentence on its field, and the date stays in its box (1280 and 390 px)', async () => {
    for (const width of [1280, 390]) {
      const notary = await openBrowser({ width, height: width === 390 ? 844 : 800 });
      try {
        await signInAs(notary, 'notary');
        const { page } = notary;
        await page.goto('/admin/journal');
        const form = page.getByRole('region', { name: 'Commission' });
        await form.getByRole('button', { name: 'Save commission' }).waitFor();
        await form.getByLabel('Commission number').fill('');
        await form.getByRole('button', { name: 'Save commission' }).click();
        const message = form.getByText('Enter your commission number.');
        await message.waitFor();
        expect(await form.getByLabel('Commission number').getAttribute('aria-invalid')).toBe('true');
        expect(await form.getByLabel('Commission number').getAttribute('aria-describedby')).toBe(await message.getAttribute('id'));
        expect((await page.locator('main').textContent()) ?? '').not.toMatch(/too_small|"code"|\[\s*\{/);
        const box = (await form.locator('form').boundingBox())!;
        const date = (await form.getByLabel('Commission expires').boundingBox())!;
        expect(date.x + date.width, `${width}px`).toBeLessThanOrEqual(box.x + box.width);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), `${width}px`).toBeLessThanOrEqual(width);
        expect(await axeViolations(page)).toEqual([]);
        expect(notary.errors.filter((e) => !ignorable(e))).toEqual([]);
      } finally {
        await notary.close();
      }
    }
  });
});
