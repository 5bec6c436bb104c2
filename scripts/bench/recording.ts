/**
 * The session recording's frame rate (issue 26; docs/decisions/103): the
 * composite (1280×720, both cameras, the document, the UTC clock) recorded in
 * the notary's browser during a real two-party call, as `ffprobe` counts the
 * stored file's frames, and how far its video and audio ends are apart.
 *
 *   npm run build && node scripts/bench/recording.ts [--seconds 30]
 *
 * Two placements of the same call, in one run:
 * - **the notary's machine**: the notary's Chromium at normal priority; the
 *   customer's Chromium and the server at the lowest (`nice 19`), as if they
 *   ran elsewhere — they take only the CPU the notary's browser leaves. This
 *   is the promise's case: one browser on a 2-core machine, in a call.
 * - **everything on one machine**: both browsers and the server at the same
 *   priority, as the session-room journey runs (two participants' encoders
 *   and decoders, the recorder's encoder and the server on two cores).
 * Also the notary's browser's CPU over the recording (its process tree, % of one core).
 *
 * **Floor**: the same work with nothing of ours — one bare page (normal priority) that sends its
 * fake camera through an in-page loopback peer connection, draws the received and the local
 * camera into a 1280×720 canvas at the composite's rate with `drawImage`, and records it with the
 * same MediaRecorder settings (VP8 1.5 Mbit/s + Opus, `captureStream(0)` + `requestFrame()`).
 */
import { createServer } from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import { actLabels, identityMessages } from '../../src/shared/notarial-act.ts';
import { actStageLabels } from '../../src/shared/act-stages.ts';
import { compositeFramesPerSecond, compositeHeight, compositeWidth, minimumFramesPerSecond } from '../../src/shared/recording.ts';
import { niceChromium, niceProcess, treeCpuSeconds } from './processes.ts';
import { ffprobeRecording } from '../../tests/e2e/recording-file.ts';
import { customerJoins, expectRemoteVideoPlaying, fakeMediaArgs, notaryJoins, startSessionServer } from '../../tests/e2e/session-helpers.ts';

const { values: args } = parseArgs({ options: { seconds: { type: 'string', default: '30' } } });
const seconds = Number(args.seconds);
const executablePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const chromeArgs = ['--no-sandbox', '--disable-gpu', '--disable-quic', ...fakeMediaArgs];

/** Frames per second and each track's end of a stored recording, as ffprobe reads it. */
function probe(file: string) {
  const read = ffprobeRecording(file);
  return { framesPerSecond: read.framesPerSecond, videoEnd: read.video.end, audioEnd: read.audio.end };
}

/** The customer passes the test provider's identity check from their booking page (another tab). */
async function verifyIdentity(page: Page, manageUrl: string) {
  const manage = await page.context().newPage();
  await manage.goto(manageUrl);
  await manage.getByLabel('Your name exactly as on your ID').fill('Grace Hopper');
  await manage.getByLabel('Front of your ID').setInputFiles('tests/fixtures/sample.jpg');
  await manage.getByLabel('Back of your ID').setInputFiles('tests/fixtures/sample.png');
  await manage.getByLabel('A selfie').setInputFiles('tests/fixtures/sample.jpg');
  await manage.getByRole('button', { name: actLabels.verifyIdentity }).click();
  await manage.getByTestId('identity-status').getByText(identityMessages.alreadyVerified).waitFor({ timeout: 60_000 });
  await manage.close();
}

async function run(placement: 'notary machine' | 'one machine') {
  const apart = placement === 'notary machine';
  const fixture = await startSessionServer();
  if (apart) niceProcess(fixture.server.process.pid!);
  const profile = mkdtempSync(path.join(tmpdir(), 'notary-recording-bench-'));
  const notaryBrowser = await chromium.launchPersistentContext(profile, { executablePath, headless: true, args: chromeArgs, baseURL: fixture.server.url, viewport: { width: 1280, height: 900 } });
  const customerBrowser = await chromium.launch({ executablePath: apart ? niceChromium(executablePath) : executablePath, headless: true, args: chromeArgs });
  try {
    const n = notaryBrowser.pages()[0] ?? (await notaryBrowser.newPage());
    const c = await (await customerBrowser.newContext({ baseURL: fixture.server.url, viewport: { width: 1280, height: 900 } })).newPage();
    await customerJoins(c, fixture);
    await verifyIdentity(c, `${fixture.server.url}/booking/${fixture.manageToken}`);
    await notaryJoins(n, fixture);
    await expectRemoteVideoPlaying(n, c);
    await n.getByTestId('act-stage').getByText(actStageLabels.identity_proven).waitFor({ timeout: 60_000 });
    const browserPid = Number(
      readdirSync('/proc').find((entry) => /^\d+$/.test(entry) && (() => {
        try {
          const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
          return cmd.includes(`--user-data-dir=${profile}`) && !cmd.includes('--type=');
        } catch {
          return false;
        }
      })()),
    );
    const firstChunk = n.waitForResponse((r) => r.url().endsWith('/chunks/0') && r.ok(), { timeout: 60_000 });
    await n.getByRole('button', { name: 'Start recording' }).click();
    await firstChunk.catch(async (error: Error) => {
      throw new Error(`${error.message}; the room says: ${await n.getByRole('alert').allTextContents()}`);
    });
    const [cpu0, t0, load] = [treeCpuSeconds(browserPid), performance.now(), loadavg()[0]!];
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const cpuPercent = ((treeCpuSeconds(browserPid) - cpu0) / ((performance.now() - t0) / 1000)) * 100;
    await n.getByRole('button', { name: 'Stop recording' }).click({ timeout: 120_000 });
    await n.getByText('Recordings: 1 saved').waitFor({ timeout: 120_000 });
    await n.goto(`/admin/appointments/${fixture.bookingId}`);
    const src = await n.getByRole('region', { name: 'Video session' }).locator('video').getAttribute('src');
    const file = path.join(fixture.dataDir, 'bench-recording.webm');
    writeFileSync(file, await (await n.request.get(src!)).body());
    return { placement, cpuPercent, load, ...probe(file) };
  } finally {
    await customerBrowser.close().catch(() => {});
    await notaryBrowser.close().catch(() => {});
    rmSync(profile, { recursive: true, force: true });
    await fixture.server.stop();
  }
}

/** The floor: a bare page recording two cameras (one through a loopback call) into the same composite. */
async function floor() {
  const server = createServer((_, res) => res.end('<!doctype html><title>floor</title>')).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const browser = await chromium.launch({ executablePath, headless: true, args: chromeArgs });
  try {
    const page = await browser.newPage();
    await page.goto(`http://localhost:${(server.address() as { port: number }).port}/`);
    const load = loadavg()[0]!;
    const base64 = await page.evaluate(
      async ({ seconds, width, height, fps }) => {
        const camera = await navigator.mediaDevices.getUserMedia({ video: true, audio: true });
        const [a, b] = [new RTCPeerConnection(), new RTCPeerConnection()];
        a.onicecandidate = (e) => void (e.candidate && b.addIceCandidate(e.candidate));
        b.onicecandidate = (e) => void (e.candidate && a.addIceCandidate(e.candidate));
        const received = new Promise<MediaStream>((resolve) => (b.ontrack = (e) => resolve(e.streams[0]!)));
        for (const track of camera.getTracks()) a.addTrack(track, camera);
        await a.setLocalDescription();
        await b.setRemoteDescription(a.localDescription!);
        await b.setLocalDescription();
        await a.setRemoteDescription(b.localDescription!);
        const video = async (stream: MediaStream) => {
          const v = document.createElement('video');
          v.muted = true;
          v.srcObject = stream;
          document.body.append(v);
          await v.play();
          return v;
        };
        const videos = [await video(await received), await video(camera)];
        const canvas = document.createElement('canvas');
        canvas.width = width;
        canvas.height = height;
        const context = canvas.getContext('2d', { alpha: false })!;
        const track = canvas.captureStream(0).getVideoTracks()[0] as MediaStreamTrack & { requestFrame(): void };
        const recorder = new MediaRecorder(new MediaStream([track, camera.getAudioTracks()[0]!]), { mimeType: 'video/webm;codecs=vp8,opus', videoBitsPerSecond: 1_500_000, audioBitsPerSecond: 64_000 });
        const chunks: Blob[] = [];
        recorder.ondataavailable = (e) => chunks.push(e.data);
        recorder.start(2000);
        const cell = (height - 40) / 2;
        await new Promise<void>((resolve) => {
          const started = performance.now();
          const timer = setInterval(() => {
            context.fillStyle = '#0f172a';
            context.fillRect(0, 0, width, height);
            videos.forEach((v, i) => context.drawImage(v, width / 2, 40 + i * cell, (cell * 4) / 3, cell));
            track.requestFrame();
            if (performance.now() - started > seconds * 1000) {
              clearInterval(timer);
              resolve();
            }
          }, 1000 / fps);
        });
        await new Promise((resolve) => {
          recorder.onstop = resolve;
          recorder.stop();
        });
        const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer());
        let text = '';
        for (let i = 0; i < bytes.length; i += 8192) text += String.fromCharCode(...bytes.subarray(i, i + 8192));
        return btoa(text);
      },
      { seconds, width: compositeWidth, height: compositeHeight, fps: compositeFramesPerSecond },
    );
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'notary-recording-floor-')), 'floor.webm');
    writeFileSync(file, Buffer.from(base64, 'base64'));
    return { placement: 'floor: a bare page, same recorder settings', cpuPercent: Number.NaN, load, ...probe(file) };
  } finally {
    await browser.close();
    server.close();
  }
}

const results = [];
for (const placement of ['notary machine', 'one machine'] as const) results.push(await run(placement), await floor());
// The machine's load when each recording started: other work on a shared machine bends every row (say so beside the figures).
console.log(`| placement | frames per second (goal ≥ ${minimumFramesPerSecond}) | video end − audio end | notary's browser CPU (% of one core) | load average (1 min) at the start |`);
console.log('|---|---|---|---|---|');
for (const r of results) console.log(`| ${r.placement} | ${r.framesPerSecond.toFixed(1)} | ${(r.videoEnd - r.audioEnd).toFixed(2)} s | ${Number.isNaN(r.cpuPercent) ? '—' : `${r.cpuPercent.toFixed(0)} %`} | ${r.load.toFixed(1)} |`);
