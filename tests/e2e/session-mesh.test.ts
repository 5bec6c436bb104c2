import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser as Chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { participantLabels, participantRoleLabels } from '../../src/shared/participants.ts';
import { actTexts } from '../../src/shared/act-stages.ts';
import { compositeHeight, compositeWidth } from '../../src/shared/recording.ts';
import { compositeLayout } from '../../src/client/features/session-room/recorder.ts';
import { participantRemovedMessage } from '../../src/server/features/access/service.ts';
import { axeViolations } from './browser.ts';
import { ffprobeRecording, frameAt } from './recording-file.ts';
import { customerJoins, expectRemoteVideoPlaying, fakeMediaArgs, joinFromDeviceCheck, notaryJoins, peerConnectionLog, startSessionServer, watchRoom, type SeededParticipant, type SessionFixture } from './session-helpers.ts';

/**
 * Several signers and witnesses in one room (issue 29): one Chromium, four
 * contexts on fake camera and microphone — the notary, the customer, a
 * co-signer and a witness, each with their own link — in a WebRTC mesh
 * (docs/decisions/122): everyone sees everyone's video playing, with each
 * one's name and connection state; the notary places a Signature field for
 * each signer, each signs their own, the notary seals and the certificate
 * and the journal name both (decision 123); the recording, started by the
 * notary and stored, shows all four cameras live (decision 103); then the
 * notary removes the witness.
 */
describe('session mesh', () => {
  let fixture: SessionFixture & { participants: SeededParticipant[] };
  let browser: Chromium;

  beforeAll(async () => {
    // The act is seeded up to signing (identity proven and confirmed, consent): the session-room journey clicks those. The notary records here.
    // Alan, the co-signer, answered that he is in France: the notary confirms the act is allowed for him (decision 134).
    fixture = await startSessionServer({}, { participants: [{ name: 'Alan Turing', role: 'signer', location: 'Outside the United States: France' }, { name: 'Ada Lovelace', role: 'witness' }], actUnderWay: true });
    browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-quic', ...fakeMediaArgs] });
    // Seeding the embedded database (migrations, staff passwords) takes most of a minute on a loaded machine.
  }, 420_000);
  afterAll(async () => {
    await browser?.close();
    await fixture?.server.stop();
  });

  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ baseURL: fixture.server.url, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await watchRoom(context, page);
    return page;
  }

  /** A co-signer or witness: their invitation page (their role, nothing of the customer's) → Join video session → device check. */
  async function participantJoins(page: Page, person: SeededParticipant) {
    // Two browsers already in a call on a loaded 2-core machine: the page's "load" can take longer than Playwright's 30 s.
    await page.goto(`/invitation/${person.token}`, { waitUntil: 'domcontentloaded', timeout: 120_000 });
    // The invitation is a lazily loaded route: its page hydrates after the first paint.
    await expect.poll(() => page.getByTestId('participant-role').textContent(), { timeout: 60_000 }).toBe(participantRoleLabels[person.role]);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Join video session' }).click();
    await page.waitForURL(/\/session$/);
    await joinFromDeviceCheck(page);
  }

  /** Every peer tile says Connected, and every video on the page (the main one and each tile's) is playing. */
  async function seesEveryone(page: Page, names: string[]) {
    try {
      await expect.poll(() => page.getByTestId('peer-tile').allTextContents(), { timeout: 120_000 }).toEqual(expect.arrayContaining(names.map((n) => expect.stringContaining(n))));
      await expect.poll(() => page.getByTestId('peer-status').allTextContents(), { timeout: 120_000 }).toEqual(names.map(() => 'Connected'));
      await expectRemoteVideoPlaying(page);
      const tiles = page.getByTestId('peer-video');
      await expect.poll(() => tiles.count()).toBe(names.length - 1);
      for (const video of await tiles.all()) {
        await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.videoWidth), { timeout: 30_000 }).toBeGreaterThan(0);
        const at = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
        await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 15_000 }).toBeGreaterThan(at);
      }
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${await peerConnectionLog(page)}`, { cause: error });
    }
  }

  // Four browsers' encoders and decoders (12 of each) on 2 cores beside another e2e file: a slow
  // start is the machine, not the room, so it waits long once instead of retrying from the start.
  it('four browsers — notary, customer, co-signer, witness — each see the other three playing, named, connected; each signer signs their own field; sealed naming both', { timeout: 420_000, retry: 0 }, async () => {
    const [notary, customer, coSigner, witness] = await Promise.all([newPage(), newPage(), newPage(), newPage()]);
    const [alan, ada] = fixture.participants as [SeededParticipant, SeededParticipant];
    await notaryJoins(notary, fixture);
    await customerJoins(customer, fixture);
    await participantJoins(coSigner, alan);
    await participantJoins(witness, ada);

    await Promise.all([
      seesEveryone(notary, ['Grace Hopper', alan.name, ada.name]),
      seesEveryone(customer, ['Nia Notary', alan.name, ada.name]),
      seesEveryone(coSigner, ['Nia Notary', 'Grace Hopper', ada.name]),
      seesEveryone(witness, ['Nia Notary', 'Grace Hopper', alan.name]),
    ]);
    expect(await axeViolations(coSigner)).toEqual([]);

    // Each signer signs their own fields (decision 123): the notary places a Signature field for each, in their colour and with their name.
    await notary.getByRole('tab', { name: 'Documents' }).click();
    const palette = notary.getByRole('group', { name: 'Add a field' });
    const page1 = notary.getByRole('img', { name: 'Affidavit of residence.pdf, page 1' });
    await palette.getByRole('button', { name: 'Signature', exact: true }).click();
    for (const [who, y] of [['Grace Hopper', 0.3], [alan.name, 0.6]] as const) {
      const size = (await page1.boundingBox())!;
      await page1.click({ position: { x: size.width * 0.5, y: size.height * y } });
      await palette.getByLabel('For:').selectOption({ label: who });
      await palette.getByRole('button', { name: 'Place Signature field' }).click();
      await notary.getByRole('button', { name: `Signature field on page 1 for ${who}` }).waitFor();
    }
    expect(await axeViolations(notary)).toEqual([]);

    // The notary records (signing and sealing need it; placing fields does not, so the recording stays short): the composite of
    // all four cameras, uploaded as it goes.
    const firstChunks = [0, 1].map((seq) => notary.waitForResponse((r) => r.url().includes('/api/session/recordings/') && r.url().endsWith(`/chunks/${seq}`) && r.ok(), { timeout: 60_000 }));
    const recordingStartedAt = Date.now();
    await notary.getByRole('button', { name: 'Start recording' }).click();
    await Promise.all([customer, coSigner, witness].map((page) => page.getByText('This session is being recorded.').waitFor({ timeout: 30_000 })));
    const recordingUrl = new URL((await firstChunks[0]!).url()).pathname.replace(/\/chunks\/0$/, '');
    await firstChunks[1];

    // Alan is abroad (his own answer): the notary's Sign & seal tab names him and his country, and confirms for him.
    await notary.getByRole('tab', { name: 'Sign & seal' }).click();
    await notary.getByRole('heading', { name: `${alan.name} is outside the United States: France` }).waitFor();
    expect(await axeViolations(notary)).toEqual([]);
    await notary.getByRole('button', { name: `${actTexts.confirmAbroad} for ${alan.name}` }).click();
    await notary.getByText(`${alan.name} is in France: you confirmed the act is allowed for a signer abroad.`).waitFor();

    // Each signer sees the other's field named as theirs (not fillable) and fills their own.
    for (const [page, own, theirs] of [[customer, 'Grace Hopper', alan.name], [coSigner, alan.name, 'Grace Hopper']] as const) {
      await page.getByRole('tab', { name: 'Documents' }).click();
      await page.getByRole('note', { name: `Signature field on page 1 for ${theirs}` }).waitFor();
      await page.getByRole('button', { name: `Signature field on page 1 for ${own}: click to fill` }).click();
      await page.getByRole('button', { name: 'Adopt and sign' }).click();
      await page.getByRole('note', { name: `Signature field on page 1 for ${own}, filled` }).waitFor();
    }
    expect(await axeViolations(coSigner)).toEqual([]);
    // Ada vouches for Grace as a credible witness, under oath (decisions 124, 134): the notary records it, administers the oath, Ada swears.
    await notary.getByRole('tab', { name: 'People' }).click();
    await notary.getByLabel(`${ada.name} identifies`).selectOption({ label: 'Grace Hopper' });
    await notary.getByRole('button', { name: `Record credible witness ${ada.name}` }).click();
    await notary.getByText(`Credible witness: ${ada.name} identifies Grace Hopper.`).waitFor();
    await notary.getByRole('tab', { name: 'Sign & seal' }).click();
    await notary.getByRole('button', { name: actTexts.administerOath }).click();
    await witness.getByRole('tab', { name: 'Sign & seal' }).click();
    await witness.getByRole('button', { name: actTexts.swear }).click();
    await witness.getByText('You swore before the notary.').waitFor();
    expect(await axeViolations(witness)).toEqual([]);
    // The notary seals; the certificate and the journal name both signers.
    await notary.getByRole('button', { name: 'Apply seal and signature' }).click();
    await notary.getByRole('button', { name: 'Yes, apply seal and signature' }).click();
    await notary.getByText('Sealed (', { exact: false }).waitFor({ timeout: 60_000 });
    const sealed = await notary.evaluate(async (bookingId) => {
      const act = await (await fetch(`/trpc/act.get?input=${encodeURIComponent(JSON.stringify({ json: { bookingId } }))}`)).json();
      const documentId = act.result.data.json.documents[0].documentId as string;
      const pdf = new Uint8Array(await (await fetch(`/api/staff/notarized/${bookingId}/${documentId}`)).arrayBuffer());
      const journal = await (await fetch(`/trpc/act.journal?input=${encodeURIComponent(JSON.stringify({ json: {} }))}`)).text();
      return { pdf: Array.from(pdf), journal };
    }, fixture.bookingId);
    const file = path.join(fixture.dataDir, 'co-signed.pdf');
    writeFileSync(file, Buffer.from(sealed.pdf));
    expect(spawnSync('pdftotext', [file, '-'], { encoding: 'utf8' }).stdout.replace(/\s+/g, ' ')).toContain('by Grace Hopper and Alan Turing');
    expect(sealed.journal).toContain('"signerName":"Grace Hopper"');
    expect(sealed.journal).toContain(`"signerName":"${alan.name}"`);
    expect(sealed.journal).toContain(`"signerLocation":"Outside the United States: France"`);
    // (In any key order: jsonb puts the shorter keys first.)
    expect(sealed.journal).toMatch(new RegExp(`"credibleWitness":\\{[^{}]*"name":"${ada.name}"[^{}]*"oath":\\{[^}]*"kind":"swear"`));

    // The recording stops and is stored; the file has a duration, and its picture has four camera tiles (two columns, dark
    // between them), each a live camera: not a flat colour, and moving (the fake camera's clock and turning disc) from frames
    // 1 s and 2.3 s earlier (two gaps: the disc's turn repeats).
    const recordingStoppedAt = Date.now();
    await notary.getByRole('button', { name: 'Stop recording' }).click();
    await notary.getByText('Recordings: 1 saved').waitFor({ timeout: 60_000 });
    const recordingFile = path.join(fixture.dataDir, 'mesh-recording.webm');
    writeFileSync(recordingFile, await (await notary.request.get(`${fixture.server.url}${recordingUrl}`)).body());
    const probe = ffprobeRecording(recordingFile);
    const recordedSeconds = (recordingStoppedAt - recordingStartedAt) / 1000;
    console.info(`mesh recording: ${probe.duration.toFixed(1)} s for ${recordedSeconds.toFixed(1)} s recorded, ${probe.video.frames} frames`);
    expect(probe.duration).toBeGreaterThan(Math.min(4, recordedSeconds - 4));
    expect(probe.video).toMatchObject({ width: compositeWidth, height: compositeHeight });
    const later = frameAt(recordingFile, probe.video.end - 1.5);
    const earlier = [frameAt(recordingFile, probe.video.end - 2.5), frameAt(recordingFile, probe.video.end - 3.8)];
    const layout = compositeLayout(4).cameras;
    const tiles = layout.map((box) => ({ x: box.x + 8, y: box.y + 8, width: box.width - 16, height: box.height - 16 }));
    const seen = tiles.map((tile) => ({ stddev: Math.round(later.region(tile).stddev), moved: Number(Math.max(...earlier.map((frame) => later.movedShare(frame, tile))).toFixed(4)) }));
    const between = later.region({ x: layout[1]!.x - 3, y: layout[0]!.y + 20, width: 6, height: compositeHeight - layout[0]!.y - 40 });
    console.info(`mesh recording tiles: ${JSON.stringify(seen)}, between the columns: ${between.mean.toFixed(0)}`);
    expect(between.mean, 'the tiles are two columns apart, not one camera across both').toBeLessThan(60);
    for (const tile of seen) {
      expect(tile.stddev, JSON.stringify(seen)).toBeGreaterThan(10);
      expect(tile.moved, JSON.stringify(seen)).toBeGreaterThan(0.002);
    }

    // The notary removes the witness (People tab, with a reason): the witness's room closes and says why, the others go on.
    await notary.getByRole('tab', { name: 'People' }).click();
    expect(await axeViolations(notary)).toEqual([]);
    await notary.getByRole('button', { name: `${participantLabels.remove} ${ada.name}` }).click();
    await notary.getByLabel(`Why is ${ada.name} leaving the act?`).fill('Had to leave the call');
    await notary.getByRole('button', { name: participantLabels.remove, exact: true }).click();
    await expect.poll(() => witness.getByTestId('connection-status').textContent(), { timeout: 30_000 }).toBe(participantRemovedMessage);
    // Before the recording started the witness is 'Removed'; once the act is under way, 'Not completed'.
    await expect.poll(() => notary.getByTestId('people').textContent()).toMatch(/Removed|Not completed/);
    for (const page of [notary, customer, coSigner]) await expect.poll(() => page.getByTestId('peer-tile').count(), { timeout: 30_000 }).toBe(2);
  });
});
