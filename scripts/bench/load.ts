import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import autocannon, { type RawRequest, type Result } from 'autocannon';
import { io, type Socket } from 'socket.io-client';
import superjson from 'superjson';
import { startHttpBaseline, startSocketBaseline, type CapturedResponse } from './baseline.ts';

export interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

export interface EndpointResult {
  name: string;
  detail: string;
  app: Figures;
  baseline: Figures;
}

export interface LoadOptions {
  connections: number;
  durationSeconds: number;
  chatMessages: number;
  log: (line: string) => void;
}

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

const trpcInput = (input: unknown) => encodeURIComponent(JSON.stringify(superjson.serialize(input)));

function figures(result: Result): Figures {
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.timeouts + result.non2xx };
}

async function capture(url: string, request: RawRequest): Promise<CapturedResponse> {
  const res = await fetch(`${url}${request.path}`, {
    method: request.method ?? 'GET',
    headers: { ...request.headers, 'x-forwarded-for': nextAddress() },
    body: request.body as string | undefined,
  });
  const body = Buffer.from(await res.arrayBuffer());
  if (!res.ok) throw new Error(`${request.method ?? 'GET'} ${request.path} answered ${res.status}: ${body.toString().slice(0, 300)}`);
  return { status: res.status, contentType: res.headers.get('content-type') ?? 'application/octet-stream', body };
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

/** One endpoint: the app under autocannon, then a bare node:http server with the same answer. */
async function measure(
  appUrl: string,
  name: string,
  detail: string,
  options: LoadOptions,
  setup: () => RawRequest,
): Promise<EndpointResult> {
  options.log(`load: ${name}`);
  const captured = await capture(appUrl, setup());
  const app = await cannon(appUrl, options.connections, options.durationSeconds, setup);
  const baselineServer = await startHttpBaseline(captured);
  try {
    const baseline = await cannon(baselineServer.url, options.connections, options.durationSeconds, setup);
    return { name, detail, app: figures(app), baseline: figures(baseline) };
  } finally {
    await baselineServer.close();
  }
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
  return superjson.deserialize(json.result.data as never) as T;
}

async function trpcMutation<T>(url: string, procedure: string, input: unknown): Promise<T> {
  const res = await fetch(`${url}/trpc/${procedure}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': nextAddress() },
    body: JSON.stringify(superjson.serialize(input)),
  });
  const json = (await res.json()) as { result?: { data: unknown }; error?: unknown };
  if (!json.result) throw new Error(`${procedure} failed: ${JSON.stringify(json.error)}`);
  return superjson.deserialize(json.result.data as never) as T;
}

export async function runHttpLoad(appUrl: string, options: LoadOptions): Promise<EndpointResult[]> {
  const results: EndpointResult[] = [];
  const timeZone = 'America/Chicago';

  results.push(await measure(appUrl, 'Public page', '`GET /` (server-rendered home page)', options, () => ({ method: 'GET', path: '/' })));

  const date = chicagoDate(2);
  const slotsPath = `/trpc/slots.list?input=${trpcInput({ date, timeZone })}`;
  results.push(await measure(appUrl, 'Slot query', '`slots.list` for one day', options, () => ({ method: 'GET', path: slotsPath })));

  // Holds: 200 draft bookings, each request moving one of them to one of the
  // open slots of the next week (BOOKING_SLOT_CAPACITY is raised for the run so
  // the bench measures the hold, not CONFLICT answers).
  const bookings: string[] = [];
  for (let i = 0; i < 200; i++) bookings.push((await trpcMutation<{ bookingId: string }>(appUrl, 'booking.start', { timeZone })).bookingId);
  const slots: Date[] = [];
  for (let day = 2; day <= 8; day++) {
    const list = await trpcQuery<{ slots: Array<{ startsAt: Date; available: boolean }> }>(appUrl, 'slots.list', { date: chicagoDate(day), timeZone });
    slots.push(...list.slots.filter((s) => s.available).map((s) => s.startsAt));
  }
  if (slots.length === 0) throw new Error('no open slots to hold');
  let n = 0;
  results.push(
    await measure(appUrl, 'Hold creation', '`booking.hold` (moves one of 200 drafts to one of the week\'s slots)', options, () => {
      n++;
      const input = { bookingId: bookings[n % bookings.length]!, startsAt: slots[(n * 7) % slots.length]!, timeZone };
      return { method: 'POST', path: '/trpc/booking.hold', headers: { 'content-type': 'application/json' }, body: JSON.stringify(superjson.serialize(input)) };
    }),
  );
  return results;
}

export interface ChatResult {
  messages: number;
  app: { p50: number; p99: number; perSecond: number };
  baseline: { p50: number; p99: number; perSecond: number };
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

/** Visitor message → stored, broadcast to staff through the adapter → acknowledged. */
export async function runChatLoad(appUrl: string, options: LoadOptions): Promise<ChatResult> {
  options.log('load: chat round trip');
  // The chat allows 20 messages a minute per conversation: 15 per visitor keeps clear of it.
  const visitors = Math.ceil(options.chatMessages / 15);
  const cookies: string[] = [];
  for (let i = 0; i < visitors; i++) cookies.push(await visitorCookie(appUrl));
  const app = await roundTrips(appUrl, options.chatMessages, cookies);
  const baselineServer = await startSocketBaseline(app.lastAck);
  try {
    const baseline = await roundTrips(baselineServer.url, options.chatMessages, cookies);
    return {
      messages: options.chatMessages,
      app: { p50: app.p50, p99: app.p99, perSecond: app.perSecond },
      baseline: { p50: baseline.p50, p99: baseline.p99, perSecond: baseline.perSecond },
    };
  } finally {
    await baselineServer.close();
  }
}

/** A Linux process's resident set size now (VmRSS) or its lifetime peak (VmHWM), in bytes. */
export function rss(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status);
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Samples VmRSS every 100 ms until stopped; resolves the highest value seen. */
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
