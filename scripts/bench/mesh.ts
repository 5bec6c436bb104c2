/**
 * The session room's mesh (issue 29; docs/decisions/122): CPU and upload
 * bandwidth of ONE browser in a 5-party room (notary, customer, three
 * co-signers/witnesses) against a 2-party call, on the same machine in the
 * same run, every camera at 1280×720 (Chromium's fake device).
 *
 *   npm run build && node scripts/bench/mesh.ts [--seconds 20]
 *
 * The measured participant (the customer) runs in a Chromium of its own, so
 * its process tree's CPU (/proc: utime + stime of the browser and every
 * child) is its own; the others share a second Chromium, which runs with the
 * server at the lowest priority (`nice 19`, as scripts/bench/recording.ts
 * does): they take only the CPU the measured browser leaves, as if they were
 * the other participants' own machines. Upload is the sum of
 * `bytesSent` of the measured page's outbound RTP streams (getStats), over the
 * same window, after a warm-up once every peer is connected.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { niceChromium, niceProcess, treeCpuSeconds } from './processes.ts';
import { customerJoins, fakeMediaArgs, joinFromDeviceCheck, notaryJoins, startSessionServer } from '../../tests/e2e/session-helpers.ts';

const { values: args } = parseArgs({ options: { seconds: { type: 'string', default: '20' }, warmup: { type: 'string', default: '5' } } });
const seconds = Number(args.seconds);
const executablePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const chromeArgs = ['--no-sandbox', '--disable-gpu', '--disable-quic', ...fakeMediaArgs];

/** Every camera at 1280×720: the room asks for `video: true`; the fake device then gives what is asked. */
function hd() {
  const original = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
  navigator.mediaDevices.getUserMedia = (constraints?: MediaStreamConstraints) =>
    original({ ...constraints, video: constraints?.video ? { ...(typeof constraints.video === 'object' ? constraints.video : {}), width: { exact: 1280 }, height: { exact: 720 } } : false });
  const Original = window.RTCPeerConnection;
  const all: RTCPeerConnection[] = [];
  (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs = all;
  window.RTCPeerConnection = class extends Original {
    constructor(config?: RTCConfiguration) {
      super(config);
      all.push(this);
    }
  };
}

/** The main Chromium process of a persistent profile (its command line names the profile). */
function browserPid(profile: string): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmd.includes(`--user-data-dir=${profile}`) && !cmd.includes('--type=')) return Number(entry);
    } catch {
      // Gone meanwhile.
    }
  }
  throw new Error('measured browser not found');
}

const bytesSent = (page: Page) =>
  page.evaluate(async () => {
    let sum = 0;
    for (const pc of (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs) {
      if (pc.connectionState === 'closed') continue;
      (await pc.getStats()).forEach((report: { type: string; bytesSent?: number }) => {
        if (report.type === 'outbound-rtp') sum += report.bytesSent ?? 0;
      });
    }
    return sum;
  });

async function run(parties: number) {
  const people = [{ name: 'Alan Turing', role: 'signer' as const }, { name: 'Ada Lovelace', role: 'witness' as const }, { name: 'Joan Clarke', role: 'signer' as const }].slice(0, parties - 2);
  const fixture = await startSessionServer({}, { participants: people });
  niceProcess(fixture.server.process.pid!);
  const profile = mkdtempSync(path.join(tmpdir(), 'notary-mesh-bench-'));
  const measured = await chromium.launchPersistentContext(profile, { executablePath, headless: true, args: chromeArgs, baseURL: fixture.server.url, viewport: { width: 1280, height: 900 } });
  const others = await chromium.launch({ executablePath: niceChromium(executablePath), headless: true, args: chromeArgs });
  const contexts: BrowserContext[] = [];
  try {
    await measured.addInitScript(hd);
    const customer = measured.pages()[0] ?? (await measured.newPage());
    const page = async () => {
      const context = await others.newContext({ baseURL: fixture.server.url });
      contexts.push(context);
      await context.addInitScript(hd);
      return context.newPage();
    };
    await notaryJoins(await page(), fixture);
    await customerJoins(customer, fixture);
    for (const person of fixture.participants) {
      const p = await page();
      await p.goto(`/invitation/${person.token}/session`);
      await joinFromDeviceCheck(p);
    }
    const deadline = Date.now() + 120_000;
    while ((await customer.getByTestId('connection-status').textContent())?.startsWith('Connected') !== true) {
      if (Date.now() > deadline) throw new Error(`not connected: ${await customer.getByTestId('connection-status').textContent()}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    await new Promise((r) => setTimeout(r, Number(args.warmup) * 1000));
    const pid = browserPid(profile);
    const [cpu0, bytes0, t0] = [treeCpuSeconds(pid), await bytesSent(customer), performance.now()];
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const [cpu1, bytes1, t1] = [treeCpuSeconds(pid), await bytesSent(customer), performance.now()];
    const wall = (t1 - t0) / 1000;
    return { parties, peers: parties - 1, cpuPercent: ((cpu1 - cpu0) / wall) * 100, uploadKbps: ((bytes1 - bytes0) * 8) / wall / 1000 };
  } finally {
    for (const context of contexts) await context.close().catch(() => {});
    await others.close().catch(() => {});
    await measured.close().catch(() => {});
    rmSync(profile, { recursive: true, force: true });
    await fixture.server.stop();
  }
}

const results = [];
for (const parties of [2, 5]) results.push(await run(parties));
console.log('| parties | peers of the measured browser | its CPU (% of one core) | its upload (kbit/s) |');
console.log('|---|---|---|---|');
for (const r of results) console.log(`| ${r.parties} | ${r.peers} | ${r.cpuPercent.toFixed(0)} % | ${r.uploadKbps.toFixed(0)} |`);
