import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.ts';
import { openPglite } from '../../src/server/db/client.ts';
import { bookings, customers, outbox } from '../../src/server/db/schema.ts';
import { buildDeps, type Deps } from '../../src/server/deps.ts';
import { createLogger } from '../../src/server/logger.ts';
import { onBookingConfirmed } from '../../src/server/features/notifications/events.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { createStaffUser } from '../helpers/staff.ts';
import { axeViolations, openBrowser, type Browser } from './browser.ts';

/**
 * The mail outbox page against its own production server. Two confirmed
 * bookings are seeded with their emails queued by the real event handler
 * (each holding a live manage-link token); one customer email is then marked
 * failed, as after a bounce, so its stored copy still holds the token.
 */
async function seed(dataDir: string) {
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const database = await openPglite(path.join(dataDir, 'pglite'));
  const deps: Deps = await buildDeps(config, database, createLogger('silent'));
  const users = {
    staff: await createStaffUser(deps, { role: 'staff', name: 'Sam Staff' }),
    notary: await createStaffUser(deps, { role: 'notary', name: 'Nia Notary' }),
  };
  const confirm = async (firstName: string) => {
    const [customer] = await deps.db.insert(customers).values({ firstName, lastName: 'Customer', email: `${firstName.toLowerCase()}@example.com` }).returning();
    const [booking] = await deps.db
      .insert(bookings)
      .values({ reference: `NOTARY-${randomUUID().slice(0, 8).toUpperCase()}`, status: 'confirmed', startsAt: new Date(Date.now() + 3 * 86_400_000), priceCents: 2500, customerId: customer!.id })
      .returning();
    const manageToken = randomBytes(24).toString('base64url');
    await deps.db.transaction((tx) => onBookingConfirmed(tx, deps, { bookingId: booking!.id, manageToken }));
    return { reference: booking!.reference, manageToken, dedupeKey: `booking-confirmed:${booking!.id}` };
  };
  const delivered = await confirm('Dora');
  const bounced = await confirm('Bruno');
  await deps.db
    .update(outbox)
    .set({ status: 'failed', attempts: 8, lastError: '550 5.1.1 <bruno@example.com>: mailbox unavailable', nextAttemptAt: sql`now()` })
    .where(eq(outbox.dedupeKey, bounced.dedupeKey));
  await database.close();
  return { users, delivered, bounced };
}

/**
 * axeViolations() with the email preview frame left out: a sandbox without
 * scripts is exactly what keeps axe (and anything else) from running inside
 * it. The frame element's own title is asserted separately; the email's
 * markup is checked on its own page below.
 */
async function consoleViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).exclude('iframe').analyze();
  return results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

describe('staff console: mail', () => {
  let server: RunningServer;
  let seeded: Awaited<ReturnType<typeof seed>>;
  let browser: Browser;
  let url: string;

  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'notary-mail-e2e-'));
    seeded = await seed(dataDir);
    server = await startServer({ DATA_DIR: dataDir }, { removeDataDir: true });
    url = server.url;
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('lists the outbox, shows a message safely without live tokens, and retries a failed one', async () => {
    const { page } = browser;
    await page.goto(`${url}/admin/mail`);
    await page.waitForURL(/\/admin\/login/);
    await page.getByLabel('Email').fill(seeded.users.staff.email);
    await page.getByLabel('Password').fill(seeded.users.staff.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/admin\/mail$/);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Mail' }).waitFor();

    const table = page.getByRole('table', { name: /Outgoing email/ });
    await table.waitFor();
    const bouncedRow = table.getByRole('row').filter({ hasText: 'bruno@example.com' });
    await bouncedRow.getByText('Failed').waitFor();
    await bouncedRow.getByText('550 5.1.1').waitFor();
    // The server's worker delivers the rest to the dev mailbox; the list follows.
    await page.reload();
    await table.getByRole('row').filter({ hasText: 'dora@example.com' }).getByText('Sent').waitFor({ timeout: 20_000 });
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel('Show').selectOption('failed');
    await page.waitForURL(/status=failed/);
    await expect.poll(() => table.getByRole('row').filter({ hasText: 'dora@example.com' }).count()).toBe(0);

    await bouncedRow.getByRole('link', { name: new RegExp(seeded.bounced.reference) }).click();
    await page.waitForURL(/\/admin\/mail\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { level: 1, name: new RegExp(seeded.bounced.reference) }).waitFor();
    await page.getByText('mailbox unavailable').waitFor();
    const frame = page.locator('iframe');
    expect(await frame.getAttribute('sandbox')).toBe('');
    expect(await frame.getAttribute('title')).toMatch(/^Email preview/);
    await page.frameLocator('iframe').getByText(seeded.bounced.reference).filter({ visible: true }).first().waitFor();
    // Never sent, so the stored copy still holds the token: the page must not.
    expect(await page.content()).not.toContain(seeded.bounced.manageToken);
    const srcdoc = (await frame.getAttribute('srcdoc'))!;
    expect(srcdoc).toContain('[private link hidden]');
    expect(await consoleViolations(page)).toEqual([]);
    // The email itself, as a customer's mail client would show it: WCAG rules only
    // (landmarks are page structure a mail client supplies, not the message).
    const emailPage = await browser.context.newPage();
    await emailPage.setContent(srcdoc);
    const email = await new AxeBuilder({ page: emailPage }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    expect(email.violations.map((v) => v.id)).toEqual([]);
    await emailPage.close();

    await page.getByRole('button', { name: 'Retry now' }).click();
    await page.getByText('Queued to send now', { exact: true }).waitFor();
    await page.getByRole('definition').filter({ hasText: /^Sent$/ }).waitFor({ timeout: 20_000 });
    expect(await page.getByRole('button', { name: 'Retry now' }).count()).toBe(0);
    expect(await page.content()).not.toContain(seeded.bounced.manageToken);
    expect(browser.errors).toEqual([]);
  });

  it('is refused to notaries', async () => {
    const notary = await openBrowser();
    try {
      const { page } = notary;
      await page.goto(`${url}/admin/mail`);
      await page.getByLabel('Email').fill(seeded.users.notary.email);
      await page.getByLabel('Password').fill(seeded.users.notary.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/admin\/appointments$/);
      expect(await page.getByRole('link', { name: 'Mail' }).count()).toBe(0);
      const res = await page.request.get(`${url}/trpc/console.mail.list?input=${encodeURIComponent(JSON.stringify({ json: {} }))}`);
      expect(res.status()).toBe(403);
    } finally {
      await notary.close();
    }
  });
});
