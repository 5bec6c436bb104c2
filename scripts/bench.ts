/**
 * `npm run bench` — the product's measured speed, written to docs/benchmarks.md.
 *
 *   npm run bench                              # everything (about 8 minutes)
 *   npm run bench -- --only lighthouse         # one part: lighthouse | bundle | load
 *   npm run bench -- --only load --db postgres # load figures on one database
 *   npm run bench -- --duration 10 --connections 20 --build
 *
 * Parts that did not run keep their previous section in docs/benchmarks.md.
 * Builds first when dist/ is missing (or with --build). Hold the shared build
 * lock when other people rebuild dist/ on this machine:
 *   flock /tmp/notary-e2e.lock npm run bench
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startServer, type RunningServer } from '../tests/helpers/server.ts';
import { measureBundles, type RouteBundle } from './bench/bundle.ts';
import { runLighthouse, type LighthouseRow } from './bench/lighthouse.ts';
import { rss, runChatLoad, runHttpLoad, sampleRss, type ChatResult, type EndpointResult } from './bench/load.ts';

const root = process.cwd();
const outFile = path.join(root, 'docs/benchmarks.md');
const parts = ['lighthouse', 'bundle', 'load'] as const;
type Part = (typeof parts)[number];

const { values: args } = parseArgs({
  options: {
    only: { type: 'string' },
    db: { type: 'string', default: 'pglite,postgres' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    'chat-messages': { type: 'string', default: '300' },
    build: { type: 'boolean', default: false },
  },
});
const selected = new Set<Part>((args.only ?? parts.join(',')).split(',').map((p) => p.trim() as Part));
for (const part of selected) if (!parts.includes(part)) throw new Error(`unknown part "${part}" (choose from ${parts.join(', ')})`);
const durationSeconds = Number(args.duration);
const connections = Number(args.connections);
const chatMessages = Number(args['chat-messages']);
const postgresAdminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';

const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
/** autocannon reports whole milliseconds: 0 means under one. */
const ms = (value: number) => (value < 1 ? '<1' : value < 10 ? value.toFixed(1) : value.toFixed(0));
/** Chat latencies are measured with performance.now(). */
const precise = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(0));
const fmtBytes = (bytes: number | null) => (bytes === null ? 'n/a' : mb(bytes));

function ensureBuilt() {
  const built = existsSync(path.join(root, 'dist/client/.vite/manifest.json')) && existsSync(path.join(root, 'dist/server/entry-server.js'));
  if (built && !args.build) return;
  log('building (npm run build)');
  const result = spawnSync('npm', ['run', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error('npm run build failed');
}

/** The server as production runs it, with limits that would refuse a benchmark lifted (see the report). */
const serverEnv = {
  LOG_LEVEL: 'warn',
  TRUST_PROXY: '1',
  BOOKING_SLOT_CAPACITY: '1000000',
};

async function withPostgresDatabase<T>(run: (url: string) => Promise<T>): Promise<T | null> {
  const admin = new pg.Client({ connectionString: postgresAdminUrl, connectionTimeoutMillis: 3_000 });
  try {
    await admin.connect();
  } catch (error) {
    log(`PostgreSQL not reachable at ${postgresAdminUrl} (${(error as Error).message}); skipping`);
    return null;
  }
  const name = `bench_${Date.now()}`;
  await admin.query(`create database ${name}`);
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  try {
    return await run(url.toString());
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

interface LoadRun {
  database: 'PGlite' | 'PostgreSQL';
  endpoints: EndpointResult[];
  chat: ChatResult;
  idleRssBytes: number | null;
  peakRssBytes: number | null;
  lifetimePeakRssBytes: number | null;
}

async function loadOn(database: LoadRun['database'], env: Record<string, string>): Promise<LoadRun> {
  log(`load on ${database}`);
  const server = await startServer({ ...serverEnv, ...env });
  try {
    const pid = server.process.pid!;
    const idleRssBytes = rss(pid);
    const sampler = sampleRss(pid);
    const options = { connections, durationSeconds, chatMessages, log };
    const endpoints = await runHttpLoad(server.url, options);
    const chat = await runChatLoad(server.url, options);
    return { database, endpoints, chat, idleRssBytes, peakRssBytes: sampler.stop(), lifetimePeakRssBytes: rss(pid, 'VmHWM') };
  } finally {
    await server.stop();
  }
}

async function articlePath(server: RunningServer): Promise<string> {
  const xml = await (await fetch(`${server.url}/sitemap.xml`)).text();
  const match = /<loc>[^<]*?(\/blog\/[^<]+)<\/loc>/.exec(xml);
  if (!match) throw new Error('no article in /sitemap.xml');
  return match[1]!;
}

// ---------------------------------------------------------------- report

function section(name: Part, body: string): string {
  return `<!-- bench:${name}:start -->\n${body.trim()}\n<!-- bench:${name}:end -->`;
}

function replaceSection(document: string, name: Part, body: string): string {
  const pattern = new RegExp(`<!-- bench:${name}:start -->[\\s\\S]*?<!-- bench:${name}:end -->`);
  return pattern.test(document) ? document.replace(pattern, section(name, body)) : `${document.trimEnd()}\n\n${section(name, body)}\n`;
}

function lighthouseMarkdown(rows: LighthouseRow[]): string {
  const lines = [
    '## Lighthouse',
    '',
    'Mobile form factor, default simulated throttling (slow 4G, 4× CPU slowdown), cold cache, headless Chromium, against the built server on PGlite. Targets: performance ≥ 0.95; accessibility, best practices and SEO 1.0.',
    '',
    '| Page | Performance | Accessibility | Best practices | SEO | FCP | LCP | TBT | CLS | Script over the wire |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| \`${r.path}\` | ${r.performance.toFixed(2)} | ${r.accessibility.toFixed(2)} | ${r.bestPractices.toFixed(2)} | ${r.seo.toFixed(2)} | ${Math.round(r.fcpMs)} ms | ${Math.round(r.lcpMs)} ms | ${Math.round(r.tbtMs)} ms | ${r.cls.toFixed(3)} | ${kb(r.scriptTransferBytes)} |`,
    ),
  ];
  const failing = rows.flatMap((r) => r.failing.map((f) => `- \`${r.path}\` ${f}`));
  if (failing.length > 0) lines.push('', 'Audits below 0.9 in a category under 1.0:', '', ...failing);
  return lines.join('\n');
}

function bundleMarkdown(bundles: RouteBundle[]): string {
  return [
    '## JavaScript on first load',
    '',
    'Per route, from `dist/client/.vite/manifest.json`: the entry chunk and its static imports plus the route\'s lazy chunk and its static imports, gzip level 6 (what the server\'s compression sends). Budget for marketing pages: 100 KB.',
    '',
    '| Route | Gzipped JS | Raw JS | Files | Budget |',
    '|---|---|---|---|---|',
    ...bundles.map(
      (b) =>
        `| \`${b.route}\` | ${kb(b.gzipBytes)} | ${kb(b.rawBytes)} | ${b.files.length} | ${b.marketing ? (b.gzipBytes <= 100 * 1024 ? 'within 100 KB' : '**over 100 KB**') : 'not a marketing page'} |`,
    ),
  ].join('\n');
}

function loadMarkdown(runs: LoadRun[]): string {
  const lines = [
    '## Throughput and latency',
    '',
    `autocannon on loopback, ${connections} connections, ${durationSeconds} s per measurement; the bench process and the server share the machine. Each endpoint is measured on the built server, then on a bare \`node:http\` server answering the same status, type and body bytes (the floor); **ratio** = app req/s ÷ baseline req/s. Every request carries its own \`X-Forwarded-For\` address (server started with \`TRUST_PROXY=1\`) so per-address rate limits never refuse it, though each request still pays for the limiter; \`BOOKING_SLOT_CAPACITY=1000000\` so holds succeed instead of answering CONFLICT; \`LOG_LEVEL=warn\` (no per-request log line).`,
    '',
    `The chat figure is ${chatMessages} sequential visitor messages (Socket.IO over WebSocket: validated, rate-limited, stored, broadcast to staff through the adapter, acknowledged), against a bare Socket.IO server that acknowledges with the same answer.`,
  ];
  for (const run of runs) {
    lines.push(
      '',
      `### ${run.database}`,
      '',
      '| Endpoint | App req/s | App p50 | App p99 | Baseline req/s | Baseline p50 | Baseline p99 | Ratio | Errors (app) |',
      '|---|---|---|---|---|---|---|---|---|',
      ...run.endpoints.map(
        (e) =>
          `| ${e.name}: ${e.detail} | ${Math.round(e.app.rps)} | ${ms(e.app.p50)} ms | ${ms(e.app.p99)} ms | ${Math.round(e.baseline.rps)} | ${ms(e.baseline.p50)} ms | ${ms(e.baseline.p99)} ms | ${(e.app.rps / e.baseline.rps).toFixed(3)} | ${e.app.errors} |`,
      ),
      `| Chat round trip: visitor \`send\` → ack | ${Math.round(run.chat.app.perSecond)} msg/s | ${precise(run.chat.app.p50)} ms | ${precise(run.chat.app.p99)} ms | ${Math.round(run.chat.baseline.perSecond)} msg/s | ${precise(run.chat.baseline.p50)} ms | ${precise(run.chat.baseline.p99)} ms | ${(run.chat.app.perSecond / run.chat.baseline.perSecond).toFixed(3)} | 0 |`,
      '',
      `Server memory (RSS of the server process, sampled every 100 ms): ${fmtBytes(run.idleRssBytes)} idle after start-up, **${fmtBytes(run.peakRssBytes)} peak under this load**; lifetime peak including start-up and migrations (VmHWM) ${fmtBytes(run.lifetimePeakRssBytes)}.`,
    );
  }
  return lines.join('\n');
}

function header(): string {
  const commit = (() => {
    try {
      return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    } catch {
      return 'unknown';
    }
  })();
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return [
    '# Benchmarks',
    '',
    'Produced by `npm run bench` (`scripts/bench.ts`); not part of `npm test`. Run everything, or one part:',
    '',
    '```sh',
    'flock /tmp/notary-e2e.lock npm run bench                 # everything; builds if dist/ is missing',
    'npm run bench -- --only lighthouse                       # lighthouse | bundle | load (comma-separated)',
    'npm run bench -- --only load --db postgres --duration 10 # load on one database, longer',
    '```',
    '',
    'PostgreSQL figures use a fresh database on `BENCH_DATABASE_URL` (or `TEST_DATABASE_URL`, default `postgresql://postgres@127.0.0.1:5432/test`); they are skipped when it is unreachable.',
    '',
    `Last run: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, commit \`${commit}\`, ${os.cpus().length} × ${cpu}, ${mb(os.totalmem())} RAM, Node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')} at the end (the machine is shared; absolute figures move between runs, the ratios much less).`,
  ].join('\n');
}

// ---------------------------------------------------------------- main

const started = Date.now();
ensureBuilt();
let document = existsSync(outFile) ? readFileSync(outFile, 'utf8') : '';
const previousHeaderEnd = document.indexOf('<!-- bench:');
document = `${header()}\n\n${previousHeaderEnd >= 0 ? document.slice(previousHeaderEnd) : ''}`;

if (selected.has('bundle')) {
  log('bundle sizes');
  document = replaceSection(document, 'bundle', bundleMarkdown(measureBundles(root)));
  writeFileSync(outFile, document);
}

if (selected.has('lighthouse')) {
  const server = await startServer({ ...serverEnv });
  try {
    const paths = ['/', '/remote-notarization', '/blog', await articlePath(server), '/schedule'];
    document = replaceSection(document, 'lighthouse', lighthouseMarkdown(await runLighthouse(server.url, paths, log)));
    writeFileSync(outFile, document);
  } finally {
    await server.stop();
  }
}

if (selected.has('load')) {
  const databases = new Set(args.db!.split(',').map((d) => d.trim()));
  const runs: LoadRun[] = [];
  if (databases.has('pglite')) runs.push(await loadOn('PGlite', {}));
  if (databases.has('postgres')) {
    const run = await withPostgresDatabase((url) => loadOn('PostgreSQL', { DATABASE_URL: url }));
    if (run) runs.push(run);
  }
  document = replaceSection(document, 'load', loadMarkdown(runs));
  writeFileSync(outFile, document);
}

// Keep the sections in a stable order whatever ran.
const ordered = parts
  .map((name) => new RegExp(`<!-- bench:${name}:start -->[\\s\\S]*?<!-- bench:${name}:end -->`).exec(document)?.[0])
  .filter(Boolean);
writeFileSync(outFile, `${header()}\n\n${ordered.join('\n\n')}\n`);
log(`wrote ${path.relative(root, outFile)} in ${Math.round((Date.now() - started) / 1000)} s`);
process.exit(0);
