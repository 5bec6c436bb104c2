import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { BrowserContext, Page } from 'playwright-core';
import { loadConfig } from '../../src/server/config.ts';
import { openPglite } from '../../src/server/db/client.ts';
import { eq } from 'drizzle-orm';
import { bookings, customers, documents, identityVerifications, notaryProfiles, notarySessions, payments, sessionParticipants } from '../../src/server/db/schema.ts';
import { buildDeps, type Deps } from '../../src/server/deps.ts';
import { hashToken } from '../../src/server/tokens.ts';
import { createLogger } from '../../src/server/logger.ts';
import { copyMigratedDataDir } from '../helpers/db.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { createStaffUser, type TestStaffUser } from '../helpers/staff.ts';
import { openBrowser, type Browser } from './browser.ts';
import { kbaPassed } from '../helpers/identity.ts';

/**
 * Building blocks of the session-room journeys (reused by the identity and
 * signing journeys): a server whose embedded database is seeded first with a
 * confirmed, paid booking starting in a few minutes (inside the room's
 * 10-minute window, which the wizard cannot book), its assigned notary and
 * another notary; browsers with fake camera and microphone; both sides' entry.
 */

export const fakeMediaArgs = ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', '--autoplay-policy=no-user-gesture-required'];

/** One seeded booking: confirmed, paid, starting in a few minutes, with one document. */
export interface SessionBooking {
  bookingId: string;
  reference: string;
  manageToken: string;
}

export interface SessionFixture extends SessionBooking {
  server: RunningServer;
  /** More bookings like the first, for a retried journey (the first attempt has advanced the first). */
  spares: SessionBooking[];
  notary: TestStaffUser;
  otherNotary: TestStaffUser;
  /** A fully signed-in session cookie of the other notary (made while seeding). */
  otherNotaryCookie: string;
  dataDir: string;
}

export async function seedSession(dataDir: string, options: { startsInMinutes?: number; bookings?: number; paid?: boolean } = {}) {
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  await copyMigratedDataDir(path.join(dataDir, 'pglite'));
  const database = await openPglite(path.join(dataDir, 'pglite'));
  const deps: Deps = await buildDeps(config, database, createLogger('silent'));
  const notary = await createStaffUser(deps, { role: 'notary', name: 'Nia Notary' });
  const otherNotary = await createStaffUser(deps, { role: 'notary', name: 'Oscar Other' });
  const otherNotaryCookie = await otherNotary.sessionCookie();
  const seeded: SessionBooking[] = [];
  for (let i = 0; i < (options.bookings ?? 1); i++) {
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
    // Its payment (the test provider's), for a journey about the booking page's payment lines.
    if (options.paid) await deps.db.insert(payments).values({ bookingId: booking!.id, provider: 'test', providerPaymentId: `pi_test_${randomUUID().replace(/-/g, '')}`, amountCents: 2500, status: 'succeeded', method: 'card' });
    // A 3-page affidavit with its "Signature: ____" and "Date: ____" lines on page 3 (issue 26).
    const bytes = readFileSync('tests/fixtures/affidavit-3-pages.pdf');
    const key = `${booking!.id}/${randomUUID()}.pdf`;
    await deps.storage.put(key, Readable.from(bytes), { contentType: 'application/pdf' });
    await deps.db.insert(documents).values({ bookingId: booking!.id, originalName: 'Affidavit of residence.pdf', contentType: 'application/pdf', sizeBytes: bytes.length, storageKey: key, status: 'stored', scanStatus: 'clean', storedAt: new Date() });
    // The identity questions are passed (their own journey is the manage page's); the ID and
    // selfie, and the notary's confirmation, are done in this journey's browsers.
    await kbaPassed(deps, booking!.id);
    seeded.push({ bookingId: booking!.id, reference: booking!.reference, manageToken });
  }
  await database.close();
  const [first, ...spares] = seeded;
  return { ...first!, spares, notary, otherNotary, otherNotaryCookie };
}

/** A co-signer or witness seeded on the first booking, with the raw token of their own link. */
export interface SeededParticipant {
  id: string;
  name: string;
  role: 'signer' | 'witness';
  token: string;
  /** Their answer to "Where are you right now?" when the act is seeded under way (default Iowa). */
  location?: string;
}

/** A co-signer or witness to seed: name, role and (the act under way) where they are. */
export type ParticipantSeed = Pick<SeededParticipant, 'name' | 'role' | 'location'>;

/** Adds co-signers and witnesses to a seeded booking (before the server opens the database). */
export async function seedParticipants(dataDir: string, bookingId: string, people: ParticipantSeed[]): Promise<SeededParticipant[]> {
  const database = await openPglite(path.join(dataDir, 'pglite'));
  const deps: Deps = await buildDeps(loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), database, createLogger('silent'));
  const seeded: SeededParticipant[] = [];
  for (const person of people) {
    const token = randomBytes(32).toString('base64url');
    const [row] = await deps.db
      .insert(sessionParticipants)
      .values({ bookingId, role: person.role, name: person.name, email: `${person.name.split(' ')[0]!.toLowerCase()}@example.com`, tokenHash: hashToken(token), createdBy: 'customer' })
      .returning();
    seeded.push({ id: row!.id, name: person.name, role: person.role, token, location: person.location });
  }
  await database.close();
  return seeded;
}

/**
 * The act under way up to signing, for a journey about something after it
 * (several signers signing their own fields): the customer's and each
 * co-signer's or witness's identity verified, their identity questions passed
 * and confirmed by the notary on camera, their location and consent given, the
 * notary's commission on file (the session-room journey clicks each of
 * these; here they would only cost time). The recording is not seeded: the
 * journey's notary starts it, so the stored file is a real one.
 */
export async function seedActUnderWay(dataDir: string, bookingId: string, notaryId: string, participants: SeededParticipant[]): Promise<void> {
  const database = await openPglite(path.join(dataDir, 'pglite'));
  const deps: Deps = await buildDeps(loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), database, createLogger('silent'));
  const now = new Date();
  for (const person of [null, ...participants]) {
    await deps.db.insert(identityVerifications).values({
      bookingId,
      participantId: person?.id ?? null,
      provider: 'test',
      providerSessionId: `vs_test_${randomUUID().replace(/-/g, '')}`,
      attempt: 1,
      status: 'verified',
      nameOnId: person?.name ?? 'Grace Hopper',
      documentType: 'driving_license',
      issuingState: 'IA',
      documentNumberLast4: '4821',
      expiresOn: '2031-01-01',
      selfieMatch: true,
      confirmedAt: now,
      confirmedBy: notaryId,
    });
    if (person) {
      await kbaPassed(deps, bookingId, person.id);
      await deps.db.update(sessionParticipants).set({ consentAt: now, consentAddress: '127.0.0.1', signerLocation: person.location ?? 'IA' }).where(eq(sessionParticipants.id, person.id));
    }
  }
  await deps.db.insert(notarySessions).values({ bookingId, startedAt: now, consentAt: now, consentAddress: '127.0.0.1', signerLocation: 'IA' });
  await deps.db.insert(notaryProfiles).values({ staffUserId: notaryId, commissionNumber: 'IA-778899', commissionExpiresOn: '2099-06-30', commissionState: 'Iowa', commissionCounty: 'Polk' });
  await database.close();
}

/** Seeds, then starts the production server on that data (extra environment: TURN settings…). */
export async function startSessionServer(
  env: Record<string, string> = {},
  options: { bookings?: number; paid?: boolean; participants?: ParticipantSeed[]; actUnderWay?: boolean } = {},
): Promise<SessionFixture & { participants: SeededParticipant[] }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'notary-session-e2e-'));
  const seeded = await seedSession(dataDir, options);
  const participants = options.participants ? await seedParticipants(dataDir, seeded.bookingId, options.participants) : [];
  if (options.actUnderWay) await seedActUnderWay(dataDir, seeded.bookingId, seeded.notary.id, participants);
  const server = await startServer({ DATA_DIR: dataDir, ...env }, { removeDataDir: true });
  return { ...seeded, server, dataDir, participants };
}

/**
 * A line per peer-connection event in the page (`window.__rtcLog`), read when a
 * video check fails: a journey that fails on a loaded CI machine says why.
 */
function recordPeerConnections() {
  const started = performance.now();
  const log: string[] = [];
  (window as unknown as { __rtcLog: string[] }).__rtcLog = log;
  const Original = window.RTCPeerConnection;
  let count = 0;
  const note = (line: string) => log.push(`${Math.round(performance.now() - started)}ms ${line}`);
  window.RTCPeerConnection = class extends Original {
    constructor(config?: RTCConfiguration) {
      super(config);
      const id = ++count;
      note(`pc${id} new (${config?.iceServers?.length ?? 0} ICE servers)`);
      this.addEventListener('signalingstatechange', () => note(`pc${id} signaling ${this.signalingState}`));
      this.addEventListener('iceconnectionstatechange', () => note(`pc${id} ice ${this.iceConnectionState}`));
      this.addEventListener('connectionstatechange', () => note(`pc${id} connection ${this.connectionState}`));
      this.addEventListener('icegatheringstatechange', () => note(`pc${id} gathering ${this.iceGatheringState}`));
      this.addEventListener('icecandidate', (e) => note(`pc${id} local candidate ${e.candidate?.type ?? 'end'} ${e.candidate?.address ?? ''}`));
      this.addEventListener('track', (e) => note(`pc${id} track ${e.track.kind}`));
      const setRemote = this.setRemoteDescription.bind(this);
      this.setRemoteDescription = (description?: RTCSessionDescriptionInit) => {
        note(`pc${id} remote ${description?.type}`);
        return setRemote(description!).catch((error: Error) => {
          note(`pc${id} remote ${description?.type} failed: ${error.message}`);
          throw error;
        });
      };
      const addCandidate = this.addIceCandidate.bind(this);
      this.addIceCandidate = (candidate?: RTCIceCandidateInit | null) => {
        note(`pc${id} remote candidate ${candidate?.candidate?.split(' ')[7] ?? 'end'}`);
        return addCandidate(candidate ?? undefined).catch((error: Error) => {
          note(`pc${id} remote candidate failed: ${error.message}`);
          throw error;
        });
      };
      const close = this.close.bind(this);
      this.close = () => {
        note(`pc${id} closed by the page`);
        close();
      };
    }
  };
  const warn = console.warn.bind(console);
  console.warn = (...args: unknown[]) => {
    note(`warn ${args.map((a) => (a instanceof Error ? a.message : String(a))).join(' ')}`);
    warn(...args);
  };
}

/** The room's Socket.IO frames each page sent and received, in brief (event, addressee, attempt). */
const roomFrames = new WeakMap<Page, string[]>();

function recordRoomFrames(page: Page) {
  const lines: string[] = [];
  roomFrames.set(page, lines);
  const started = Date.now();
  const brief = (direction: string, payload: string | Buffer) => {
    const text = String(payload);
    const match = /^4[23]\/session,(\d*)(.*)$/s.exec(text);
    if (!match) return;
    let summary = match[2]!.slice(0, 120);
    try {
      const [event, body] = JSON.parse(match[2]!) as [unknown, Record<string, unknown> | undefined];
      const description = body?.description as { type?: string } | undefined;
      summary = [event, body?.to && `to ${body.to}`, body?.from && `from ${body.from}`, body?.id && `id ${body.id}`, body?.attempt && `attempt ${body.attempt}`, description?.type, body?.candidate !== undefined && 'candidate', Array.isArray(body?.peers) && `peers ${(body.peers as unknown[]).length}`]
        .filter(Boolean)
        .join(' ');
    } catch {
      // Not JSON: kept as it came.
    }
    if (!/chat|room:event/.test(summary)) lines.push(`${Date.now() - started}ms ${direction} ${match[1] ? `#${match[1]} ` : ''}${summary}`);
  };
  page.on('websocket', (ws) => {
    ws.on('framesent', (frame) => brief('sent', frame.payload));
    ws.on('framereceived', (frame) => brief('got', frame.payload));
  });
}

export async function openMediaBrowser(fixture: SessionFixture): Promise<Browser> {
  const browser = await openBrowser({ args: fakeMediaArgs, baseURL: fixture.server.url });
  await watchRoom(browser.context, browser.page);
  return browser;
}

/** The peer-connection log and the room's frames of a context's page, for a failure message (any browser or context). */
export async function watchRoom(context: BrowserContext, page: Page): Promise<void> {
  await context.addInitScript(recordPeerConnections);
  recordRoomFrames(page);
}

/** What the page's peer connections did, for a failure message. */
export async function peerConnectionLog(page: Page): Promise<string> {
  const status = await page.getByTestId('connection-status').textContent().catch(() => null);
  const log = await page.evaluate(() => (window as unknown as { __rtcLog?: string[] }).__rtcLog ?? []).catch(() => []);
  const frames = roomFrames.get(page) ?? [];
  return `${page.url()}\n  status: ${status}\n  ${log.slice(-80).join('\n  ')}\n  Room frames:\n  ${frames.slice(-60).join('\n  ')}`;
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
  // Playwright's click waits for the button to be enabled (the camera and microphone started).
  await join.click({ timeout: 15_000 });
}

/** The other participant's video is playing: frames have a size and time advances. */
export async function expectRemoteVideoPlaying(page: Page, other?: Page) {
  const video = page.getByTestId('remote-video');
  try {
    // Waited for in the page, without vitest: the benches (scripts/bench/) use these helpers too.
    const element = await video.elementHandle({ timeout: 30_000 });
    await page.waitForFunction((v) => (v as HTMLVideoElement).videoWidth > 0, element, { timeout: 30_000 });
    const first = await element.evaluate((v: HTMLVideoElement) => v.currentTime);
    await page.waitForFunction(([v, at]) => (v as HTMLVideoElement).currentTime > at, [element, first] as const, { timeout: 15_000 });
  } catch (error) {
    const logs = [await peerConnectionLog(page), ...(other ? [await peerConnectionLog(other)] : [])];
    throw new Error(`${(error as Error).message}\nPeer connections:\n${logs.join('\n')}`, { cause: error });
  }
}
