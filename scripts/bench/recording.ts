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
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import { actLabels, identityMessages } from '../../src/shared/notarial-act.ts';
import { actStageLabels } from '../../src/shared/act-stages.ts';
import { minimumFramesPerSecond } from '../../src/shared/recording.ts';
import { customerJoins, expectRemoteVideoPlaying, fakeMediaArgs, notaryJoins, startSessionServer } from '../../tests/e2e/session-helpers.ts';

const { values: args } = parseArgs({ options: { seconds: { type: 'string', default: '30' } } });
const seconds = Number(args.seconds);
const executablePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const chromeArgs = ['--no-sandbox', '--disable-gpu', '--disable-quic', ...fakeMediaArgs];

/** Chromium started through `nice -n 19`: every process it forks inherits the lowest priority. */
function niceChromium(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'notary-nice-'));
  const file = path.join(dir, 'chromium');
  writeFileSync(file, `#!/bin/sh\nexec nice -n 19 ${executablePath} "$@"\n`);
  chmodSync(file, 0o755);
  return file;
}

/** Every thread of a running process to the lowest priority (on Linux, niceness is per thread). */
function niceProcess(pid: number): void {
  for (const task of readdirSync(`/proc/${pid}/task`)) setPriority(Number(task), 19);
}

/** CPU seconds of a process and all its descendants (/proc utime + stime). */
function treeCpuSeconds(root: number): number {
  const stats = new Map<number, { ppid: number; cpu: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      stats.set(Number(entry), { ppid: Number(fields[1]), cpu: (Number(fields[11]) + Number(fields[12])) / 100 });
    } catch {
      // Gone meanwhile.
    }
  }
  let total = 0;
  const queue = [root];
  while (queue.length) {
    const pid = queue.pop()!;
    total += stats.get(pid)?.cpu ?? 0;
    for (const [child, s] of stats) if (s.ppid === pid) queue.push(child);
  }
  return total;
}

/** Frames, duration and each track's end of a stored recording, as ffprobe reads it. */
function probe(file: string) {
  const run = (extra: string[]) => spawnSync('ffprobe', ['-v', 'error', ...extra, file], { encoding: 'utf8' }).stdout;
  const streams = JSON.parse(run(['-count_frames', '-show_entries', 'stream=index,codec_type,nb_read_frames', '-of', 'json'])).streams as { index: number; codec_type: string; nb_read_frames: string }[];
  const ends = new Map<number, number>();
  for (const line of run(['-show_entries', 'packet=stream_index,pts_time,duration_time', '-of', 'csv=p=0']).trim().split('\n')) {
    const [index, pts, length] = line.split(',');
    ends.set(Number(index), Math.max(ends.get(Number(index)) ?? 0, Number(pts) + (Number(length) || 0)));
  }
  const video = streams.find((s) => s.codec_type === 'video')!;
  const audio = streams.find((s) => s.codec_type === 'audio')!;
  const videoEnd = ends.get(video.index)!;
  return { framesPerSecond: Number(video.nb_read_frames) / videoEnd, videoEnd, audioEnd: ends.get(audio.index)! };
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
  const customerBrowser = await chromium.launch({ executablePath: apart ? niceChromium() : executablePath, headless: true, args: chromeArgs });
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
    const [cpu0, t0] = [treeCpuSeconds(browserPid), performance.now()];
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const cpuPercent = ((treeCpuSeconds(browserPid) - cpu0) / ((performance.now() - t0) / 1000)) * 100;
    await n.getByRole('button', { name: 'Stop recording' }).click({ timeout: 120_000 });
    await n.getByText('Recordings: 1 saved').waitFor({ timeout: 120_000 });
    await n.goto(`/admin/appointments/${fixture.bookingId}`);
    const src = await n.getByRole('region', { name: 'Video session' }).locator('video').getAttribute('src');
    const file = path.join(fixture.dataDir, 'bench-recording.webm');
    writeFileSync(file, await (await n.request.get(src!)).body());
    return { placement, cpuPercent, ...probe(file) };
  } finally {
    await customerBrowser.close().catch(() => {});
    await notaryBrowser.close().catch(() => {});
    rmSync(profile, { recursive: true, force: true });
    await fixture.server.stop();
  }
}

const results = [];
for (const placement of ['notary machine', 'one machine'] as const) results.push(await run(placement));
console.log(`| placement | frames per second (goal ≥ ${minimumFramesPerSecond}) | video end − audio end | notary's browser CPU (% of one core) |`);
console.log('|---|---|---|---|');
for (const r of results) console.log(`| ${r.placement} | ${r.framesPerSecond.toFixed(1)} | ${(r.videoEnd - r.audioEnd).toFixed(2)} s | ${r.cpuPercent.toFixed(0)} % |`);
