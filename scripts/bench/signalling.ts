/**
 * Session signalling: the server's CPU per relayed signal, against a bare
 * Socket.IO relay doing nothing but relay (issue 31; docs/decisions/068).
 *
 *   node scripts/bench/signalling.ts [--signals 5000] [--db pglite|postgres]
 *
 * Each server runs in its own child process (this file with `--serve product`
 * or `--serve bare`); this process is the two browsers: it joins both, sends
 * `signals` ICE-candidate-sized signals from the notary's side to the
 * customer's, each acknowledged, and asks the server for its
 * `process.cpuUsage()` before and after. Warm-up signals are not counted.
 * A socket may send 120 events in a burst (then 20 a second): the signals are
 * spread over `signals / 100` rooms, 100 per notary socket, all rooms at once.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { createAdapter } from '@socket.io/postgres-adapter';
import pg from 'pg';
import { Server } from 'socket.io';
import { io, type Socket } from 'socket.io-client';

const { values: args } = parseArgs({
  options: { serve: { type: 'string' }, signals: { type: 'string', default: '5000' }, db: { type: 'string', default: 'pglite' } },
});

interface Pair {
  customer: Record<string, string>;
  notary: Record<string, string>;
  cookie: string | null;
}
interface Ready {
  url: string;
  pairs: Pair[];
}
const perRoom = 100;

const candidate = (i: number) => ({ attempt: 1, candidate: { candidate: `candidate:${i} 1 udp 2122260223 192.0.2.${i % 250} ${50_000 + (i % 10_000)} typ host generation 0`, sdpMid: '0', sdpMLineIndex: 0 } });

/** A relay and nothing else; on PostgreSQL with the same cluster adapter as the product (a broadcast is a NOTIFY). */
async function serveBare(kind: string): Promise<Ready> {
  const server = createServer();
  let adapter: ReturnType<typeof createAdapter> | undefined;
  if (kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test', max: 3 });
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
    socket.on('signal', (payload: Record<string, unknown>, ack?: (r: unknown) => void) => {
      socket.to(room).emit('signal', { ...payload, from: socket.id });
      ack?.({ ok: true });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { url, pairs: Array.from({ length: rooms }, (_, i) => ({ customer: { room: `r${i}` }, notary: { room: `r${i}` }, cookie: null })) };
}

async function serveProduct(kind: 'pglite' | 'postgres'): Promise<Ready> {
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
  return { url: app.url, pairs };
}

const rooms = Math.max(1, Math.round(Number(args.signals) / perRoom));

if (args.serve) {
  const ready = args.serve === 'bare' ? await serveBare(args.db!) : await serveProduct(args.db as 'pglite' | 'postgres');
  process.on('message', (message) => {
    if (message === 'cpu') process.send!({ cpu: process.cpuUsage() });
  });
  process.send!({ ready });
} else {
  const signals = Number(args.signals);
  const results: Record<string, number> = {};
  for (const kind of ['bare', 'product'] as const) {
    const child = fork(new URL(import.meta.url).pathname, ['--serve', kind, '--db', args.db!, '--signals', String(signals)], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    try {
      results[kind] = await measure(child);
    } finally {
      child.kill();
    }
  }
  const ratio = results.product! / results.bare!;
  console.log(JSON.stringify({ db: args.db, signals: rooms * perRoom, rooms, cpuMsPerSignal: { product: +results.product!.toFixed(3), bare: +results.bare!.toFixed(3) }, ratio: +ratio.toFixed(2) }));
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
