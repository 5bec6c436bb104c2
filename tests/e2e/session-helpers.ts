import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { loadConfig } from '../../src/server/config.ts';
import { openPglite } from '../../src/server/db/client.ts';
import { bookings, customers, documents } from '../../src/server/db/schema.ts';
import { buildDeps, type Deps } from '../../src/server/deps.ts';
import { hashToken } from '../../src/server/tokens.ts';
import { createLogger } from '../../src/server/logger.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { createStaffUser, type TestStaffUser } from '../helpers/staff.ts';
import { openBrowser, type Browser } from './browser.ts';

/**
 * Building blocks of the session-room journeys (reused by the identity and
 * signing journeys): a server whose embedded database is seeded first with a
 * confirmed, paid booking starting in a few minutes (inside the room's
 * 10-minute window, which the wizard cannot book), its assigned notary and
 * another notary; browsers with fake camera and microphone; both sides' entry.
 */

export const fakeMediaArgs = ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', '--autoplay-policy=no-user-gesture-required'];

export interface SessionFixture {
  server: RunningServer;
  bookingId: string;
  reference: string;
  manageToken: string;
  notary: TestStaffUser;
  otherNotary: TestStaffUser;
  /** A fully signed-in session cookie of the other notary (made while seeding). */
  otherNotaryCookie: string;
  dataDir: string;
}

export async function seedSession(dataDir: string, options: { startsInMinutes?: number } = {}) {
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const database = await openPglite(path.join(dataDir, 'pglite'));
  const deps: Deps = await buildDeps(config, database, createLogger('silent'));
  const notary = await createStaffUser(deps, { role: 'notary', name: 'Nia Notary' });
  const otherNotary = await createStaffUser(deps, { role: 'notary', name: 'Oscar Other' });
  const otherNotaryCookie = await otherNotary.sessionCookie();
  const [customer] = await deps.db.insert(customers).values({ firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com', phone: '(515) 555-0142' }).returning();
  const manageToken = randomBytes(32).toString('base64url');
  const startsAt = new Date(Date.now() + (options.startsInMinutes ?? 5) * 60_000);
  const [booking] = await deps.db
    .insert(bookings)
    .values({
      reference: `NOTARY-${randomUUID().slice(0, 8).toUpperCase()}`,
      status: 'confirmed',
      startsAt,
      timeZone: 'America/Chicago',
      priceCents: 2500,
      customerId: customer!.id,
      notaryId: notary.id,
      notaryAssignedAt: new Date(),
      manageTokenHash: hashToken(manageToken),
      confirmedAt: new Date(),
    })
    .returning();
  const bytes = readFileSync('tests/fixtures/sample.pdf');
  const key = `${booking!.id}/${randomUUID()}.pdf`;
  await deps.storage.put(key, Readable.from(bytes), { contentType: 'application/pdf' });
  await deps.db.insert(documents).values({ bookingId: booking!.id, originalName: 'Deed of trust.pdf', contentType: 'application/pdf', sizeBytes: bytes.length, storageKey: key, status: 'stored', scanStatus: 'clean', storedAt: new Date() });
  await database.close();
  return { bookingId: booking!.id, reference: booking!.reference, manageToken, notary, otherNotary, otherNotaryCookie };
}

/** Seeds, then starts the production server on that data (extra environment: TURN settings…). */
export async function startSessionServer(env: Record<string, string> = {}): Promise<SessionFixture> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'notary-session-e2e-'));
  const seeded = await seedSession(dataDir);
  const server = await startServer({ DATA_DIR: dataDir, ...env });
  return { ...seeded, server, dataDir };
}

export function openMediaBrowser(fixture: SessionFixture): Promise<Browser> {
  return openBrowser({ args: fakeMediaArgs, baseURL: fixture.server.url });
}

/** Signs in on the way to `next`; a page already signed in (a retried journey's browser) goes straight there. */
export async function signInNotary(page: Page, fixture: SessionFixture, user: TestStaffUser, next: string) {
  // The server redirects an anonymous visitor before the page loads: goto ends on the final URL.
  await page.goto(`${fixture.server.url}${next}`);
  if (new URL(page.url()).pathname === next) return;
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === next);
}

/** Customer: manage page → Join video session → device check → Join session. */
export async function customerJoins(page: Page, fixture: SessionFixture) {
  await page.goto(`${fixture.server.url}/booking/${fixture.manageToken}`);
  await page.getByRole('link', { name: 'Join video session' }).click();
  await page.waitForURL(/\/session$/);
  await joinFromDeviceCheck(page);
}

/** Notary: appointment page in the console → Start session → device check → Join session. */
export async function notaryJoins(page: Page, fixture: SessionFixture) {
  await signInNotary(page, fixture, fixture.notary, `/admin/appointments/${fixture.bookingId}`);
  await page.getByRole('link', { name: 'Start session' }).click();
  await page.waitForURL(/\/session$/);
  await joinFromDeviceCheck(page);
}

export async function joinFromDeviceCheck(page: Page) {
  await page.getByRole('heading', { name: 'Check your camera and microphone' }).waitFor();
  const join = page.getByRole('button', { name: 'Join session' });
  await expect.poll(() => join.isEnabled(), { timeout: 15_000 }).toBe(true);
  await join.click();
}

/** The other participant's video is playing: frames have a size and time advances. */
export async function expectRemoteVideoPlaying(page: Page) {
  const video = page.getByTestId('remote-video');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.videoWidth), { timeout: 30_000 }).toBeGreaterThan(0);
  const first = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 15_000 }).toBeGreaterThan(first);
}
