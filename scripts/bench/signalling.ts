/**
 * Session signalling: the server's CPU per relayed signal, against a bare
 * Socket.IO relay doing nothing but relay (issue 31; docs/decisions/068).
 * A part of `npm run bench` (`--only signalling`), or on its own:
 *
 *   node scripts/bench/signalling.ts [--signals 3000] [--db pglite|postgres]
 *
 * Each server runs in its own child process (this file with `--serve product`
 * or `--serve bare`, in a process group the bench ends on every path); this
 * process is the two browsers: it joins both, sends `signals`
 * ICE-candidate-sized signals from the notary's side to the customer's, each
 * acknowledged, and asks the server for its `process.cpuUsage()` before and
 * after. Warm-up signals are not counted. A socket may send 120 events in a
 * burst (then 20 a second): the signals are spread over `signals / 100` rooms,
 * 100 per notary socket, all rooms at once. Bare and product alternate, one
 * fresh server each, `runs` times.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createAdapter } from '@socket.io/postgres-adapter';
import pg from 'pg';
import { Server } from 'socket.io';
import { io, type Socket } from 'socket.io-client';
import { spawnTracked, stopTracked } from './processes.ts';

interface Pair {
  customer: Record<string, string>;
  notary: Record<string, string>;
  cookie: string | null;
}
interface Ready {
  url: string;
  pairs: Pair[];
}
/** A server's address and rooms, and how it ends (its test database dropped). */
interface Serving {
  ready: Ready;
  close(): Promise<void>;
}
const perRoom = 100;

const candidate = (i: number) => ({ attempt: 1, candidate: { candidate: `candidate:${i} 1 udp 2122260223 192.0.2.${i % 250} ${50_000 + (i % 10_000)} typ host generation 0`, sdpMid: '0', sdpMLineIndex: 0 } });

/** A relay and nothing else; on PostgreSQL with the same cluster adapter as the product (a broadcast is a NOTIFY). */
async function serveBare(kind: string, rooms: number): Promise<Serving> {
  const server = createServer();
  let adapter: ReturnType<typeof createAdapter> | undefined;
  let pool: pg.Pool | undefined;
  if (kind === 'postgres') {
    pool = new pg.Pool({ connectionString: process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test', max: 3 });
    await pool.query('CREATE TABLE IF NOT EXISTS socket_io_attachments (id bigserial UNIQUE, created_at timestamptz DEFAULT NOW(), payload bytea)');
    adapter = createAdapter(pool);
  }
  const ioServer = new Server(server, { serveClient: false, ...(adapter ? { adapter } : {}) });
  const nsp = ioServer.of('/session');
  nsp.on('connection', (socket) => {
    const room = String((socket.handshake.auth as { room?: string }).room);
    socket.on('join', async (ack: (r: unknown) => void) => {
      await socket.join(room);
      ack({ ok: true });
    });
    // Routed as any good relay routes it: straight to the addressee on this node, through the room (the adapter) otherwise.
    socket.on('signal', (payload: Record<string, unknown>, ack?: (r: unknown) => void) => {
      const target = nsp.sockets.get(String(payload.to));
      if (target) target.emit('signal', { ...payload, from: socket.id });
      else socket.to(room).emit('signal', { ...payload, from: socket.id });
      ack?.({ ok: true });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const pairs = Array.from({ length: rooms }, (_, i) => ({ customer: { room: `r${i}` }, notary: { room: `r${i}` }, cookie: null }));
  return {
    ready: { url, pairs },
    async close() {
      await ioServer.close();
      await pool?.end();
    },
  };
}

async function serveProduct(kind: 'pglite' | 'postgres', rooms: number): Promise<Serving> {
  const { startChatApp } = await import('../../tests/helpers/chat.ts');
  const { createStaffUser } = await import('../../tests/helpers/staff.ts');
  const { identityConfirmed } = await import('../../tests/helpers/identity.ts');
  const { attachSessionRoom } = await import('../../src/server/features/session/socket.ts');
  const { bookings, customers } = await import('../../src/server/db/schema.ts');
  const { hashToken } = await import('../../src/server/tokens.ts');
  const app = await startChatApp(kind);
  attachSessionRoom(app.chat.io, app.deps);
  for (const deadline = Date.now() + 20_000; app.chat.fanOut && app.chat.fanOut.downForMs() > 0 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 200));
  const pairs: Pair[] = [];
  for (let i = 0; i < rooms; i++) {
    const notary = await createStaffUser(app.deps, { role: 'notary' });
    const [customer] = await app.deps.db.insert(customers).values({ firstName: 'Bench', lastName: 'Signer', email: `bench-${randomUUID().slice(0, 6)}@example.com` }).returning();
    const token = randomBytes(32).toString('base64url');
    const [booking] = await app.deps.db
      .insert(bookings)
      .values({ reference: `NOTARY-${randomUUID().slice(0, 8).toUpperCase()}`, status: 'confirmed', startsAt: new Date(Date.now() + 5 * 60_000), priceCents: 2500, customerId: customer!.id, notaryId: notary.id, manageTokenHash: hashToken(token) })
      .returning();
    await identityConfirmed(app.deps, booking!.id, notary.id);
    pairs.push({ customer: { token }, notary: { bookingId: booking!.id }, cookie: await notary.sessionCookie() });
  }
  return { ready: { url: app.url, pairs }, close: () => app.close() };
}

const roomsFor = (signals: number) => Math.max(1, Math.round(signals / perRoom));
const scriptPath = fileURLToPath(import.meta.url);

export interface SignallingRun {
  /** CPU milliseconds of the server per relayed signal. */
  product: number;
  bare: number;
}
export interface SignallingResult {
  database: 'PGlite' | 'PostgreSQL';
  signals: number;
  runs: SignallingRun[];
  loadAverage: number;
}

/** One server (bare or product) in its own process group, measured, then ended. */
async function measureServer(kind: 'bare' | 'product', db: 'pglite' | 'postgres', signals: number, databaseUrl?: string): Promise<number> {
  const child = spawnTracked(process.execPath, [scriptPath, '--serve', kind, '--db', db, '--signals', String(signals)], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: { ...process.env, ...(databaseUrl ? { TEST_DATABASE_URL: databaseUrl } : {}) },
  });
  try {
    return await measure(child);
  } finally {
    // SIGTERM: it drops its database and exits; its group is killed if it has not within 10 s.
    await stopTracked(child, 10_000);
  }
}

/** Bare then product, `runs` times, each a fresh server: CPU per signal of each. */
export async function runSignallingBench(options: { db: 'pglite' | 'postgres'; signals: number; runs: number; databaseUrl?: string; log: (line: string) => void }): Promise<SignallingResult> {
  const runs: SignallingRun[] = [];
  for (let i = 0; i < options.runs; i++) {
    options.log(`signalling (${options.db}) run ${i + 1}/${options.runs}`);
    const bare = await measureServer('bare', options.db, options.signals, options.databaseUrl);
    const product = await measureServer('product', options.db, options.signals, options.databaseUrl);
    runs.push({ bare, product });
  }
  return { database: options.db === 'postgres' ? 'PostgreSQL' : 'PGlite', signals: roomsFor(options.signals) * perRoom, runs, loadAverage: loadavg()[0]! };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The median run's ratio (product ÷ bare, per run) and the spread. */
export function signallingRatio(result: SignallingResult): { min: number; median: number; max: number } {
  const ratios = result.runs.map((run) => run.product / run.bare).sort((a, b) => a - b);
  return { min: ratios[0]!, median: median(ratios), max: ratios.at(-1)! };
}

export function signallingMarkdown(results: SignallingResult[]): string {
  const fmt = (v: number) => v.toFixed(3);
  return [
    '## Session signalling: CPU per relayed signal (issue 31)',
    '',
    `Part of \`npm run bench\` (\`scripts/bench/signalling.ts\`, decision 068). Each server in its own process, the bench as both browsers: ${results[0]?.signals ?? 0} ICE-candidate-sized signals over ${roomsFor(results[0]?.signals ?? 0)} rooms (100 per notary socket, 10 in flight per socket), every one acknowledged and every acknowledged one delivered (the run fails otherwise); the server's \`process.cpuUsage()\` before and after, divided by the signals, warm-up not counted. **Floor**: a bare Socket.IO relay (join a room; relay straight to the addressee when it is on the same node, as the product does, through the room otherwise; acknowledge) — on PostgreSQL with the same \`@socket.io/postgres-adapter\`, which a relay through the room turns into a \`pg_notify\`. Bare and product alternate, a fresh server each, ${results[0]?.runs.length ?? 0} time${results[0]?.runs.length === 1 ? '' : 's'}; **ratio** = product ÷ bare per run (min / **median** / max). Goal ≤ 2 ×.`,
    '',
    '| Database | Product, CPU per signal (runs) | Bare relay (runs) | Ratio | Goal | Load average (1 min) at the end |',
    '|---|---|---|---|---|---|',
    ...results.map((r) => {
      const ratio = signallingRatio(r);
      return `| ${r.database} | ${r.runs.map((run) => fmt(run.product)).join(' / ')} ms | ${r.runs.map((run) => fmt(run.bare)).join(' / ')} ms | ${ratio.min.toFixed(2)} / **${ratio.median.toFixed(2)}** / ${ratio.max.toFixed(2)} × | ≤ 2 × ${ratio.median <= 2 ? 'met' : '**not met**'} | ${r.loadAverage.toFixed(1)} |`;
    }),
  ].join('\n');
}

if (process.argv[1] === scriptPath) {
  const { values: args } = parseArgs({
    options: { serve: { type: 'string' }, signals: { type: 'string', default: '3000' }, db: { type: 'string', default: 'pglite' }, runs: { type: 'string', default: '1' } },
  });
  const db = args.db as 'pglite' | 'postgres';
  if (args.serve) {
    const rooms = roomsFor(Number(args.signals));
    const serving = args.serve === 'bare' ? await serveBare(db, rooms) : await serveProduct(db, rooms);
    process.on('message', (message) => {
      if (message === 'cpu') process.send!({ cpu: process.cpuUsage() });
    });
    // Ended by the bench (`stopTracked`): its test database is dropped before the process goes.
    process.once('SIGTERM', () => void serving.close().finally(() => process.exit(0)));
    process.send!({ ready: serving.ready });
  } else {
    const databaseUrl = db === 'postgres' ? (process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test') : undefined;
    const result = await runSignallingBench({ db, signals: Number(args.signals), runs: Number(args.runs), databaseUrl, log: (line) => process.stderr.write(`${line}\n`) });
    console.log(JSON.stringify({ ...result, ratio: signallingRatio(result) }));
    process.exit(0);
  }
}

function nextMessage<T>(child: ChildProcess, key: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: Record<string, unknown>) => {
      if (!(key in message)) return;
      child.off('message', onMessage);
      resolve(message[key] as T);
    };
    child.on('message', onMessage);
    child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
  });
}

async function measure(child: ChildProcess): Promise<number> {
  const ready = await nextMessage<Ready>(child, 'ready');
  const connect = (auth: Record<string, string>, cookie: string | null) =>
    io(`${ready.url}/session`, { transports: ['websocket'], forceNew: true, reconnection: false, auth, extraHeaders: cookie ? { cookie } : {} });
  const join = (socket: Socket) => new Promise((resolve) => socket.emit('join', resolve));
  let received = 0;
  const pairs: { customer: Socket; notary: Socket }[] = [];
  for (const pair of ready.pairs) {
    const customer = connect(pair.customer, null);
    const notary = connect(pair.notary, pair.cookie);
    await join(customer);
    await join(notary);
    customer.on('signal', () => received++);
    pairs.push({ customer, notary });
  }
  /** `count` signals on every pair, 10 in flight per pair, each acknowledged. */
  const send = async (count: number, offset: number) => {
    await Promise.all(
      pairs.map(async ({ customer, notary }) => {
        let next = 0;
        const lane = async () => {
          while (next < count) {
            const i = offset + next++;
            const answer = await new Promise<{ ok: boolean }>((resolve) => notary.emit('signal', { to: customer.id, ...candidate(i) }, resolve));
            if (!answer.ok) throw new Error(`signal refused: ${JSON.stringify(answer)}`);
          }
        };
        await Promise.all(Array.from({ length: 10 }, lane));
      }),
    );
  };
  // Warm-up (JIT, first queries): 10 per pair, then the budget refills.
  await send(10, 0);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  child.send('cpu');
  const before = await nextMessage<NodeJS.CpuUsage>(child, 'cpu');
  received = 0;
  const total = pairs.length * perRoom;
  await send(perRoom, 10);
  // Every acknowledged signal arrives.
  for (const deadline = Date.now() + 10_000; received < total && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
  child.send('cpu');
  const after = await nextMessage<NodeJS.CpuUsage>(child, 'cpu');
  for (const { customer, notary } of pairs) {
    customer.disconnect();
    notary.disconnect();
  }
  if (received < total) throw new Error(`${total - received} of ${total} acknowledged signals were not delivered`);
  return (after.user - before.user + (after.system - before.system)) / 1000 / total;
}
