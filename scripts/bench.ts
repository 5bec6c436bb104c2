/**
 * `npm run bench` — the product's measured speed, written to docs/benchmarks.md.
 *
 *   flock /tmp/notary-heavy.lock npm run bench              # everything, 3 runs per figure (about 15 minutes)
 *   npm run bench -- --quick                                 # validates the harness: 1 run of 1 s each, one Lighthouse page (~3 minutes)
 *   npm run bench -- --only lighthouse                       # one part: lighthouse | bundle | load | seal (comma-separated)
 *   npm run bench -- --only load --db postgres --duration 10 # load figures on one database, longer
 *   npm run bench -- --only ondemand --quick --write         # Notarize now's line on two nodes, 40 customers (200 without --quick)
 *   npm run bench -- --only signalling                       # the room's CPU per relayed signal against a bare Socket.IO relay
 *
 * Every figure is a ratio to a floor measured in the same run, each floor in its
 * own process: pages against a bare server replaying the app's exact answer
 * (bytes and headers, compressed as a browser asks), database endpoints against
 * a bare `pg` script issuing the endpoint's own recorded statements at the same
 * concurrency. Parts that did not run keep their previous section in
 * docs/benchmarks.md (a --quick run writes nothing unless --write is given).
 * Builds first when dist/ is missing (or with --build).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import { measureBundles, type RouteBundle } from './bench/bundle.ts';
import { buildPageFloor } from './bench/floor-page.ts';
import { runLighthouse, type LighthousePage } from './bench/lighthouse.ts';
import { runSealBench, sealMarkdown, type SealBench } from './bench/seal.ts';
import { ownRss, residentOnce, rss, runChatLoad, runHttpLoad, sampleRss, type ChatResult, type EndpointResult, type Figures } from './bench/load.ts';
import { startBenchServer, type BenchServer } from './bench/server.ts';
import { growthDatabase, runGrowth, shortConversationLength, type GrowthRow } from './bench/growth.ts';
import { onDemandMarkdown, runOnDemandBench } from './bench/on-demand.ts';
import { runSignallingBench, signallingMarkdown, signallingRatio, type SignallingResult } from './bench/signalling.ts';

const root = process.cwd();
const outFile = path.join(root, 'docs/benchmarks.md');
const parts = ['lighthouse', 'bundle', 'load', 'growth', 'seal', 'ondemand', 'signalling'] as const;
type Part = (typeof parts)[number];

const { values: args } = parseArgs({
  options: {
    only: { type: 'string' },
    db: { type: 'string', default: 'pglite,postgres' },
    duration: { type: 'string' },
    connections: { type: 'string', default: '10' },
    runs: { type: 'string' },
    'chat-messages': { type: 'string' },
    settle: { type: 'string' },
    iterations: { type: 'string' },
    quick: { type: 'boolean', default: false },
    write: { type: 'boolean', default: false },
    build: { type: 'boolean', default: false },
  },
});
const quick = args.quick!;
/** A quick run validates the harness; its figures are too short to publish unless --write. */
const writeReport = !quick || args.write!;
const selected = new Set<Part>((args.only ?? parts.join(',')).split(',').map((p) => p.trim() as Part));
for (const part of selected) if (!parts.includes(part)) throw new Error(`unknown part "${part}" (choose from ${parts.join(', ')})`);
const durationSeconds = Number(args.duration ?? (quick ? 1 : 5));
const connections = Number(args.connections);
const runs = Number(args.runs ?? (quick ? 1 : 3));
const chatMessages = Number(args['chat-messages'] ?? (quick ? 30 : 300));
/** Seconds left idle after the load before memory is read again ("falls back within a minute"). */
const settleSeconds = Number(args.settle ?? (quick ? 5 : 60));
const poolSize = 10;
/** Calls per growth measurement (app and floor alternating), after 5 of each to warm up. */
const growthIterations = Number(args.iterations ?? (quick ? 10 : 60));
const postgresAdminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';

const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
const started = Date.now();
/** The command as typed (for the report: the figures come from it). */
const runCommand = ['npm run bench', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' ');
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
  firstStartMs: number;
  firstStartPeakBytes: number | null;
  firstStartPeakOnceBytes: number | null;
  restartMs: number[];
  idleRssBytes: number | null;
  /** The tree's resident memory with each page counted once (residentOnce), at healthy and after the settle. */
  idleResidentBytes: number | null;
  settledResidentBytes: number | null;
  /** Of idleRssBytes and settledRssBytes, the server process's own share (the rest: its database process). */
  idleServerRssBytes: number | null;
  settledServerRssBytes: number | null;
  peakRssBytes: number | null;
  settledRssBytes: number | null;
  lifetimePeakRssBytes: number | null;
}

async function loadOn(database: LoadRun['database'], env: Record<string, string>, databaseUrl?: string): Promise<LoadRun> {
  log(`load on ${database}`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'notary-bench-'));
  try {
    // First start: an empty database, migrations (and on PGlite, initdb) included.
    // Its peak also with each page counted once (a sampler of its own, which takes CPU: first start only).
    const first = await startBenchServer(env, dataDir, { residentPeak: true });
    await first.stop();
    // Restarts: what a deploy pays. The last one serves the load.
    const restartMs: number[] = [];
    let server: BenchServer | undefined;
    for (let i = 0; i < Math.max(1, runs); i++) {
      await server?.stop();
      server = await startBenchServer(env, dataDir);
      restartMs.push(server.startMs);
    }
    try {
      const pid = server!.pid;
      const idleRssBytes = rss(pid);
      const idleResidentBytes = residentOnce(pid);
      const idleServerRssBytes = ownRss(pid);
      const sampler = sampleRss(pid);
      const options = { connections, durationSeconds, runs, chatMessages, databaseUrl, poolSize, serverPid: pid, sqlRecordFile: server!.sqlRecordFile, log };
      const endpoints = await runHttpLoad(server!.url, options);
      const chat = await runChatLoad(server!.url, options);
      const peakRssBytes = sampler.stop();
      log(`idle ${settleSeconds} s for memory to settle`);
      await new Promise((r) => setTimeout(r, settleSeconds * 1000));
      return {
        database,
        endpoints,
        chat,
        firstStartMs: first.startMs,
        firstStartPeakBytes: first.startPeakBytes,
        firstStartPeakOnceBytes: first.startPeakOnceBytes,
        restartMs,
        idleRssBytes,
        idleResidentBytes,
        idleServerRssBytes,
        peakRssBytes,
        settledRssBytes: rss(pid),
        settledResidentBytes: residentOnce(pid),
        settledServerRssBytes: ownRss(pid),
        lifetimePeakRssBytes: rss(pid, 'VmHWM'),
      };
    } finally {
      await server!.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function articlePath(server: { url: string }): Promise<string> {
  const xml = await (await fetch(`${server.url}/sitemap.xml`)).text();
  const match = /<loc>[^<]*?(\/blog\/[^<]+)<\/loc>/.exec(xml);
  if (!match) throw new Error('no article in /sitemap.xml');
  return match[1]!;
}

// ---------------------------------------------------------------- report

/** The document's sections, in order: each a run's figures, written by this script (docs/decisions/082). */
// 'mesh', 'recording' and 'journal' are written by their own scripts (scripts/bench/mesh.ts, recording.ts,
// journal-verify.ts) between the same markers; a run of this script keeps them.
const sectionOrder = ['goals', 'load', 'growth', 'seal', 'ondemand', 'signalling', 'mesh', 'recording', 'journal', 'lighthouse', 'bundle'] as const;
type SectionName = (typeof sectionOrder)[number];

/** The sections of the previous document, to keep those this run did not measure. */
function previousSections(document: string): Map<SectionName, string> {
  const found = new Map<SectionName, string>();
  for (const match of document.matchAll(/<!-- bench:([a-z]+):start -->\n([\s\S]*?)\n<!-- bench:\1:end -->/g)) {
    if ((sectionOrder as readonly string[]).includes(match[1]!)) found.set(match[1] as SectionName, match[2]!);
  }
  return found;
}

function assemble(sections: Map<SectionName, string>): string {
  const body = sectionOrder.filter((name) => sections.has(name)).map((name) => `<!-- bench:${name}:start -->\n${sections.get(name)!.trim()}\n<!-- bench:${name}:end -->`);
  return `${header()}\n\n${body.join('\n\n')}\n`;
}

function lighthouseMarkdown(pages: LighthousePage[]): string {
  const runCount = pages[0]?.app.length ?? 0;
  const msSpread = (values: number[]) => spread(values, (v) => `${Math.round(v)} ms`);
  const ratios = (page: LighthousePage, metric: 'fcpMs' | 'lcpMs') => page.app.map((row, i) => row[metric] / page.floor[i]![metric]);
  const mid = (values: number[], digits: number) => median(values).toFixed(digits);
  const lines = [
    '## Lighthouse',
    '',
    `Mobile form factor, default simulated throttling (slow 4G, 4× CPU slowdown), cold cache, headless Chromium, against the built server on PGlite; ${runCount} run${runCount === 1 ? '' : 's'} per page (**min / median / max** where there are several; scores and TBT are medians). Targets: performance ≥ 0.95; accessibility, best practices and SEO 1.0; FCP ≤ 1.1 s and LCP ≤ 1.2 × the floor on marketing pages (issue 16, goal 3).`,
    '',
    '**Floor**: a bare React 19 + react-router 7 data-router page (one lazy route, hydrated as the app\'s entry does), server-rendered by its own process (`scripts/bench/floor-page.ts`, `floor.ts page`) with the same text as the app\'s page (its headings, paragraphs and list items, unstyled, in the browser\'s font), assets and HTML brotli-compressed; audited right after the app\'s page in each run. **Ratio** = app ÷ floor, per run.',
    '',
    '| Page | Performance | Accessibility | Best practices | SEO | FCP | Floor FCP | FCP ÷ floor | LCP | Floor LCP | LCP ÷ floor | TBT | CLS | Script over the wire |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...pages.map((p) => {
      const app = (pick: (r: LighthousePage['app'][number]) => number) => p.app.map(pick);
      return `| \`${p.path}\` | ${mid(app((r) => r.performance), 2)} | ${mid(app((r) => r.accessibility), 2)} | ${mid(app((r) => r.bestPractices), 2)} | ${mid(app((r) => r.seo), 2)} | ${msSpread(app((r) => r.fcpMs))} | ${Math.round(median(p.floor.map((r) => r.fcpMs)))} ms | ${spread(ratios(p, 'fcpMs'), (v) => v.toFixed(2))} | ${msSpread(app((r) => r.lcpMs))} | ${Math.round(median(p.floor.map((r) => r.lcpMs)))} ms | ${spread(ratios(p, 'lcpMs'), (v) => v.toFixed(2))} | ${Math.round(median(app((r) => r.tbtMs)))} ms | ${mid(app((r) => r.cls), 3)} | ${kb(median(app((r) => r.scriptTransferBytes)))} |`;
    }),
    '',
    'LCP element (first run, as Lighthouse names it): ' + pages.map((p) => `\`${p.path}\` \`${p.app[0]?.lcpElement ?? 'n/a'}\` (floor \`${p.floor[0]?.lcpElement ?? 'n/a'}\`)`).join('; ') + '.',
  ];
  const failing = [...new Set(pages.flatMap((p) => p.app.flatMap((r) => r.failing.map((f) => `- \`${p.path}\` ${f}`))))];
  if (failing.length > 0) lines.push('', 'Audits below 0.9 in a category under 1.0 (any run):', '', ...failing);
  return lines.join('\n');
}

function bundleMarkdown(bundles: RouteBundle[], floorGzipBytes: number): string {
  const verdict = (b: RouteBundle) => (b.budget === null ? '—' : b.gzipBytes <= b.budget ? `within ${kb(b.budget)}` : `**over ${kb(b.budget)}**`);
  return [
    '## JavaScript on first load',
    '',
    'Per route, from `dist/client/.vite/manifest.json`: the entry chunk and its static imports plus the route\'s lazy chunk and its static imports. Gzip level 6 per file (the budgets are in gzip); brotli quality 11 is what a browser receives (the assets are precompressed at build time). Budgets: marketing pages 100 KB, the console\'s sign-in pages 110 KB, `/schedule` 150 KB (docs/decisions/040-first-load-budgets.md). Floor: React 19 + the react-router 7 data router with one trivial lazy route, built by this Vite in the same run (`scripts/bench/floor-page/`, the Lighthouse floor\'s client), is ' + `**${kb(floorGzipBytes)}**` + ' gzip. Each route\'s own files are also announced in its HTML as `modulepreload` links (`dist/client/.vite/route-preloads.json`). Routes marked *server HTML* hydrate as the server\'s HTML without their page module (`src/client/server-html.ts`, docs/decisions/051-marketing-pages-as-server-html.md): their first load is the entry alone.',
    '',
    '| Route | Gzipped JS | Brotli JS | Raw JS | Files | Budget |',
    '|---|---|---|---|---|---|',
    ...bundles.map((b) => `| \`${b.route}\`${b.serverHtml ? ' (server HTML)' : ''} | ${kb(b.gzipBytes)} | ${kb(b.brotliBytes)} | ${kb(b.rawBytes)} | ${b.files.length} | ${verdict(b)} |`),
  ].join('\n');
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor((values.length - 1) / 2)]!;
/** min / median / max of a list of numbers, formatted. */
function spread(values: number[], format: (value: number) => string): string {
  if (values.length === 0) return 'n/a';
  if (values.length === 1) return format(values[0]!);
  return `${format(Math.min(...values))} / **${format(median(values))}** / ${format(Math.max(...values))}`;
}
const ratio = (value: number) => value.toFixed(3);
const whole = (value: number) => String(Math.round(value));
const seconds = (values: number[]) => spread(values.map((v) => v / 1000), (v) => `${v.toFixed(2)} s`);

function endpointRow(e: EndpointResult): string {
  const ratios = e.floor.length === e.app.length ? e.app.map((a, i) => a.rps / e.floor[i]!.rps) : [];
  const floorRps = e.floor.map((f: Figures) => f.rps);
  const floorName = { replay: 'replay', sql: 'SQL', 'http-sql': 'HTTP+SQL', framework: 'framework', none: '—' }[e.floorKind];
  return `| ${e.name}: ${e.detail}${e.bytes ? ` (${kb(e.bytes)} on the wire)` : ''} | ${spread(e.app.map((a) => a.rps), whole)} | ${ms(median(e.app.map((a) => a.p50)))} ms | ${spread(e.app.map((a) => a.p99), (v) => `${ms(v)} ms`)} | ${floorName} ${floorRps.length ? spread(floorRps, whole) : ''} | ${floorRps.length ? `${ms(median(e.floor.map((f) => f.p99)))} ms` : '—'} | ${ratios.length ? spread(ratios, ratio) : '—'} | ${e.app.reduce((s, a) => s + a.errors, 0)} |`;
}

/** " (server X + database Y)" when the server has a database process. */
function split(total: number | null, server: number | null): string {
  if (total === null || server === null || total - server < 1024 * 1024) return '';
  return ` (server ${fmtBytes(server)} + database ${fmtBytes(total - server)})`;
}

function loadMarkdown(loadRuns: LoadRun[]): string {
  const lines = [
    '## Throughput, latency, start-up and memory',
    '',
    `autocannon on loopback, ${connections} connections (unless stated), ${durationSeconds} s per measurement, ${runs} run${runs === 1 ? '' : 's'} per figure (**min / median / max**); each run measures the app, then its floor. Every floor is its own process (a floor sharing the load generator's process measures about half its real speed):`,
    '',
    '- **replay floor** (pages): a bare `node:http` server answering the exact status, headers and body bytes the app answered to a browser\'s request (`Accept-Encoding: gzip, deflate, br, zstd`), so compression the app does per response counts against it;',
    `- **SQL floor** (database endpoints, PostgreSQL only): a bare \`pg\` script (pool of ${poolSize}, as the app's) issuing the statements the endpoint itself sent — recorded from the server by \`scripts/bench/record-sql.ts\`, which keeps only the statements of the HTTP requests made while it records (not the mail outbox's poll or any other background work) — at the same concurrency, one request's statements in order on one connection. A floor request that fails stops the bench (a failing floor measures failures). The hold's floor replays 400 recorded holds, two rounds of its 200 bookings, so that each replayed statement moves a hold as the app's do; before each hold measurement, the app's and each floor's, \`bookings\` is vacuumed (decision 137).`,
    '- **HTTP+SQL floor** (`booking.hold`, PostgreSQL only; decision 137): a bare `node:http` server (`floor.ts http-sql`) that runs the same recorded statements for each request and answers the app\'s captured bytes, under the same autocannon: the HTTP exchange, the load generator and the SQL, with none of our work.',
    '- **framework floor** (`slots.list`): Express 5 + the tRPC fast lane (decision 053) answering the app\'s own answer to the same request, with no database and none of our middleware, its own process (`floor.ts framework`).',
    '',
    '**Ratio** = app req/s ÷ floor req/s, per run. Every request carries its own `X-Forwarded-For` address (server started with `TRUST_PROXY=1`) so per-address rate limits never refuse it, though each request still pays for the limiter; `BOOKING_SLOT_CAPACITY=1000000` so holds succeed instead of answering CONFLICT; `LOG_LEVEL=warn` (no per-request log line).',
    '',
    `The chat figure is ${chatMessages} sequential visitor messages (Socket.IO over WebSocket: validated, rate-limited, stored, broadcast to staff through the adapter, acknowledged), against a bare Socket.IO server (own process) that acknowledges with the same answer.`,
    '',
    `Start-up is spawn → first 200 from \`/healthz\` (polled every 10 ms): a first start on an empty database (migrations), then ${Math.max(1, runs)} restart${runs === 1 ? '' : 's'} on the migrated one. Memory is the RSS of the server **and its child processes summed** (on PGlite the database runs in a child, decision 054; the split is given as server + database): at healthy, peak under the load (sampled every 100 ms), ${settleSeconds} s after the load ended, and the lifetime peak (VmHWM, summed). A sum of RSS counts twice the pages both processes map (the \`node\` binary, ~55 MB), so the idle and settled figures are also given as **resident memory with each page counted once** (the union of the tree's page frames from \`/proc/<pid>/pagemap\`, what a container's memory limit is charged; \`residentOnce\` in \`scripts/bench/load.ts\`). The first start's peak is the highest of the sum sampled every 100 ms from spawn to healthy (initdb's own short-lived process included) and the summed VmHWM at healthy; and, with each page counted once, the highest union sampled every ~100–300 ms by \`scripts/bench/resident-sampler.ts\` in a process of its own (first start only: its sampling takes CPU, so the first start's time reads slower than it is).`,
  ];
  for (const run of loadRuns) {
    lines.push(
      '',
      `### ${run.database}`,
      '',
      '| Endpoint | App req/s | App p50 | App p99 | Floor req/s | Floor p99 | Ratio app ÷ floor | Errors (app) |',
      '|---|---|---|---|---|---|---|---|',
      ...run.endpoints.map(endpointRow),
      `| Chat round trip: visitor \`send\` → ack | ${Math.round(run.chat.app.perSecond)} msg/s | ${precise(run.chat.app.p50)} ms | ${precise(run.chat.app.p99)} ms | socket ${Math.round(run.chat.floor.perSecond)} msg/s | ${precise(run.chat.floor.p99)} ms | ${(run.chat.app.perSecond / run.chat.floor.perSecond).toFixed(3)} | 0 |`,
      '',
      `Start-up to healthy: first start ${(run.firstStartMs / 1000).toFixed(2)} s (peak ${fmtBytes(run.firstStartPeakOnceBytes)} with each page counted once; RSS summed ${fmtBytes(run.firstStartPeakBytes)}); restart ${seconds(run.restartMs)}.`,
      '',
      `Memory, each resident page counted once: **${fmtBytes(run.idleResidentBytes)} idle at healthy** (restart), ${fmtBytes(run.settledResidentBytes)} ${settleSeconds} s after the load.`,
      '',
      `Memory (RSS, server and children summed): ${fmtBytes(run.idleRssBytes)} idle at healthy (restart)${split(run.idleRssBytes, run.idleServerRssBytes)}, **${fmtBytes(run.peakRssBytes)} peak under load**, ${fmtBytes(run.settledRssBytes)} ${settleSeconds} s after the load${split(run.settledRssBytes, run.settledServerRssBytes)}; lifetime peak of the serving processes (VmHWM) ${fmtBytes(run.lifetimePeakRssBytes)}.`,
    );
  }
  return lines.join('\n');
}

function growthMarkdown(byDatabase: Array<{ database: string; rows: GrowthRow[] }>): string {
  const lines = [
    '## How costs grow with the data',
    '',
    `Each cost at 1×, 10× and 100× its data (chat messages from 100), against its floor at the same size in the same run (\`scripts/bench/growth.ts\`). In process on a fresh database seeded with SQL — the service call (its queries and its own work), no HTTP — one app call then one floor call, ${growthIterations} times after 5 of each to warm up; **medians**. Bookings: a tenth undated drafts, a tenth cancelled, a fifth upcoming, the rest completed over three years, one customer each (10 first names × 20 last names, numbered). **App ÷ floor** at that size; **÷ smallest** is the app's cost over its own cost at the smallest size (how it grows). Targets (issue 31): console list and search ≤ 2 × the floor at 100k bookings; a chat message ≤ 1.2 × from 100 to 100k messages; the console's conversation list ≤ 2 × its floor.`,
  ];
  for (const { database, rows } of byDatabase) {
    lines.push('', `### ${database}`, '', '| Cost | Data | App | Floor | App ÷ floor | ÷ smallest | Floor is |', '|---|---|---|---|---|---|---|');
    for (const row of rows) {
      const smallest = rows.find((r) => r.case === row.case)!;
      lines.push(
        `| ${row.case} | ${row.size.toLocaleString('en-US')} ${row.unit} | ${row.appMs.toFixed(2)} ms | ${row.floorMs.toFixed(2)} ms | ${(row.appMs / row.floorMs).toFixed(2)} | ${(row.appMs / smallest.appMs).toFixed(2)} | ${row.floor} |`,
      );
    }
    const second = rows.filter((r) => r.secondFloorMs !== undefined);
    if (second.length) {
      lines.push(
        '',
        `A **second floor**, measured in the same alternation (app, floor, second floor). A search's (decision 131): the best bare statement known for that search on the same indexes, its kind (a walk, or the matches' ids sorted) chosen in advance, the same page in the same order; the goal stays against the issue's floor above. A chat message's (decision 140): the same message sent to a conversation kept at 100 messages in the same database, so that the conversation's length is the only difference; the chat goal is read against it.`,
        '',
        '| Cost | Data | App | Second floor | App ÷ second floor | Second floor is |',
        '|---|---|---|---|---|---|',
        ...second.map((row) => `| ${row.case} | ${row.size.toLocaleString('en-US')} ${row.unit} | ${row.appMs.toFixed(2)} ms | ${row.secondFloorMs!.toFixed(2)} ms | ${(row.appMs / row.secondFloorMs!).toFixed(2)} | ${row.secondFloor} |`),
      );
    }
  }
  return lines.join('\n');
}

/** Issue 31's goals, each read from this run's figures (median of the runs for throughput ratios). */
function goalsMarkdown({ load: loadRuns, growth, signalling, seal }: Measured & { load: LoadRun[]; growth: Array<{ database: string; rows: GrowthRow[] }> }): string {
  const lines = [
    '## Goals (issue 31) in this run',
    '',
    'Each line is computed from the figures below by `scripts/bench.ts` (nothing here is typed by hand). Throughput and signalling ratios: min / **median** / max of the runs; growth: medians at the largest size; the seal: medians. Signalling and the seal have lines only when this run measured them too.',
    '',
    '| Goal | Target | Database | Measured | |',
    '|---|---|---|---|---|',
  ];
  const verdict = (ok: boolean) => (ok ? 'met' : '**not met**');
  for (const { database, rows } of growth) {
    const largest = (prefix: string) => rows.filter((r) => r.case.startsWith(prefix)).reduce<Map<string, GrowthRow>>((m, r) => (r.size >= (m.get(r.case)?.size ?? 0) ? m.set(r.case, r) : m), new Map());
    for (const row of largest('Console bookings').values()) {
      const ratio = row.appMs / row.floorMs;
      const second = row.secondFloorMs === undefined ? '' : `; ${(row.appMs / row.secondFloorMs).toFixed(2)} × its best bare statement (${row.secondFloorMs.toFixed(1)} ms)`;
      lines.push(`| ${row.case} at ${row.size.toLocaleString('en-US')} bookings | ≤ 2 × floor | ${database} | ${ratio.toFixed(2)} × (${row.appMs.toFixed(1)} ms against ${row.floorMs.toFixed(1)} ms)${second} | ${verdict(ratio <= 2)} |`);
    }
    for (const row of largest('Chat: a visitor message').values()) {
      const smallest = rows.find((r) => r.case === row.case)!;
      // The goal is about the conversation's length (decision 140): the same message in a short
      // conversation, alternated with this one in the same database. Across sizes, beside it,
      // the growth with the whole table and its bare insert's, which no per-message work of ours can remove.
      // growth.ts measures the short conversation in every chat row.
      const short = row.secondFloorMs!;
      const lengthRatio = row.appMs / short;
      const growthRatio = row.appMs / smallest.appMs;
      const floorGrowth = row.floorMs / smallest.floorMs;
      lines.push(`| A chat message, ${smallest.size.toLocaleString('en-US')} → ${row.size.toLocaleString('en-US')} messages in its conversation | ≤ 1.2 × | ${database} | ${lengthRatio.toFixed(2)} × (${row.appMs.toFixed(1)} ms against ${short.toFixed(1)} ms in a ${shortConversationLength.toLocaleString('en-US')}-message conversation, alternated); across sizes ${growthRatio.toFixed(2)} × (${smallest.appMs.toFixed(1)} → ${row.appMs.toFixed(1)} ms), its bare insert ${floorGrowth.toFixed(2)} × | ${verdict(lengthRatio <= 1.2)} |`);
    }
    for (const row of largest("Chat: the console's conversation list").values()) {
      const ratio = row.appMs / row.floorMs;
      lines.push(`| The console's conversation list at ${row.size.toLocaleString('en-US')} conversations | ≤ 2 × floor | ${database} | ${ratio.toFixed(2)} × | ${verdict(ratio <= 2)} |`);
    }
  }
  for (const run of loadRuns) {
    for (const e of run.endpoints) {
      if (e.floor.length !== e.app.length || e.floor.length === 0) continue;
      const ratios = e.app.map((a, i) => a.rps / e.floor[i]!.rps);
      const target = e.floorKind === 'framework' && e.name === 'Slot query' ? 0.7 : e.floorKind === 'sql' && e.name === 'Hold creation' ? 0.6 : null;
      if (target === null) continue;
      const label = e.name === 'Slot query' ? '`slots.list` against the framework floor' : `\`booking.hold\` against its SQL floor, ${e.detail.includes('50 connections') ? 50 : connections} connections`;
      lines.push(`| ${label} | ≥ ${target} × | ${run.database} | ${spread(ratios, ratio)} | ${verdict(median(ratios) >= target)} (median) |`);
    }
  }
  for (const result of signalling ?? []) {
    const r = signallingRatio(result);
    lines.push(`| Signalling: the server's CPU per relayed signal against a bare Socket.IO relay | ≤ 2 × | ${result.database} | ${r.min.toFixed(2)} / **${r.median.toFixed(2)}** / ${r.max.toFixed(2)} × | ${verdict(r.median <= 2)} (median) |`);
  }
  if (seal) {
    const sealRatio = median(seal.sealMs) / median(seal.floorMs);
    lines.push(`| Seal of a ${(seal.pdfBytes / 1024 / 1024).toFixed(0)} MB PDF against pdf-lib's load + save | ≤ 2 × | — | ${sealRatio.toFixed(2)} × (${median(seal.sealMs).toFixed(0)} ms against ${median(seal.floorMs).toFixed(0)} ms) | ${verdict(sealRatio <= 2)} |`);
    lines.push(`| \`/healthz\` p99 while 3 seals run at once | < 50 ms | — | ${seal.during.p99.toFixed(1)} ms (${seal.during.count} probes over ${seal.rounds} rounds) | ${verdict(seal.during.p99 < 50)} |`);
  }
  return lines.join('\n');
}

/** Which run wrote a section (a part that did not run keeps its section, and the line with it). */
function provenance(): string {
  return `*Measured by \`${runCommand}\` (started ${new Date(started).toISOString().slice(0, 16).replace('T', ' ')} UTC) at commit \`${gitCommit()}\`.*`;
}

function gitCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

function header(): string {
  const commit = gitCommit();
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return [
    '# Benchmarks',
    '',
    'Written by `npm run bench` (`scripts/bench.ts`), every figure and table below: nothing is typed by hand (docs/decisions/082-bench-that-cannot-lie.md). Not part of `npm test`. Run everything, or one part:',
    '',
    '```sh',
    'flock /tmp/notary-heavy.lock npm run bench              # everything, 3 runs per figure; builds if dist/ is missing',
    'npm run bench -- --quick                                 # checks the harness end to end (1 short run, small data; writes nothing)',
    'npm run bench -- --only growth                           # lighthouse | bundle | load | growth | seal | ondemand | signalling',
    'npm run bench -- --only load --db postgres --duration 10 # load on one database, longer',
    'npm run bench -- --only ondemand                         # Notarize now: 200 customers, 10 notaries, two nodes, one killed',
    'npm run bench -- --only signalling                       # the room\'s CPU per relayed signal against a bare Socket.IO relay',
    '```',
    '',
    'PostgreSQL figures use a fresh database on `BENCH_DATABASE_URL` (or `TEST_DATABASE_URL`, default `postgresql://postgres@127.0.0.1:5432/test`); they are skipped when it is unreachable. A part that did not run keeps its previous section; each section ends with the command and commit that measured it, and the goals table is written only by a run that measured both `load` and `growth`. Every process the bench starts runs in a process group of its own and is ended on every path (finished, failed, interrupted; a server not healthy within 180 s is ended too). Notes and figures of earlier rounds, with the reasoning behind them: `docs/benchmarks-history.md`.',
    '',
    `Last run: \`${runCommand}\`, ${new Date(started).toISOString().slice(0, 16).replace('T', ' ')}–${new Date().toISOString().slice(11, 16)} UTC, commit \`${commit}\`, ${os.cpus().length} × ${cpu}, ${mb(os.totalmem())} RAM, Node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')} at the end. **The machine is shared with other developers' builds and tests**: absolute figures move between runs (and within one); ratios to a floor measured in the same run move much less.`,
  ].join('\n');
}

// ---------------------------------------------------------------- main

// The seal part runs the engine and the API only: no pages, no build.
if ([...selected].some((part) => part !== 'seal')) ensureBuilt();
/** What this run measured, for the goals table (written only when both ran in this one run). */
interface Measured {
  load?: LoadRun[];
  growth?: Array<{ database: string; rows: GrowthRow[] }>;
  signalling?: SignallingResult[];
  seal?: SealBench;
}
const measured: Measured = {};
const sections = previousSections(existsSync(outFile) ? readFileSync(outFile, 'utf8') : '');
const save = () => {
  if (writeReport) writeFileSync(outFile, assemble(sections));
};

/** A part's section: also printed on a quick run, written at once, with the run that measured it. */
function publish(section: SectionName, markdown: string) {
  if (quick) process.stdout.write(`${markdown}\n\n`);
  sections.set(section, `${markdown}\n\n${provenance()}`);
  save();
}

const databases = new Set(args.db!.split(',').map((d) => d.trim()));
/** `measure` on each database asked for (`--db`): PGlite, then a fresh PostgreSQL database (skipped when unreachable). */
async function onEachDatabase<T>(measure: (database: 'PGlite' | 'PostgreSQL', url?: string) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  if (databases.has('pglite')) results.push(await measure('PGlite'));
  if (databases.has('postgres')) {
    const result = await withPostgresDatabase((url) => measure('PostgreSQL', url));
    if (result !== null) results.push(result);
  }
  return results;
}

// The seal first, on the machine as it was found: the other parts leave PostgreSQL writing
// back and dropping their databases for a while after them, and a seal of tens of
// milliseconds measured among that swung 15–62 ms (its floor 11–45).
if (selected.has('seal')) {
  // A seal takes tens of milliseconds: several runs for each of the others' one, so one slow run (a GC, a neighbour) is not a third of the median.
  measured.seal = await runSealBench(quick ? runs : runs * 5, log);
  publish('seal', sealMarkdown(measured.seal));
}

if (selected.has('bundle')) {
  log('bundle sizes');
  const floorDir = mkdtempSync(path.join(os.tmpdir(), 'notary-floor-bundle-'));
  const { clientDir } = await buildPageFloor(path.join(floorDir, 'client'));
  const floorGzipBytes = readdirSync(path.join(clientDir, 'assets'))
    .filter((file) => file.endsWith('.js'))
    .reduce((sum, file) => sum + gzipSync(readFileSync(path.join(clientDir, 'assets', file)), { level: 6 }).length, 0);
  rmSync(floorDir, { recursive: true, force: true });
  publish('bundle', bundleMarkdown(measureBundles(root), floorGzipBytes));
}

if (selected.has('lighthouse')) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'notary-bench-'));
  const server = await startBenchServer({}, dataDir);
  try {
    const paths = quick ? ['/'] : ['/', '/remote-notarization', '/blog', await articlePath(server), '/schedule', '/admin/login'];
    publish('lighthouse', lighthouseMarkdown(await runLighthouse(server.url, paths, runs, log)));
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (selected.has('load')) {
  measured.load = await onEachDatabase((database, url) => loadOn(database, url ? { DATABASE_URL: url } : {}, url));
  publish('load', loadMarkdown(measured.load));
}

if (selected.has('growth')) {
  const growthOptions = { quick, iterations: growthIterations, log };
  measured.growth = await onEachDatabase(async (database, url) => ({ database, rows: await runGrowth(growthDatabase(database, url), growthOptions) }));
  publish('growth', growthMarkdown(measured.growth));
}

if (selected.has('ondemand')) {
  // Two nodes need one shared database: PostgreSQL only (decision 110).
  const customers = quick ? 40 : 200;
  const notaries = quick ? 4 : 10;
  const result = await withPostgresDatabase((url) => runOnDemandBench(url, { customers, notaries, log }));
  if (result) {
    if (result.served !== customers || result.doubled !== 0 || result.lost !== 0) {
      throw new Error(`on-demand: ${result.served} of ${customers} served, ${result.doubled} twice, ${result.lost} lost`);
    }
    publish('ondemand', onDemandMarkdown(result));
  }
}

if (selected.has('signalling')) {
  const signals = quick ? 500 : 3000;
  measured.signalling = await onEachDatabase((database, url) => runSignallingBench({ db: database === 'PostgreSQL' ? 'postgres' : 'pglite', signals, runs, databaseUrl: url, log }));
  publish('signalling', signallingMarkdown(measured.signalling));
}

if (measured.load && measured.growth) {
  sections.set('goals', goalsMarkdown({ ...measured, load: measured.load, growth: measured.growth }));
  save();
}
save();
log(`${writeReport ? `wrote ${path.relative(root, outFile)}` : 'quick run: docs/benchmarks.md left as it was'} in ${Math.round((Date.now() - started) / 1000)} s`);
process.exit(0);
