import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { closeSync, openSync, readdirSync, readFileSync, readSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon, { type RawRequest, type Result } from 'autocannon';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { deserialize, serialize } from '../../src/shared/trpc-transformer.ts';
import type { FrameworkSpec, HttpSqlSpec, ReplaySpec, SqlFigures, SqlSpec, SqlStatement } from './floor.ts';
import { firstLine, spawnTracked, stopTracked } from './processes.ts';

export interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/** One endpoint measured `runs` times, each run the app then its floor. */
export interface EndpointResult {
  name: string;
  detail: string;
  floorKind: 'replay' | 'sql' | 'http-sql' | 'framework' | 'none';
  app: Figures[];
  floor: Figures[];
  /** Response size on the wire (pages: compressed). */
  bytes?: number;
}

export interface LoadOptions {
  connections: number;
  durationSeconds: number;
  runs: number;
  chatMessages: number;
  /** Set when the database is PostgreSQL: the SQL floor runs against it. */
  databaseUrl?: string;
  /** Pool size the app uses on PostgreSQL (the SQL floor uses the same). */
  poolSize: number;
  /** The server process, for recording its SQL (started with scripts/bench/record-sql.ts preloaded). */
  serverPid: number;
  sqlRecordFile?: string;
  log: (line: string) => void;
}

/** What Chromium sends for a top-level navigation. */
export const browserHeaders: Record<string, string> = {
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8',
  'accept-encoding': 'gzip, deflate, br, zstd',
  'accept-language': 'en-US,en;q=0.9',
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36',
};

/**
 * Each request comes from its own client address (X-Forwarded-For, with
 * TRUST_PROXY=1 on the server), so the per-address rate limits never refuse a
 * bench request — yet every request still pays for the limiter's database upsert.
 */
let addressCounter = 0;
export function nextAddress(): string {
  addressCounter++;
  return `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
}

// The tRPC wire format (the server's transformer): one place to change if it changes.
const encodeInput = (input: unknown) => JSON.stringify(serialize(input));
const decodeOutput = (data: unknown) => deserialize(data);
const trpcInput = (input: unknown) => encodeURIComponent(encodeInput(input));

function figures(result: Result): Figures {
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.timeouts + result.non2xx };
}

/** The app's answer as bytes on the wire: status, headers and the body as sent (still compressed). */
export function captureRaw(url: string, request: RawRequest): Promise<ReplaySpec> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${request.path}`, { method: request.method ?? 'GET', headers: { ...request.headers, 'x-forwarded-for': nextAddress() } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        if ((res.statusCode ?? 0) >= 400) return reject(new Error(`${request.method ?? 'GET'} ${request.path} answered ${res.statusCode}`));
        const headers: OutgoingHttpHeaders = {};
        for (const [name, value] of Object.entries(res.headers)) {
          // Node frames the body itself (chunked or Content-Length) and manages the connection.
          if (['connection', 'keep-alive', 'transfer-encoding'].includes(name) || value === undefined) continue;
          headers[name] = value;
        }
        resolve({ status: res.statusCode ?? 200, headers, bodyBase64: body.toString('base64') });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(request.body);
  });
}

const floorScript = path.join(import.meta.dirname, 'floor.ts');

function runFloorProcess(mode: string, spec: unknown): ChildProcess {
  const file = path.join(tmpdir(), `bench-floor-${randomUUID()}.json`);
  writeFileSync(file, JSON.stringify(spec));
  return spawnTracked(process.execPath, [floorScript, mode, file], { stdio: ['ignore', 'pipe', 'inherit'] });
}

/** A floor server in its own process; resolves its URL and a stop function. */
export async function startFloorServer(mode: 'replay' | 'socket' | 'framework' | 'http-sql', spec: unknown): Promise<{ url: string; stop(): Promise<void> }> {
  const child = runFloorProcess(mode, spec);
  const { url } = JSON.parse(await firstLine(child, `floor ${mode}`, 120_000)) as { url: string };
  return { url, stop: () => stopTracked(child) };
}

/** The SQL floor runs for `durationSeconds`, then prints its figures and exits (or is ended on any failure). */
async function runSqlFloor(spec: SqlSpec): Promise<Figures> {
  const child = runFloorProcess('sql', spec);
  try {
    return JSON.parse(await firstLine(child, 'floor sql', spec.durationSeconds * 1000 + 120_000)) as SqlFigures;
  } finally {
    await stopTracked(child);
  }
}

async function cannon(url: string, connections: number, durationSeconds: number, setup: () => RawRequest): Promise<Result> {
  return autocannon({
    url,
    connections,
    duration: durationSeconds,
    requests: [
      {
        setupRequest: (req) => {
          const next = setup();
          return { ...req, ...next, headers: { ...next.headers, 'x-forwarded-for': nextAddress() } };
        },
      },
    ],
  });
}

/** A date (YYYY-MM-DD) `days` ahead in Chicago. */
function chicagoDate(days: number): string {
  const date = new Date(Date.now() + days * 86_400_000);
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Chicago', year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
}

async function trpcQuery<T>(url: string, procedure: string, input: unknown): Promise<T> {
  const res = await fetch(`${url}/trpc/${procedure}?input=${trpcInput(input)}`, { headers: { 'x-forwarded-for': nextAddress() } });
  const json = (await res.json()) as { result?: { data: unknown }; error?: unknown };
  if (!json.result) throw new Error(`${procedure} failed: ${JSON.stringify(json.error)}`);
  return decodeOutput(json.result.data) as T;
}

async function trpcMutation<T>(url: string, procedure: string, input: unknown): Promise<T> {
  const res = await fetch(`${url}/trpc/${procedure}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': nextAddress() },
    body: encodeInput(input),
  });
  const json = (await res.json()) as { result?: { data: unknown }; error?: unknown };
  if (!json.result) throw new Error(`${procedure} failed: ${JSON.stringify(json.error)}`);
  return decodeOutput(json.result.data) as T;
}

// ---------------------------------------------------------------- SQL recording

async function waitForMarker(file: string, marker: number): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    if (readFileSync(file, 'utf8').includes(`{"marker":${marker},`)) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error('the server did not answer the SQL recording toggle (is scripts/bench/record-sql.ts preloaded?)');
}

let toggles = 0;
/**
 * The statements the server issued while `run` ran, one list per HTTP request
 * (in the order the requests arrived; recording toggled by SIGUSR2).
 */
async function recordRequests(options: LoadOptions, run: () => Promise<unknown>): Promise<SqlStatement[][]> {
  const file = options.sqlRecordFile!;
  const start = ++toggles;
  process.kill(options.serverPid, 'SIGUSR2');
  await waitForMarker(file, start);
  await run();
  const end = ++toggles;
  process.kill(options.serverPid, 'SIGUSR2');
  await waitForMarker(file, end);
  const lines = readFileSync(file, 'utf8').split('\n');
  const from = lines.findIndex((l) => l.startsWith(`{"marker":${start},`));
  const to = lines.findIndex((l) => l.startsWith(`{"marker":${end},`));
  const requests = new Map<number, SqlStatement[]>();
  for (const line of lines.slice(from + 1, to)) {
    const { request, name, text, values } = JSON.parse(line) as SqlStatement & { client: number; request: number };
    if (!requests.has(request)) requests.set(request, []);
    requests.get(request)!.push({ name, text, values });
  }
  const statements = [...requests.entries()].sort(([a], [b]) => a - b).map(([, list]) => list);
  // A floor of no statements measures an empty loop.
  if (statements.length === 0) throw new Error('the request sent no SQL the recorder saw: no SQL floor to measure against');
  return statements;
}

const perRequest = (list: SqlStatement[][]) => Math.round(list.reduce((sum, l) => sum + l.length, 0) / Math.max(1, list.length));

/** The statements the server issued while `run` ran, all requests' in one list. */
async function recordStatements(options: LoadOptions, run: () => Promise<unknown>): Promise<SqlStatement[]> {
  return (await recordRequests(options, run)).flat();
}

/**
 * Whether the SQL floor, replaying these holds' statements over and over in
 * this order, moves a hold with every one, as the app's load does (decision
 * 137): the next hold of each booking, going round, is to another slot. One
 * hold per booking replayed again puts it back into the slot it is already in
 * — an update of no indexed column, which PostgreSQL makes in place (HOT),
 * with no new index entries: not the work of the move the app makes.
 */
export function replayMovesEveryHold(holds: ReadonlyArray<{ bookingId: string; startsAt: Date }>): boolean {
  const byBooking = new Map<string, number[]>();
  for (const { bookingId, startsAt } of holds) {
    if (!byBooking.has(bookingId)) byBooking.set(bookingId, []);
    byBooking.get(bookingId)!.push(startsAt.getTime());
  }
  for (const times of byBooking.values()) {
    if (times.some((time, i) => time === times[(i + 1) % times.length])) return false;
  }
  return true;
}

// ---------------------------------------------------------------- measurements

/** `VACUUM` of one table of the bench's PostgreSQL database. */
async function vacuum(url: string, table: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`vacuum ${table}`);
  } finally {
    await client.end();
  }
}

/**
 * `runs` rounds, each the app then each of its floors (so all see the same
 * moment of a shared machine). One list of figures per floor, in order.
 * `settle`, when given, runs before every measurement, the app's and each
 * floor's: each then starts from the same state of the database (decision 137).
 */
export async function repeat(
  options: Pick<LoadOptions, 'runs'> & { settle?: () => Promise<void> },
  app: () => Promise<Figures>,
  ...floors: Array<(() => Promise<Figures>) | null>
) {
  const result = { app: [] as Figures[], floors: floors.map(() => [] as Figures[]) };
  for (let run = 0; run < options.runs; run++) {
    await options.settle?.();
    result.app.push(await app());
    for (const [i, floor] of floors.entries()) {
      if (!floor) continue;
      await options.settle?.();
      // A floor whose requests fail measures failures, not the work: no ratio against it.
      const figures = await floor();
      if (figures.errors > 0) throw new Error(`the floor failed ${figures.errors} of its requests: it measures nothing comparable`);
      result.floors[i]!.push(figures);
    }
  }
  return result;
}

/** A page: the app under autocannon with a browser's headers, then a replay of its exact answer from a bare server. */
async function measurePage(appUrl: string, name: string, detail: string, pagePath: string, options: LoadOptions): Promise<EndpointResult> {
  options.log(`load: ${name}`);
  const setup = () => ({ method: 'GET', path: pagePath, headers: browserHeaders });
  const captured = await captureRaw(appUrl, setup());
  const floor = await startFloorServer('replay', captured);
  try {
    const runs = await repeat(
      options,
      async () => figures(await cannon(appUrl, options.connections, options.durationSeconds, setup)),
      async () => figures(await cannon(floor.url, options.connections, options.durationSeconds, setup)),
    );
    return { name, detail, floorKind: 'replay', app: runs.app, floor: runs.floors[0]!, bytes: Buffer.from(captured.bodyBase64, 'base64').length };
  } finally {
    await floor.stop();
  }
}

export async function runHttpLoad(appUrl: string, options: LoadOptions): Promise<EndpointResult[]> {
  const results: EndpointResult[] = [];
  const timeZone = 'America/Chicago';
  const pgFloor = options.databaseUrl !== undefined && options.sqlRecordFile !== undefined;

  results.push(await measurePage(appUrl, 'Public page', '`GET /`, browser `Accept-Encoding` (cached, compressed)', '/', options));

  // slots.list: the SQL floor replays the statements one request issued.
  options.log('load: slots.list');
  const date = chicagoDate(2);
  const slotsPath = `/trpc/slots.list?input=${trpcInput({ date, timeZone })}`;
  const slotsSetup = () => ({ method: 'GET', path: slotsPath });
  const slotStatements = pgFloor ? [await recordStatements(options, () => trpcQuery(appUrl, 'slots.list', { date, timeZone }))] : [];
  // The framework floor (decision 053): Express + the fast lane answering the same data with no work at all.
  const slotsAnswer = (await (await fetch(`${appUrl}${slotsPath}`, { headers: { 'x-forwarded-for': nextAddress() } })).json()) as { result: { data: unknown } };
  const frameworkFloor = await startFloorServer('framework', { procedure: 'slots.list', data: slotsAnswer.result.data } satisfies FrameworkSpec);
  try {
    const slotRuns = await repeat(
      options,
      async () => figures(await cannon(appUrl, options.connections, options.durationSeconds, slotsSetup)),
      async () => figures(await cannon(frameworkFloor.url, options.connections, options.durationSeconds, slotsSetup)),
      pgFloor
        ? () => runSqlFloor({ url: options.databaseUrl!, connections: options.connections, poolSize: options.poolSize, durationSeconds: options.durationSeconds, requests: slotStatements })
        : null,
    );
    results.push({ name: 'Slot query', detail: '`slots.list` for one day, against the framework floor', floorKind: 'framework', app: slotRuns.app, floor: slotRuns.floors[0]! });
    if (pgFloor) results.push({ name: 'Slot query', detail: '`slots.list` for one day, against the SQL of its read (most requests are answered from the answer shared for a second, decision 116)', floorKind: 'sql', app: slotRuns.app, floor: slotRuns.floors[1]! });
  } finally {
    await frameworkFloor.stop();
  }
  const slotRows = results.length - 1;

  // Holds: 200 draft bookings, each request moving one of them to one of the
  // open slots of the next week (BOOKING_SLOT_CAPACITY is raised for the run so
  // the bench measures the hold, not CONFLICT answers).
  options.log('load: booking.hold');
  const bookings: string[] = [];
  for (let i = 0; i < 200; i++) bookings.push((await trpcMutation<{ bookingId: string }>(appUrl, 'booking.start', { timeZone })).bookingId);
  const slots: Date[] = [];
  for (let day = 2; day <= 8; day++) {
    const list = await trpcQuery<{ slots: Array<{ startsAt: Date; available: boolean }> }>(appUrl, 'slots.list', { date: chicagoDate(day), timeZone });
    slots.push(...list.slots.filter((s) => s.available).map((s) => new Date(s.startsAt)));
  }
  if (slots.length === 0) throw new Error('no open slots to hold');
  let n = 0;
  const holdInput = () => {
    n++;
    return { bookingId: bookings[n % bookings.length]!, startsAt: slots[(n * 7) % slots.length]!, timeZone };
  };
  const holdSetup = () => ({ method: 'POST', path: '/trpc/booking.hold', headers: { 'content-type': 'application/json' }, body: encodeInput(holdInput()) });
  // Every booking held once first, so the recorded holds (and the load) are "move the hold" — the steady state.
  for (let i = 0; i < bookings.length; i++) await trpcMutation(appUrl, 'booking.hold', holdInput());
  // The floor replays two rounds of the 200 bookings (400 holds, in the app's
  // order): going round, each replayed statement moves its booking to another
  // slot, as the app's holds do, and no two of 50 concurrent ones lock the same
  // booking, as the app's never do (decision 137; it replayed 20 before).
  const recordedHolds = Array.from({ length: 2 * bookings.length }, holdInput);
  if (pgFloor && !replayMovesEveryHold(recordedHolds)) throw new Error(`replayed, these holds would not all move (${slots.length} slots): the floor would not do the app's work`);
  const holdStatements: SqlStatement[][] = pgFloor
    ? await recordRequests(options, async () => {
        for (const hold of recordedHolds) await trpcMutation(appUrl, 'booking.hold', hold);
      })
    : [];
  if (pgFloor && holdStatements.length !== recordedHolds.length) throw new Error(`recorded ${holdStatements.length} holds' statements, ${recordedHolds.length} sent`);
  const sqlFloor = (connections: number) =>
    pgFloor
      ? () => runSqlFloor({ url: options.databaseUrl!, connections, poolSize: options.poolSize, durationSeconds: options.durationSeconds, requests: holdStatements })
      : null;
  // A second floor, beside the SQL one (decision 137): the same statements behind a
  // bare node:http server, under the same autocannon — what an HTTP exchange and the
  // SQL cost on this machine, load generator included, with none of our work.
  const httpSqlFloor = pgFloor
    ? await startFloorServer('http-sql', {
        url: options.databaseUrl!,
        poolSize: options.poolSize,
        requests: holdStatements,
        answer: await captureRaw(appUrl, holdSetup()),
      } satisfies HttpSqlSpec)
    : null;
  const httpFloor = (connections: number) => (httpSqlFloor ? async () => figures(await cannon(httpSqlFloor.url, connections, options.durationSeconds, holdSetup)) : null);
  // Every hold leaves a dead version of a booking's row and its index entries
  // behind, thousands per measurement, which the measurement after it would wade through:
  // vacuumed before each, the app's and the floor's (decision 137).
  const settle = options.databaseUrl ? { ...options, settle: () => vacuum(options.databaseUrl!, 'bookings') } : options;
  try {
    const holds10 = await repeat(settle, async () => figures(await cannon(appUrl, options.connections, options.durationSeconds, holdSetup)), sqlFloor(options.connections), httpFloor(options.connections));
    const holds50 = await repeat(settle, async () => figures(await cannon(appUrl, 50, options.durationSeconds, holdSetup)), sqlFloor(50), httpFloor(50));
    const statements = pgFloor ? ` — ${perRequest(holdStatements)} statements per request` : '';
    const detail10 = `\`booking.hold\` (moves one of 200 holds to one of the week's slots), ${options.connections} connections`;
    const detail50 = '`booking.hold`, **50 connections** (target p99 ≤ 500 ms)';
    results.push({ name: 'Hold creation', detail: `${detail10}${statements}`, floorKind: pgFloor ? 'sql' : 'none', app: holds10.app, floor: holds10.floors[0]! });
    results.push({ name: 'Hold creation', detail: detail50, floorKind: pgFloor ? 'sql' : 'none', app: holds50.app, floor: holds50.floors[0]! });
    if (pgFloor) {
      const against = ' against HTTP and its SQL (a bare `node:http` server running the same statements)';
      results.push({ name: 'Hold creation', detail: `${detail10}${against}`, floorKind: 'http-sql', app: holds10.app, floor: holds10.floors[1]! });
      results.push({ name: 'Hold creation', detail: `${detail50}${against}`, floorKind: 'http-sql', app: holds50.app, floor: holds50.floors[1]! });
      results[slotRows]!.detail += ` — ${perRequest(slotStatements)} statement${perRequest(slotStatements) === 1 ? '' : 's'} per request`;
    }
  } finally {
    await httpSqlFloor?.stop();
  }
  return results;
}

export interface ChatResult {
  messages: number;
  app: { p50: number; p99: number; perSecond: number };
  floor: { p50: number; p99: number; perSecond: number };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Sequential emit → ack round trips; `visitors` sockets share the messages (per-visitor rate limit). */
async function roundTrips(url: string, messages: number, cookies: string[]): Promise<{ p50: number; p99: number; perSecond: number; lastAck: unknown }> {
  const sockets: Socket[] = [];
  try {
    for (const cookie of cookies) {
      const socket = io(`${url}/chat`, {
        transports: ['websocket'],
        forceNew: true,
        reconnection: false,
        query: { chat: 'visitor' },
        extraHeaders: { cookie, 'x-forwarded-for': nextAddress() },
      });
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      sockets.push(socket);
    }
    const latencies: number[] = [];
    let lastAck: unknown;
    const started = performance.now();
    for (let i = 0; i < messages; i++) {
      const socket = sockets[i % sockets.length]!;
      const t0 = performance.now();
      lastAck = await socket.timeout(10_000).emitWithAck('send', { clientId: randomUUID(), body: `Benchmark message ${i}` });
      latencies.push(performance.now() - t0);
      if (!(lastAck as { ok?: boolean }).ok) throw new Error(`chat send refused: ${JSON.stringify(lastAck)}`);
    }
    const elapsed = performance.now() - started;
    latencies.sort((a, b) => a - b);
    return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), perSecond: (messages / elapsed) * 1000, lastAck };
  } finally {
    for (const socket of sockets) socket.disconnect();
  }
}

async function visitorCookie(url: string): Promise<string> {
  const res = await fetch(`${url}/socket.io/?EIO=4&transport=polling&chat=visitor`, { headers: { 'x-forwarded-for': nextAddress() } });
  await res.text();
  const cookie = res.headers.getSetCookie().find((line) => line.startsWith('chat_visitor='));
  if (!cookie) throw new Error(`no chat_visitor cookie (status ${res.status})`);
  return cookie.split(';')[0]!;
}

/** Visitor message → stored, broadcast to staff through the adapter → acknowledged; floor: a bare Socket.IO server in its own process. */
export async function runChatLoad(appUrl: string, options: LoadOptions): Promise<ChatResult> {
  options.log('load: chat round trip');
  // The chat allows 20 messages a minute per conversation: 15 per visitor keeps clear of it.
  const visitors = Math.ceil(options.chatMessages / 15);
  const cookies: string[] = [];
  for (let i = 0; i < visitors; i++) cookies.push(await visitorCookie(appUrl));
  const app = await roundTrips(appUrl, options.chatMessages, cookies);
  const floorServer = await startFloorServer('socket', app.lastAck);
  try {
    const floor = await roundTrips(floorServer.url, options.chatMessages, cookies);
    return {
      messages: options.chatMessages,
      app: { p50: app.p50, p99: app.p99, perSecond: app.perSecond },
      floor: { p50: floor.p50, p99: floor.p99, perSecond: floor.perSecond },
    };
  } finally {
    await floorServer.stop();
  }
}

/**
 * The pids of a process tree: `pid` first, then its descendants (the embedded
 * database runs in a child of the server, decision 054).
 */
export function processTree(pid: number): number[] {
  const pids = [pid];
  for (let i = 0; i < pids.length; i++) {
    try {
      for (const task of readdirSync(`/proc/${pids[i]}/task`)) {
        const children = readFileSync(`/proc/${pids[i]}/task/${task}/children`, 'utf8').trim();
        if (children) pids.push(...children.split(' ').map(Number));
      }
    } catch {
      // the process ended meanwhile
    }
  }
  return pids;
}

/** One Linux process's resident set size now (VmRSS) or its lifetime peak (VmHWM), in bytes. */
export function ownRss(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status);
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/**
 * A process's RSS (or VmHWM) summed with its descendants': the server and its
 * database process count together, so moving memory between them shows no gain.
 * (A sum of VmHWM over-states a peak when the processes peaked at different times.)
 */
export function rss(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number | null {
  const own = ownRss(pid, field);
  if (own === null) return null;
  return processTree(pid)
    .slice(1)
    .reduce((sum, child) => sum + (ownRss(child, field) ?? 0), own);
}

/**
 * The physical memory a process tree holds, each page counted once: the union
 * of the page frames resident in any of its processes (/proc/<pid>/pagemap).
 * Summed RSS counts the pages the server and its database process share (the
 * `node` binary, ~55 MB) twice; a container's memory charge counts them once,
 * and so does this. Null without the right to read page frame numbers (root, or
 * CAP_SYS_ADMIN, is needed: the kernel hides them otherwise).
 */
export function residentOnce(pid: number): number | null {
  const frames = new Set<number>();
  const pageSize = 4096;
  for (const member of processTree(pid)) {
    let maps: string;
    let pagemap: number;
    try {
      maps = readFileSync(`/proc/${member}/maps`, 'utf8');
      pagemap = openSync(`/proc/${member}/pagemap`, 'r');
    } catch {
      continue; // the process ended meanwhile
    }
    try {
      for (const line of maps.split('\n')) {
        const [range, perms] = line.split(' ', 2);
        // A reservation without access (V8's cages, WebAssembly's guard regions) holds no pages.
        if (!range || !perms || perms.startsWith('---')) continue;
        const [start, end] = range.split('-').map((hex) => Number.parseInt(hex, 16)) as [number, number];
        const pages = (end - start) / pageSize;
        const entries = new BigUint64Array(pages);
        let bytes: number;
        try {
          bytes = readSync(pagemap, entries, 0, pages * 8, (start / pageSize) * 8);
        } catch {
          continue; // [vsyscall] cannot be read
        }
        for (let i = 0; i < bytes / 8; i++) {
          const entry = entries[i]!;
          if (!(entry >> 63n)) continue; // not present
          const frame = Number(entry & 0x7f_ffff_ffff_ffffn);
          if (frame === 0) return null; // frame numbers hidden
          frames.add(frame);
        }
      }
    } finally {
      closeSync(pagemap);
    }
  }
  return frames.size ? frames.size * pageSize : null;
}

/** Samples the tree's VmRSS every 100 ms until stopped; resolves the highest value seen. */
export function sampleRss(pid: number): { stop(): number | null } {
  let peak: number | null = rss(pid);
  const timer = setInterval(() => {
    const now = rss(pid);
    if (now !== null && (peak === null || now > peak)) peak = now;
  }, 100);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}
