import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actStageLabels } from '../../src/shared/act-stages.ts';
import { loadConfig } from '../../src/server/config.ts';
import { openPglite } from '../../src/server/db/client.ts';
import { bookings, contactMessages, customers, documents, notarialDocuments, notaryProfiles, payments } from '../../src/server/db/schema.ts';
import { buildDeps, type Deps } from '../../src/server/deps.ts';
import { createLogger } from '../../src/server/logger.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { createStaffUser, type TestStaffUser } from '../helpers/staff.ts';
import { axeViolations, openBrowser, type Browser } from './browser.ts';

/**
 * The console against its own production server, whose embedded database is
 * seeded first (accounts, bookings, a document) while no server holds it.
 */
async function seed(dataDir: string) {
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const database = await openPglite(path.join(dataDir, 'pglite'));
  const deps: Deps = await buildDeps(config, database, createLogger('silent'));
  const users = {
    admin: await createStaffUser(deps, { role: 'admin', name: 'Ada Admin' }),
    staff: await createStaffUser(deps, { role: 'staff', name: 'Sam Staff' }),
    notary: await createStaffUser(deps, { role: 'notary', name: 'Nia Notary', timeZone: 'America/Los_Angeles' }),
    otherNotary: await createStaffUser(deps, { role: 'notary', name: 'Oscar Other' }),
  };
  const book = async (name: string, startsAt: Date, notaryId: string | null) => {
    const [customer] = await deps.db.insert(customers).values({ firstName: name, lastName: 'Customer', email: `${name.toLowerCase()}@example.com`, phone: '(515) 555-0142' }).returning();
    const [booking] = await deps.db
      .insert(bookings)
      .values({ reference: `NOTARY-${randomUUID().slice(0, 8).toUpperCase()}`, status: 'confirmed', startsAt, timeZone: 'America/New_York', priceCents: 2500, customerId: customer!.id, notaryId })
      .returning();
    const key = `${booking!.id}/${randomUUID()}.pdf`;
    const bytes = Buffer.from(`%PDF-1.4 ${name}`);
    await deps.storage.put(key, Readable.from(bytes), { contentType: 'application/pdf' });
    const [doc] = await deps.db
      .insert(documents)
      .values({ bookingId: booking!.id, originalName: `${name} deed.pdf`, contentType: 'application/pdf', sizeBytes: bytes.length, storageKey: key, status: 'stored', scanStatus: 'clean', storedAt: new Date() })
      .returning();
    return { booking: booking!, document: doc! };
  };
  const hour = 3600_000;
  const mine = await book('Grace', new Date(Math.ceil((Date.now() + 3 * hour) / (30 * 60_000)) * 30 * 60_000), null);
  const theirs = await book('Alan', new Date(Math.ceil((Date.now() + 5 * hour) / (30 * 60_000)) * 30 * 60_000), users.otherNotary.id);
  // 60 past appointments, completed, two to the same hour each: more than one page of the console's list.
  // The notary had the first 25: more than one page of their past appointments (20 a page).
  const [pager] = await deps.db.insert(customers).values({ firstName: 'Paige', lastName: 'Pager', email: 'paige@example.com' }).returning();
  await deps.db.insert(bookings).values(
    Array.from({ length: 60 }, (_, i) => ({
      reference: `NOTARY-PAGE${String(i).padStart(4, '0')}`,
      status: 'completed' as const,
      startsAt: new Date(Math.floor(Date.now() / hour) * hour - (24 + Math.floor(i / 2)) * hour),
      priceCents: 2500,
      customerId: pager!.id,
      notaryId: i < 25 ? users.notary.id : null,
    })),
  );
  // Alan's act already happened: paid, and his document sealed (the console's refund-with-reason case).
  await deps.db.insert(payments).values({ bookingId: theirs.booking.id, provider: 'test', providerPaymentId: `pi_test_${randomUUID().slice(0, 8)}`, amountCents: 2500, status: 'succeeded' });
  await deps.db.insert(notarialDocuments).values({ bookingId: theirs.booking.id, documentId: theirs.document.id, actType: 'acknowledgment', sealedAt: new Date(), sealedSha256: '0'.repeat(64) });
  await deps.db.insert(contactMessages).values({ kind: 'business', name: 'Bea Business', email: 'bea@example.com', company: 'Acme', message: 'Do you offer volume pricing?' });
  // A CA-issued signing certificate on file for each notary, ten days from expiry (the console warns from 30).
  const expiresAt = new Date(Date.now() + 10 * 86_400_000);
  for (const notary of [users.notary, users.otherNotary]) {
    await deps.db.insert(notaryProfiles).values({
      staffUserId: notary.id,
      certificateKind: 'uploaded',
      certificateSubject: `CN=${notary.email}, O=NotaryOnline tests`,
      certificateExpiresAt: expiresAt,
      certificateInfo: { subject: `CN=${notary.email}, O=NotaryOnline tests`, issuer: 'CN=NotaryOnline Test Root CA, O=NotaryOnline tests', serialNumber: '1000', notBefore: '2026-01-01T00:00:00.000Z', notAfter: expiresAt.toISOString(), keyUsage: ['digitalSignature', 'nonRepudiation'], selfSigned: false },
    });
  }
  await database.close();
  return { users, mine, theirs };
}

const ignorable = (message: string) => message.includes('Failed to load resource');

describe('staff console', () => {
  let server: RunningServer;
  let seeded: Awaited<ReturnType<typeof seed>>;
  let browser: Browser;
  let url: string;

  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'notary-admin-e2e-'));
    seeded = await seed(dataDir);
    server = await startServer({ DATA_DIR: dataDir }, { removeDataDir: true });
    url = server.url;
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function signIn(page: Browser['page'], user: TestStaffUser, next = '/admin') {
    // A retried test starts signed out, whatever the failed attempt left behind.
    await page.context().clearCookies();
    await page.goto(`${url}${next}`);
    await page.waitForURL(/\/admin\/login/);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    if (user.totpSecret) {
      await page.getByLabel('6-digit code').fill(user.totpCode()!);
      await page.getByRole('button', { name: 'Verify' }).click();
    }
  }

  it('serves the console shell uncached and unindexed, sending anonymous visitors to the login', async () => {
    const res = await fetch(`${url}/admin/login`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.text()).toContain('<meta name="robots" content="noindex">');
    const page = browser.page;
    await page.goto(`${url}/admin/bookings`);
    await page.waitForURL(/\/admin\/login\?next=%2Fadmin%2Fbookings/);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
  });

  it('staff: login → bookings → detail → assign a notary, with zero axe violations', async () => {
    const { page } = browser;
    await signIn(page, seeded.users.staff, '/admin/bookings');
    await page.waitForURL(/\/admin\/bookings$/);
    await page.getByRole('link', { name: 'Grace Customer' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel('Reference, name or email').fill('alan@');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: 'Alan Customer' }).waitFor();
    await expect.poll(() => page.getByRole('link', { name: 'Grace Customer' }).count()).toBe(0);
    // A reference pasted whole, in lower case: found by its code (decision 131).
    await page.getByLabel('Reference, name or email').fill(seeded.mine.booking.reference.toLowerCase());
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: 'Grace Customer' }).waitFor();
    await expect.poll(() => page.getByRole('link', { name: 'Alan Customer' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Clear' }).click();

    // Paging: the filter and the page's cursor stay in the address (reload, Back), every row seen once.
    await page.getByLabel('Status').selectOption({ label: 'Completed' });
    await page.waitForURL(/status=completed/);
    const caption = page.locator('table caption');
    const references = () => page.locator('tbody td.font-mono').allTextContents();
    await expect.poll(async () => (await references()).length).toBe(50);
    const first = await references();
    await page.getByRole('link', { name: 'Next page' }).click();
    await page.waitForURL(/status=completed&after=past_\d+_[0-9a-f-]+&page=2/);
    await expect.poll(() => caption.textContent()).toContain('page 2');
    await expect.poll(async () => (await references()).length).toBe(10);
    const second = await references();
    expect(new Set([...first, ...second]).size).toBe(60);
    expect(await page.getByRole('link', { name: 'Next page' }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await page.reload();
    await expect.poll(references).toEqual(second);
    await expect.poll(() => page.getByLabel('Status').inputValue()).toBe('completed');
    await page.goBack();
    await expect.poll(references).toEqual(first);
    await page.getByRole('link', { name: 'Next page' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(references).toEqual(second);
    await page.getByRole('link', { name: 'First page' }).click();
    await expect.poll(references).toEqual(first);
    expect(page.url()).toMatch(/status=completed/);
    expect(page.url()).not.toMatch(/after=/);
    await page.getByRole('button', { name: 'Clear' }).click();

    await page.getByRole('link', { name: 'Grace Customer' }).click();
    await page.getByRole('heading', { name: `Booking ${seeded.mine.booking.reference}` }).waitFor();
    await page.getByText('(America/New York)').first().waitFor();
    await page.getByRole('link', { name: 'Grace deed.pdf' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel('Notary', { exact: true }).selectOption({ label: 'Nia Notary' });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Notary assigned', { exact: true }).first().waitFor();
    await page.getByRole('region', { name: 'History' }).getByText('Notary assigned').waitFor();

    // Staff move the appointment for the customer (who would be told to call inside 24 hours).
    const newDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(new Date(Date.now() + 3 * 86400_000));
    await page.getByLabel(/New date/).fill(newDate);
    // Each time with its zone: the customer's (New York), and the staff member's own (Chicago) under it.
    const firstTime = page.getByRole('group', { name: /Free times/ }).getByRole('button').first();
    expect(await firstTime.textContent()).toMatch(/^\d{1,2}:\d{2} [AP]M E[SD]T\d{1,2}:\d{2} [AP]M C[SD]T for you$/);
    await firstTime.click();
    // Nothing moves before the confirmation, which names the old and the new time.
    await page.getByRole('button', { name: 'Move booking…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Move this appointment?' });
    expect(await dialog.textContent()).toMatch(/From .+\(Eastern (Standard|Daylight) Time\) — .+ C[SD]T for you.*To .+\(Eastern (Standard|Daylight) Time\)/);
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Keep the current time' }).click();
    expect(await page.getByRole('region', { name: 'History' }).getByText('Rescheduled').count()).toBe(0);
    await page.getByRole('button', { name: 'Move booking…' }).click();
    await dialog.getByRole('button', { name: 'Move appointment' }).click();
    await page.getByText('Booking moved', { exact: true }).first().waitFor();
    await page.getByRole('region', { name: 'History' }).getByText('Rescheduled').waitFor();

    const download = await page.request.get(`${url}/api/staff/documents/${seeded.mine.document.id}`);
    expect(download.status()).toBe(200);

    await page.getByRole('link', { name: 'Messages' }).click();
    await page.getByRole('heading', { name: /Bea Business/ }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: /Mark handled/ }).click();
    await page.getByText('No open messages.').waitFor();

    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/admin\/login/);
    expect(browser.errors.filter((e) => !ignorable(e))).toEqual([]);
  });

  it('admin: signs in with a TOTP code, manages staff, refunds a notarized booking with a reason', async () => {
    const { page } = browser;
    const admin = seeded.users.admin;
    await page.goto(`${url}/admin/staff`);
    await page.waitForURL(/\/admin\/login/);
    await page.getByLabel('Email').fill(admin.email);
    await page.getByLabel('Password').fill(admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // A wrong code: the reason, on the code field.
    const right = admin.totpCode()!;
    const wrong = right.replace(/\d/g, (d) => String((Number(d) + 5) % 10));
    const code = page.getByLabel('6-digit code');
    await code.fill(wrong);
    await page.getByRole('button', { name: 'Verify' }).click();
    const message = page.getByText('That code is not right. Codes change every 30 seconds — enter the current one.');
    await message.waitFor();
    expect(await code.getAttribute('aria-invalid')).toBe('true');
    expect(await code.getAttribute('aria-describedby')).toBe(await message.getAttribute('id'));
    expect(await page.getByText('Please check the form and try again.').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await code.fill(admin.totpCode()!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(/\/admin\/staff$/);
    // A new installation: no notary has hours, and admins are told on every page.
    await page.getByRole('link', { name: 'Set working hours' }).waitFor();
    const accounts = page.getByRole('table', { name: 'Accounts' });
    await accounts.waitFor();

    // Arrowing through a role changes nothing; the change is confirmed, naming the person and the roles.
    const other = seeded.users.otherNotary;
    const row = accounts.getByRole('row').filter({ hasText: other.email });
    const role = page.getByLabel(`Role of ${other.email}`);
    await role.focus();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await page.getByRole('button', { name: `Change role… of ${other.email}` }).waitFor();
    expect(await page.getByText('Role changed', { exact: true }).count()).toBe(0);
    await role.selectOption('staff');
    await page.getByRole('button', { name: `Change role… of ${other.email}` }).click();
    const roleDialog = page.getByRole('dialog', { name: `Change the role of Oscar Other (${other.email})?` });
    expect(await roleDialog.textContent()).toContain('changes from Notary to Staff');
    expect(await axeViolations(page)).toEqual([]);
    await roleDialog.getByRole('button', { name: 'Change role' }).click();
    await page.getByText('Role changed', { exact: true }).first().waitFor();
    await page.reload();
    await expect.poll(() => page.getByLabel(`Role of ${other.email}`).inputValue()).toBe('staff');

    // Deactivating asks first too.
    await row.getByRole('button', { name: `Deactivate… ${other.email}` }).click();
    const deactivateDialog = page.getByRole('dialog', { name: `Deactivate Oscar Other (${other.email})?` });
    await deactivateDialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await row.getByText('Active', { exact: true }).count()).toBe(1);
    await row.getByRole('button', { name: `Deactivate… ${other.email}` }).click();
    await deactivateDialog.getByRole('button', { name: 'Deactivate account' }).click();
    await row.getByText('Deactivated', { exact: true }).waitFor();

    await page.getByLabel('Email').fill('new.person@example.com');
    await page.getByRole('button', { name: 'Create invitation' }).click();
    await page.getByText(/\/admin\/invite\/[a-z2-7]{32}/).waitFor();
    // The notary's certificate: subject, issuer, validity, key usage, the expiry warning and the seal level, said plainly.
    const certificate = page.getByRole('status').filter({ hasText: 'On file: uploaded' });
    await certificate.getByText('CN=NotaryOnline Test Root CA, O=NotaryOnline tests').waitFor();
    await certificate.getByText('digitalSignature, nonRepudiation').waitFor();
    await certificate.getByText(/upload its renewal before then/).waitFor();
    await certificate.getByText(/Seals are PAdES B-B: no timestamp authority is configured/).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // A booking whose document is notarized cannot be cancelled; the admin refunds with a reason instead.
    await page.goto(`${url}/admin/bookings/${seeded.theirs.booking.id}`);
    await page.getByRole('heading', { name: `Booking ${seeded.theirs.booking.reference}` }).waitFor();
    await page.getByText('A document of this booking is notarized, so it can no longer be cancelled.', { exact: false }).waitFor();
    expect(await page.getByRole('button', { name: 'Cancel with refund…' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Refund with reason…' }).click();
    await page.getByRole('button', { name: 'Refund payment' }).click();
    await page.getByText('Please give a reason for the refund.').first().waitFor();
    await page.getByLabel('Reason for the refund (shown in the history)').fill('Charged twice by mistake');
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Refund payment' }).click();
    await page.getByText('Payment refunded', { exact: true }).first().waitFor();
    const history = page.getByRole('region', { name: 'History' });
    await history.getByText('Refunded by an admin').waitFor();
    await history.getByText('Reason: Charged twice by mistake').waitFor();
    expect(await page.getByRole('button', { name: 'Refund with reason…' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/admin\/login/);
  });

  it('notary: sees only assigned appointments and cannot fetch other documents', async () => {
    const notary = await openBrowser();
    try {
      const { page } = notary;
      await signIn(page, seeded.users.notary);
      await page.waitForURL(/\/admin\/appointments$/);
      await page.getByText('Times in your zone: America/Los Angeles.').waitFor();
      await page.getByText(/Grace Customer/).waitFor();
      expect(await page.getByText(/Alan Customer/).count()).toBe(0);
      // Newly assigned: marked in the list and counted in the navigation until opened.
      await page.getByTestId('new-appointments').getByText('1').waitFor();
      await page.getByText('New', { exact: true }).waitFor();
      await page.getByText('Waiting for customer').first().waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole('link', { name: /PDT|PST/ }).first().click();
      await page.getByRole('link', { name: 'Grace deed.pdf' }).waitFor();
      await page.getByRole('link', { name: 'Start session' }).waitFor();
      // The act's stage and the signer's identity status, as the server says.
      expect(await page.getByTestId('act-stage').textContent()).toBe(`Act: ${actStageLabels.waiting}`);
      expect(await page.getByTestId('signer-identity').textContent()).toContain('Not verified yet');
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole('link', { name: '← My appointments' }).click();
      // Past appointments stay reachable after the day ends: their own, 20 a page.
      const past = page.getByTestId('past-appointments');
      await expect.poll(() => past.getByRole('listitem').count(), { timeout: 15_000 }).toBe(20);
      expect(await past.getByText(/NOTARY-PAGE/).count()).toBe(20);
      await page.getByRole('button', { name: 'Older' }).click();
      await expect.poll(() => past.getByRole('listitem').count(), { timeout: 15_000 }).toBe(5);
      expect(await page.getByRole('button', { name: 'Older' }).count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Newer' }).click();
      await expect.poll(() => past.getByRole('listitem').count(), { timeout: 15_000 }).toBe(20);
      await past.getByRole('link').first().click();
      await page.getByTestId('act-stage').waitFor();
      await page.getByRole('link', { name: '← My appointments' }).click();
      await expect.poll(() => page.getByTestId('new-appointments').count(), { timeout: 10_000 }).toBe(0);
      expect((await page.request.get(`${url}/api/staff/documents/${seeded.mine.document.id}`)).status()).toBe(200);
      expect((await page.request.get(`${url}/api/staff/documents/${seeded.theirs.document.id}`)).status()).toBe(403);
      await page.goto(`${url}/admin/bookings`);
      await page.waitForURL(/\/admin\/appointments$/);

      // Working hours (issue 28): until saved, business hours apply and the public pages say so.
      const home = async () => (await fetch(`${url}/`)).text();
      expect(await home()).toContain('Notaries are available every day 8:00 AM–11:00 PM (Central Time).');
      await page.getByRole('link', { name: 'Working hours' }).click();
      await page.getByRole('heading', { name: 'Working hours', level: 1 }).waitFor();
      await page.getByTestId('business-hours-notice').waitFor();
      await page.getByRole('switch', { name: 'Off duty' }).click();
      await expect.poll(() => page.getByRole('switch').getAttribute('aria-checked'), { timeout: 10_000 }).toBe('true');
      expect(await page.getByRole('switch').textContent()).toBe('On duty');
      await page.getByLabel('Monday', { exact: true }).check();
      await page.getByLabel('Monday from').fill('09:00');
      await page.getByLabel('Monday to').fill('17:00');
      await page.getByRole('button', { name: 'Save working hours' }).click();
      await page.getByText('Working hours saved.').first().waitFor();
      // 9:00 AM–5:00 PM in Los Angeles is 11:00 AM–7:00 PM Central; the notice is gone.
      await page.getByText('Monday 11:00 AM–7:00 PM (Central Time)').waitFor();
      expect(await page.getByTestId('business-hours-notice').count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      // The cached home page was forgotten: it states the new hours at once.
      const after = await home();
      expect(after).toContain('Notaries are available Monday 11:00 AM–7:00 PM (Central Time).');
      expect(after).toContain('"dayOfWeek":"Monday","opens":"11:00","closes":"19:00"');
      // Bad hours: a clear message, nothing saved.
      await page.getByLabel('Tuesday', { exact: true }).check();
      await page.getByLabel('Tuesday from').fill('17:00');
      await page.getByLabel('Tuesday to').fill('09:00');
      await page.getByRole('button', { name: 'Save working hours' }).click();
      await page.getByText('Tuesday: the hours must end after they start.').waitFor();
      // Off sick: one action, confirmed first.
      await page.getByRole('button', { name: 'Off sick today' }).click();
      const sick = page.getByRole('dialog', { name: 'Off sick today?' });
      expect(await axeViolations(page)).toEqual([]);
      await sick.getByRole('button', { name: 'Take today off' }).click();
      await page.getByText(/^Today is off\. \d+ appointments? reassigned\./).first().waitFor();
      expect(notary.errors.filter((e) => !ignorable(e))).toEqual([]);
    } finally {
      await notary.close();
    }
  });
});
