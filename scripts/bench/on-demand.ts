/**
 * The on-demand line under load (issue 28, decision 110): customers waiting
 * in line and polling their lobby, notaries accepting, on two server processes
 * over one PostgreSQL database — one of them killed (SIGKILL) in the middle of
 * the accepts. Checks that every customer is served exactly once and none is
 * lost, and measures Accept → both in the room (p50 / p99) and lobby updates
 * per second, each beside its floor: the same queue statements as bare SQL
 * (`pg`, no server) at the same concurrency.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../src/server/config.ts';
import { openPostgres } from '../../src/server/db/client.ts';
import { buildDeps } from '../../src/server/deps.ts';
import { createLogger } from '../../src/server/logger.ts';
import { hashToken } from '../../src/server/tokens.ts';
import { createStaffUser } from '../../tests/helpers/staff.ts';
import { startBenchServer, type BenchServer } from './server.ts';

export interface OnDemandResult {
  customers: number;
  notaries: number;
  served: number;
  /** Bookings accepted more than once (must be 0). */
  doubled: number;
  /** Customers still in line at the end (must be 0). */
  lost: number;
  /** Accepts answered by the killed node before it died / calls that failed because it died. */
  killedAfterServed: number;
  failedCalls: number;
  acceptToRoomMs: number[];
  floorAcceptMs: number[];
  /** Lobby calls per second at full speed (20 at a time), and its floor. */
  lobbyPerSecond: number;
  floorLobbyPerSecond: number;
  /** What the customers' once-a-second polls asked for during the accepts. */
  lobbyDuringAccepts: number;
  /** Lobby polls that failed on both nodes (the customer's page polls again). */
  lobbyErrors: number;
  seconds: number;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? NaN;
};

interface Seeded {
  bookingIds: string[];
  tokens: string[];
  cookies: string[];
}

/** Notaries on duty (with signed-in cookies) and paid on-demand bookings in line, oldest first. */
async function seed(url: string, customers: number, notaries: number): Promise<Seeded> {
  const database = await openPostgres(url);
  const deps = await buildDeps(loadConfig({ NODE_ENV: 'test', DATABASE_URL: url, LOG_LEVEL: 'silent' }), database, createLogger('silent'));
  try {
    const cookies: string[] = [];
    for (let i = 0; i < notaries; i++) {
      const user = await createStaffUser(deps, { role: 'notary', name: `Bench notary ${i}` });
      await database.queryPool.query(`insert into notary_availability (staff_id, weekly, on_duty) values ($1, '[]', true)`, [user.id]);
      cookies.push(await user.sessionCookie());
    }
    const { bookingIds, tokens } = await seedLine(database.queryPool, customers, 'B');
    return { bookingIds, tokens, cookies };
  } finally {
    await database.close();
  }
}

async function seedLine(pool: pg.Pool, customers: number, tag: string): Promise<{ bookingIds: string[]; tokens: string[] }> {
  const bookingIds: string[] = [];
  const tokens: string[] = [];
  const base = Date.now() - customers * 10;
  for (let i = 0; i < customers; i++) {
    const token = randomBytes(32).toString('base64url');
    const { rows } = await pool.query<{ id: string }>(
      `with c as (insert into customers (first_name, last_name, email, phone) values ('Bench', $1, $2, '(555) 010-2030') returning id)
       insert into bookings (reference, status, kind, time_zone, price_cents, customer_id, manage_token_hash, confirmed_at)
       select $3, 'confirmed', 'on_demand', 'America/Chicago', 2500, c.id, $4, now() from c returning id`,
      [`${tag}${i}`, `bench-${tag}-${i}@example.com`, `NOTARY-${tag}${randomUUID().slice(0, 7).toUpperCase()}`, hashToken(token)],
    );
    const joined = new Date(base + i * 10);
    await pool.query(`insert into on_demand_queue (booking_id, first_joined_at, joined_at, customer_seen_at) values ($1, $2, $2, now())`, [rows[0]!.id, joined]);
    bookingIds.push(rows[0]!.id);
    tokens.push(token);
  }
  return { bookingIds, tokens };
}

class HttpError extends Error {}

async function trpc(base: string, pathName: string, type: 'query' | 'mutation', input: unknown, headers: Record<string, string>) {
  const payload = input === undefined ? {} : { json: input };
  const res =
    type === 'query'
      ? await fetch(`${base}/trpc/${pathName}?input=${encodeURIComponent(JSON.stringify(payload))}`, { headers, signal: AbortSignal.timeout(30_000) })
      : await fetch(`${base}/trpc/${pathName}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(payload), signal: AbortSignal.timeout(30_000) });
  const body = (await res.json()) as { result?: { data: { json: unknown } }; error?: { json: { message: string } } };
  if (!res.ok) throw new HttpError(`${pathName}: ${res.status} ${body.error?.json.message ?? ''}`);
  return body.result!.data.json;
}

/** Every figure of one run, on a fresh PostgreSQL database at `url`. */
export async function runOnDemandBench(url: string, options: { customers: number; notaries: number; log: (line: string) => void }): Promise<OnDemandResult> {
  const { customers, notaries, log } = options;
  const dirs = [mkdtempSync(path.join(os.tmpdir(), 'notary-bench-od-a-')), mkdtempSync(path.join(os.tmpdir(), 'notary-bench-od-b-'))];
  // Node A migrates; then the line is seeded; node B starts on the same database.
  const nodeA = await startBenchServer({ DATABASE_URL: url }, dirs[0]!);
  let nodeB: BenchServer | null = null;
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  try {
    log(`on-demand: seeding ${customers} customers, ${notaries} notaries`);
    const seeded = await seed(url, customers, notaries);
    nodeB = await startBenchServer({ DATABASE_URL: url }, dirs[1]!);
    const nodes = [nodeA.url, nodeB.url];
    let bDead = false;
    const nodeFor = (i: number) => (bDead ? nodes[0]! : nodes[i % 2]!);
    let failedCalls = 0;
    /**
     * A call that does not get an answer (the killed node, a kept-alive socket the server just
     * closed) is sent again, to the survivor once B is dead, as a load balancer would: every call
     * here is safe to repeat (Accept gives a notary's open call back). An HTTP error is not retried.
     */
    const call = async (i: number, pathName: string, type: 'query' | 'mutation', input: unknown, headers: Record<string, string>) => {
      for (let attempt = 0; ; attempt++) {
        const node = nodeFor(i);
        try {
          return await trpc(node, pathName, type, input, headers);
        } catch (error) {
          if (error instanceof HttpError || attempt >= 4) throw error;
          failedCalls++;
        }
      }
    };

    const started = performance.now();
    let done = false;
    let lobbyCalls = 0;
    let lobbyErrors = 0;
    const tokenOf = new Map(seeded.bookingIds.map((id, i) => [id, seeded.tokens[i]!]));
    // Customers: each polls their lobby (the heartbeat, the position) until accepted.
    const lobbies = seeded.tokens.map(async (token, i) => {
      const headers = { 'x-forwarded-for': `10.1.${Math.floor(i / 250)}.${i % 250}` };
      while (!done) {
        // A browser keeps polling through a failed call (the node it reached died, a timeout).
        const view = (await call(i, 'onDemand.lobby', 'mutation', { token }, headers).catch(() => {
          lobbyErrors++;
          return { state: 'error' };
        })) as { state: string };
        lobbyCalls++;
        if (view.state === 'accepted') return;
        await new Promise((r) => setTimeout(r, 1_000));
      }
    });
    // Notaries: Accept, then both sides read the room until it is open, then the session ends (the bench closes it in SQL).
    const acceptToRoomMs: number[] = [];
    const acceptedBy = new Map<string, number>();
    let killedAfterServed = 0;
    const notaryLoops = seeded.cookies.map(async (cookie, j) => {
      const headers = { cookie, 'x-forwarded-for': `10.2.0.${j}` };
      while (true) {
        const t0 = performance.now();
        const { bookingId } = (await call(j, 'console.onDemand.accept', 'mutation', undefined, headers)) as { bookingId: string | null };
        if (!bookingId) {
          // Nobody in line this instant: done when nobody is left waiting at all (a customer whose poll
          // is late is passed over until it comes in), else ask again.
          const { rows } = await pool.query<{ n: number }>(`select count(*)::int as n from on_demand_queue where status in ('waiting', 'away')`);
          if (rows[0]!.n === 0 || performance.now() - started > 600_000) return;
          await new Promise((r) => setTimeout(r, 250));
          continue;
        }
        acceptedBy.set(bookingId, (acceptedBy.get(bookingId) ?? 0) + 1);
        const token = tokenOf.get(bookingId)!;
        const open = async (k: number, input: unknown, h: Record<string, string>) => {
          while (!((await call(k, 'session.get', 'query', input, h)) as { open: boolean }).open) await new Promise((r) => setTimeout(r, 20));
        };
        await Promise.all([open(j, { bookingId }, headers), open(j + 1, { token }, { 'x-forwarded-for': `10.3.${j}.1` })]);
        acceptToRoomMs.push(performance.now() - t0);
        await pool.query(`update bookings set status = 'completed' where id = $1`, [bookingId]);
      }
    });
    // Half-way through the accepts, node B is killed (SIGKILL: no graceful shutdown, accepts in flight die with it).
    const killer = (async () => {
      while (acceptToRoomMs.length < customers / 2) await new Promise((r) => setTimeout(r, 5));
      killedAfterServed = acceptToRoomMs.length;
      bDead = true;
      process.kill(-nodeB!.pid, 'SIGKILL');
      log(`on-demand: node B killed after ${killedAfterServed} served`);
    })();
    await Promise.all(notaryLoops);
    done = true;
    await Promise.all([...lobbies, killer]).catch(() => undefined);
    const seconds = (performance.now() - started) / 1000;

    const { rows: [check] } = await pool.query<{ served: string; lost: string; doubled: string }>(
      `select (select count(*) from on_demand_queue where status = 'accepted') as served,
              (select count(*) from on_demand_queue where status in ('waiting', 'away')) as lost,
              (select count(*) from (select entity_id from audit_log where action = 'on_demand.accepted' group by entity_id having count(*) > 1) d) as doubled`,
    );
    const doubledByClient = [...acceptedBy.values()].filter((n) => n > 1).length;

    // Lobby updates at full speed, app then floor: a fresh line of waiting customers, every call
    // one customer's poll (round robin), 20 at a time, on the surviving node; then the same
    // statements as bare SQL at the same concurrency.
    const floorLine = await seedLine(pool, customers, 'F');
    const lobbyCallsAtSpeed = customers * 5;
    const atSpeed = async (work: (i: number) => Promise<unknown>) => {
      let next = 0;
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: 20 }, async () => {
          while (next < lobbyCallsAtSpeed) await work(next++);
        }),
      );
      return lobbyCallsAtSpeed / ((performance.now() - t0) / 1000);
    };
    const lobbyPerSecond = await atSpeed((i) =>
      trpc(nodes[0]!, 'onDemand.lobby', 'mutation', { token: floorLine.tokens[i % customers] }, { 'x-forwarded-for': `10.4.${Math.floor((i % customers) / 250)}.${i % 250}` }),
    );
    const floorLobbyPerSecond = await atSpeed(async (i) => {
      const id = floorLine.bookingIds[i % customers]!;
      await pool.query(`update on_demand_queue set customer_seen_at = now() where booking_id = $1 and status in ('waiting', 'away')`, [id]);
      const entry = (await pool.query<{ joined_at: Date }>(`select * from on_demand_queue where booking_id = $1`, [id])).rows[0]!;
      await pool.query(
        `select count(*)::int from on_demand_queue q where q.status = 'waiting' and q.customer_seen_at >= now() - interval '2 minutes'
           and exists (select 1 from bookings b where b.id = q.booking_id and b.status = 'confirmed')
           and (q.front_at is not null or (q.joined_at, q.booking_id) < ($1, $2::uuid))`,
        [entry.joined_at, id],
      );
      await pool.query(`select avg(w)::float8 from (select extract(epoch from (accepted_at - joined_at)) * 1000 as w from on_demand_queue where accepted_at >= now() - interval '1 day' order by accepted_at desc limit 20) r`);
      await pool.query(`select n.staff_id from notary_availability n join staff_users s on s.id = n.staff_id where n.on_duty and s.active and s.role = 'notary'`);
    });

    // Accept's floor: the claim transaction and one read per side, by as many bare workers as notaries, over the same line.
    const floorNotary = (await pool.query<{ id: string }>(`select staff_id as id from notary_availability limit 1`)).rows[0]!.id;
    const floorAcceptMs: number[] = [];
    await Promise.all(
      Array.from({ length: notaries }, async () => {
        while (true) {
          const t0 = performance.now();
          const client = await pool.connect();
          let bookingId: string | undefined;
          try {
            await client.query('begin');
            bookingId = (
              await client.query<{ booking_id: string }>(
                `select q.booking_id from on_demand_queue q where q.status = 'waiting' and q.customer_seen_at >= now() - interval '2 minutes'
                   and exists (select 1 from bookings b where b.id = q.booking_id and b.status = 'confirmed')
                 order by q.front_at asc nulls last, q.joined_at, q.booking_id limit 1 for update skip locked`,
              )
            ).rows[0]?.booking_id;
            if (bookingId) {
              await client.query(`update on_demand_queue set status = 'accepted', notary_id = $2, accepted_at = now(), notary_seen_at = now() where booking_id = $1`, [bookingId, floorNotary]);
              await client.query(`update bookings set notary_id = $2, starts_at = now(), notary_assigned_at = now() where id = $1`, [bookingId, floorNotary]);
            }
            await client.query('commit');
          } finally {
            client.release();
          }
          if (!bookingId) return;
          // Both sides read the booking once (the room's open check).
          await Promise.all([pool.query(`select status, starts_at from bookings where id = $1`, [bookingId]), pool.query(`select status, starts_at from bookings where id = $1`, [bookingId])]);
          floorAcceptMs.push(performance.now() - t0);
        }
      }),
    );

    return {
      customers,
      notaries,
      served: Number(check!.served),
      doubled: Math.max(Number(check!.doubled), doubledByClient),
      lost: Number(check!.lost),
      killedAfterServed,
      failedCalls,
      acceptToRoomMs,
      floorAcceptMs,
      lobbyPerSecond,
      floorLobbyPerSecond,
      lobbyDuringAccepts: lobbyCalls / seconds,
      lobbyErrors,
      seconds,
    };
  } finally {
    await pool.end();
    await nodeB?.stop().catch(() => undefined);
    await nodeA.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

export function onDemandMarkdown(r: OnDemandResult): string {
  const ms = (v: number) => (v < 10 ? v.toFixed(1) : v.toFixed(0));
  const p = (values: number[], q: number) => ms(percentile(values, q));
  return [
    '## Notarize now: the on-demand line on two nodes',
    '',
    `${r.customers} customers in line, each polling their lobby (\`onDemand.lobby\`: heartbeat, place, estimate) every second; ${r.notaries} notaries each accepting (\`console.onDemand.accept\`), then reading the room (\`session.get\`) as notary and as customer until it is open, then closing the session; calls spread over **two server processes on one PostgreSQL database**, the second **killed with SIGKILL** after ${r.killedAfterServed} customers were served (its calls then go to the first, as a load balancer would). Accept → both in the room is measured from the notary's Accept to both sides reading an open room. **Floor**: the same queue statements as bare SQL (\`pg\`, pool of 10, no server): the claim transaction (\`FOR UPDATE SKIP LOCKED\`, the two updates) plus one read per side, and the lobby's five statements (\`scripts/bench/on-demand.ts\`).`,
    '',
    '| Check | Result |',
    '|---|---|',
    `| Customers served | ${r.served} of ${r.customers} |`,
    `| Served twice | ${r.doubled} |`,
    `| Lost (still in line) | ${r.lost} |`,
    `| Calls without an answer, sent again (the killed node's, closed sockets) | ${r.failedCalls} |`,
    `| Lobby polls failed on both nodes (polled again) | ${r.lobbyErrors} |`,
    '',
    '| Figure | App | Floor | App ÷ floor |',
    '|---|---|---|---|',
    `| Accept → both in the room, p50 | ${p(r.acceptToRoomMs, 0.5)} ms | ${p(r.floorAcceptMs, 0.5)} ms | ${(percentile(r.acceptToRoomMs, 0.5) / percentile(r.floorAcceptMs, 0.5)).toFixed(1)} |`,
    `| Accept → both in the room, p99 | ${p(r.acceptToRoomMs, 0.99)} ms | ${p(r.floorAcceptMs, 0.99)} ms | ${(percentile(r.acceptToRoomMs, 0.99) / percentile(r.floorAcceptMs, 0.99)).toFixed(1)} |`,
    `| Lobby updates per second (20 at a time, one node) | ${Math.round(r.lobbyPerSecond)} | ${Math.round(r.floorLobbyPerSecond)} | ${(r.lobbyPerSecond / r.floorLobbyPerSecond).toFixed(2)} |`,
    '',
    `During the accepts (${r.seconds.toFixed(1)} s) the customers' once-a-second polls came to ${Math.round(r.lobbyDuringAccepts)} lobby updates per second over both nodes. The full-speed lobby figures are measured afterwards on a fresh line of ${r.customers} waiting customers, on the surviving node: ${r.customers * 5} polls, round robin.`,
  ].join('\n');
}
