/**
 * How costs grow with a business's data (issue 31): each case measured at
 * several data sizes, each size against its floor in the same run.
 *
 * In process, against a fresh database seeded directly with SQL (no server,
 * no HTTP: what is measured is the service call — its queries and its own
 * work — and what grows with the data). Each measurement alternates one app
 * call and one floor call, `iterations` times after a warm-up, and reports the
 * medians, so both see the same moment of a shared machine.
 *
 * One case is one `GrowthCase` (a name, its sizes, a `prepare` that grows the
 * data to a size, and the app and floor calls): add a case by adding one.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../src/server/config.ts';
import { openPglite, openPostgres, type Database } from '../../src/server/db/client.ts';
import { buildDeps, type Deps } from '../../src/server/deps.ts';
import { createLogger } from '../../src/server/logger.ts';
import * as chat from '../../src/server/features/chat/service.ts';
import * as consoleService from '../../src/server/features/console/service.ts';
import { holdSlot, startBooking } from '../../src/server/features/booking/service.ts';
import { listSlots, slotsChanged } from '../../src/server/features/booking/slots.ts';
import type { StaffIdentity } from '../../src/server/features/staff/session.ts';
import { hashToken } from '../../src/server/tokens.ts';

/** The messages of the conversation a chat message is compared with at every size (decision 140). */
export const shortConversationLength = 100;

export interface GrowthRow {
  case: string;
  /** What the size counts ("bookings", "messages in the conversation"). */
  unit: string;
  size: number;
  appMs: number;
  floorMs: number;
  floor: string;
  /** A second floor beside the first (a search: its own best bare statement, decision 131). */
  secondFloorMs?: number;
  secondFloor?: string;
}

interface Context {
  deps: Deps;
  /** A bare statement on the database (the floors): node-postgres, no Drizzle, no service. */
  sql: (text: string, values?: unknown[]) => Promise<pg.QueryResult>;
  staff: StaffIdentity;
}

interface GrowthCase {
  name: string;
  unit: string;
  /** What the floor is, for the report. */
  floor: string;
  sizes: (quick: boolean) => number[];
  /** Grows the data to `size` (sizes come in increasing order). */
  prepare(ctx: Context, size: number): Promise<void>;
  /** What the second floor is, when there is one. */
  secondFloor?: string;
  /** Called before each size's measurements; returns the app and floor calls (and the second floor's). */
  calls(ctx: Context, size: number): Promise<{ app: () => Promise<unknown>; floor: () => Promise<unknown>; secondFloor?: () => Promise<unknown> }>;
}

const timeZone = 'America/Chicago';

// ---------------------------------------------------------------- seeding

/** Bookings numbered [from, to): a tenth undated drafts, a tenth cancelled, a fifth upcoming, the rest completed. */
/**
 * Rows [from, to) seeded 1,000 at a time: each statement stays well inside the
 * database's statement timeout (DATABASE_TIMEOUT_SECONDS) on a loaded machine.
 */
async function inChunks(from: number, to: number, seed: (from: number, to: number) => Promise<unknown>): Promise<void> {
  for (let start = from; start < to; start += 1_000) await seed(start, Math.min(to, start + 1_000));
}

export async function seedBookings(ctx: Context, from: number, to: number): Promise<void> {
  await inChunks(from, to, (start, end) => seedBookingChunk(ctx, start, end));
  await ctx.sql('analyze customers; analyze bookings');
}

async function seedBookingChunk(ctx: Context, from: number, to: number): Promise<void> {
  await ctx.sql(
    `with c as (
       insert into customers (first_name, last_name, email)
       select (array['Ada','Grace','Alan','Edsger','Barbara','Donald','Frances','John','Margaret','Ken'])[1 + n % 10],
              (array['Lovelace','Hopper','Turing','Dijkstra','Liskov','Knuth','Allen','Backus','Hamilton','Thompson',
                     'Ritchie','Kernighan','Lamport','Wirth','Hoare','Milner','Cerf','Kahn','Berners','Torvalds'])[1 + (n / 10) % 20] || (n / 200)::text,
              'customer' || n || '@example.com'
       from generate_series($1::int, $2::int - 1) n
       returning id, email)
     insert into bookings (reference, status, starts_at, time_zone, price_cents, customer_id, created_at)
     select 'NOTARY-' || upper(substr(md5(k::text), 1, 2)) || lpad(k::text, 6, '0'),
            case when k % 10 = 0 then 'draft' when k % 10 = 1 then 'cancelled' when k % 10 in (2, 3) then 'confirmed' else 'completed' end,
            case when k % 10 = 0 then null
                 when k % 10 in (2, 3) then date_trunc('hour', now()) + interval '2 days' + ((k * 7919) % (300 * 48)) * interval '30 minutes'
                 else date_trunc('hour', now()) - (1 + (k * 7919) % (3 * 365 * 48)) * interval '30 minutes' end,
            '${timeZone}', 2500, c.id,
            now() - ((k::bigint * 104729) % (3 * 365 * 24 * 60)) * interval '1 minute'
     from (select id, substring(email from 'customer([0-9]+)@')::int as k from c) c`,
    [from, to],
  );
}

let bookingsSeeded = 0;
async function growBookings(ctx: Context, size: number): Promise<void> {
  await seedBookings(ctx, bookingsSeeded, size);
  bookingsSeeded = Math.max(bookingsSeeded, size);
}

/** The floor of a console list: the same page of rows, fetched by primary key (same columns, joins and document count). */
function rowsByIdFloor(ctx: Context, ids: () => string[]) {
  return () =>
    ctx.sql(
      `select b.id, b.reference, b.status, b.starts_at, b.time_zone, b.notary_id, c.first_name, c.last_name, c.email, c.phone, s.name, s.email,
              (select count(*)::int from documents d where d.booking_id = b.id and d.status = 'stored')
       from bookings b left join customers c on c.id = b.customer_id left join staff_users s on s.id = b.notary_id
       where b.id = any($1::uuid[])`,
      [ids()],
    );
}

/** A console bookings list call whose floor is its own page's rows by primary key. */
function bookingListCase(name: string, input: () => Parameters<typeof consoleService.listBookings>[2], search?: SearchFloor): GrowthCase {
  return {
    name,
    unit: 'bookings',
    floor: 'the same page of rows by primary key',
    ...(search ? { secondFloor: search.describe } : {}),
    sizes: (quick) => (quick ? [1_000, 10_000] : [1_000, 10_000, 100_000]),
    prepare: growBookings,
    async calls(ctx) {
      let ids: string[] = [];
      const app = async () => {
        const page = await consoleService.listBookings(ctx.deps, ctx.staff, input());
        ids = page.items.map((b) => b.id);
        return page;
      };
      await app();
      if (ids.length === 0) throw new Error(`${name}: the page is empty`);
      if (!search) return { app, floor: rowsByIdFloor(ctx, () => ids) };
      const q = input().q!;
      const secondFloor = () => ctx.sql(search.statement, [q, new Date().toISOString(), ...(search.extra?.(q) ?? [])]);
      const { rows } = await secondFloor();
      // Like the app, it reads one row more than the page (whether another page follows).
      if (rows.slice(0, ids.length).map((r: { id: string }) => r.id).join() !== ids.join()) throw new Error(`${name}: the second floor finds another page`);
      return { app, floor: rowsByIdFloor(ctx, () => ids), secondFloor };
    },
  };
}

/**
 * A search's second floor (decision 131): the best bare statement known for
 * that search on the same indexes, its kind chosen in advance (no estimate),
 * one statement, the same page in the same order. The floor (the page
 * by primary key) starts from the ids a search has to find.
 */
interface SearchFloor {
  describe: string;
  /** $1 the search, $2 now, then `extra`'s values. */
  statement: string;
  extra?: (q: string) => string[];
}

const pageColumns = `b.id, b.reference, b.status, b.starts_at, b.time_zone, b.notary_id, c.first_name, c.last_name, c.email, c.phone, s.name, s.email,
  (select count(*)::int from documents d where d.booking_id = b.id and d.status = 'stored')`;
const pageJoins = 'from bookings b left join customers c on c.id = b.customer_id left join staff_users s on s.id = b.notary_id';
/** The search text's pattern (decision 135: `bookings.search_text` is lowercased). */
const likeSearch = `'%' || lower($1) || '%'`;

/** Broad: each run's index walked in its order, the match a filter; `union all` under one limit stops at the page. */
const walkFloor: SearchFloor = {
  describe: 'its best bare statement: each run walked by its index, the match a filter',
  statement: [
    [`b.starts_at >= $2::timestamptz`, 'b.starts_at, b.id'],
    [`b.starts_at < $2::timestamptz`, 'b.starts_at desc, b.id desc'],
    ['b.starts_at is null', 'b.created_at desc, b.id desc'],
  ]
    .map(
      ([run, order]) =>
        `(select ${pageColumns} ${pageJoins} where b.status <> 'draft' and ${run}
           and b.search_text like ${likeSearch}
         order by ${order} limit 51)`,
    )
    .join(' union all ') + ' limit 51',
};

/** Narrow: the matches by their best index (`match`, a condition on `b`), their rows sorted into the console's order. */
function sortedFloor(match: string, extra?: SearchFloor['extra']): SearchFloor {
  const rank = `(case when b.starts_at is null then 2 when b.starts_at >= $2::timestamptz then 0 else 1 end)`;
  return {
    describe: 'its best bare statement: the matches by their index, sorted',
    statement: `select ${pageColumns} ${pageJoins}
      where ${match} and b.status <> 'draft'
      order by ${rank}, case when ${rank} = 0 then b.starts_at end, case when ${rank} = 1 then b.starts_at end desc,
               case when ${rank} = 2 then b.created_at end desc, case when ${rank} = 0 then b.id end, case when ${rank} <> 0 then b.id end desc
      limit 51`,
    ...(extra ? { extra } : {}),
  };
}

/** The reference `seedBookingChunk` gives booking `k`. */
function seededReference(k: number): string {
  return `NOTARY-${createHash('md5').update(String(k)).digest('hex').slice(0, 2).toUpperCase()}${String(k).padStart(6, '0')}`;
}

// ---------------------------------------------------------------- the cases

/** Captures the statements one call sends (in process), so its floor can replay them bare. */
interface Statement {
  name?: string;
  text: string;
  values: unknown[];
}

async function captureStatements(run: () => Promise<unknown>): Promise<Statement[]> {
  const statements: Statement[] = [];
  const original = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
    const [first, second] = args;
    const config = typeof first === 'string' ? { text: first } : (first as { name?: string; text?: string; values?: unknown[] });
    if (typeof config?.text === 'string') {
      statements.push({ ...('name' in config && config.name ? { name: config.name } : {}), text: config.text, values: Array.isArray(second) ? second : (config.values ?? []) });
    }
    return original.apply(this, args);
  } as never;
  try {
    await run();
  } finally {
    pg.Client.prototype.query = original as never;
  }
  return statements;
}

/** A named statement stays prepared (as the app's is); one with no values goes as a simple query (a hold's one message). */
function replay(ctx: Context, statements: Statement[]) {
  return async () => {
    for (const statement of statements) {
      if (statement.name) await ctx.deps.database.queryPool.query(statement);
      else await (statement.values.length ? ctx.sql(statement.text, statement.values) : ctx.sql(statement.text));
    }
  };
}

/** The cases, with fresh state (a database's conversation, its seeded counts) for each database. */
function growthCases(): GrowthCase[] {
  return [
  bookingListCase('Console bookings, first page (all but drafts)', () => ({})),
  bookingListCase('Console bookings, search by name (~1 in 20 match)', () => ({ q: 'hopper' }), walkFloor),
  bookingListCase(
    'Console bookings, search by email (one match, its trigrams common to every email)',
    () => ({ q: `customer${Math.max(0, bookingsSeeded - 7)}@example` }),
    // The address by the end of its local part (the reversed btree), the whole search checked after; a name only if it holds an `@`.
    // `= any(array(…))`: with `in (…)` the planner misjudges the customers found and walks the bookings (decision 135).
    sortedFloor(
      `b.customer_id = any(array(select c2.id from customers c2
         where (reverse(split_part(lower(c2.email), '@', 1)) like $3 and strpos(lower(c2.email), lower($1)) > 0)
            or (strpos(c2.first_name || ' ' || c2.last_name, '@') > 0 and strpos(lower(c2.first_name || ' ' || c2.last_name), lower($1)) > 0)))`,
      (q) => [`${[...q.split('@')[0]!.toLowerCase()].reverse().join('')}%`],
    ),
  ),
  bookingListCase(
    'Console bookings, search by reference (one match)',
    () => ({ q: String(Math.max(0, bookingsSeeded - 7)).padStart(6, '0') }),
    sortedFloor(`b.search_text like ${likeSearch}`),
  ),
  bookingListCase(
    'Console bookings, search by whole reference (one match, its prefix in every reference)',
    () => ({ q: seededReference(Math.max(0, bookingsSeeded - 7)) }),
    // The reference by its code's trigrams, the whole search checked after.
    sortedFloor(`b.search_text like lower($3) and strpos(b.search_text, lower($1)) > 0`, (q) => [`%${q.slice('NOTARY-'.length)}%`]),
  ),
  {
    name: 'Console bookings, page 11 (after 10 pages by cursor)',
    unit: 'bookings',
    floor: 'the same page of rows by primary key',
    sizes: (quick) => (quick ? [1_000, 10_000] : [1_000, 10_000, 100_000]),
    prepare: growBookings,
    async calls(ctx) {
      let after: string | undefined;
      for (let i = 0; i < 10; i++) after = (await consoleService.listBookings(ctx.deps, ctx.staff, { after })).next ?? undefined;
      if (!after) throw new Error('fewer than 11 pages');
      let ids: string[] = [];
      const app = async () => {
        const page = await consoleService.listBookings(ctx.deps, ctx.staff, { after });
        ids = page.items.map((b) => b.id);
      };
      await app();
      return { app, floor: rowsByIdFloor(ctx, () => ids) };
    },
  },
  {
    name: '`slots.list` for one day (the read behind its shared answer)',
    unit: 'bookings',
    floor: 'its own statements replayed bare',
    sizes: (quick) => (quick ? [1_000, 10_000] : [1_000, 10_000, 100_000]),
    prepare: growBookings,
    async calls(ctx) {
      const date = new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(Date.now() + 5 * 86_400_000));
      // Every call reads: the answer shared for a second (decision 116) would hide the read whose growth this measures.
      const app = () => {
        slotsChanged();
        return listSlots(ctx.deps, ctx.deps.db, { date, timeZone });
      };
      return { app, floor: replay(ctx, await captureStatements(app)) };
    },
  },
  {
    name: '`booking.hold` (moves a hold between two slots)',
    unit: 'bookings',
    floor: 'its own statement replayed bare',
    sizes: (quick) => (quick ? [1_000, 10_000] : [1_000, 10_000, 100_000]),
    prepare: growBookings,
    async calls(ctx) {
      const { bookingId } = await startBooking(ctx.deps, { timeZone });
      const slots: Date[] = [];
      for (let day = 2; slots.length < 2 && day < 14; day++) {
        const date = new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(Date.now() + day * 86_400_000));
        slots.push(...(await listSlots(ctx.deps, ctx.deps.db, { date, timeZone })).slots.filter((s) => s.available).map((s) => s.startsAt));
      }
      if (slots.length < 2) throw new Error('no two open slots to hold');
      let n = 0;
      const app = () => holdSlot(ctx.deps, { bookingId, startsAt: slots[n++ % 2]!, timeZone });
      await app();
      // The floor replays a recorded hold (its own literals), moving a booking of its own.
      const floorBooking = await startBooking(ctx.deps, { timeZone });
      const recorded = await captureStatements(() => holdSlot(ctx.deps, { bookingId: floorBooking.bookingId, startsAt: slots[0]!, timeZone }));
      return { app, floor: replay(ctx, recorded) };
    },
  },
  (() => {
    /** The conversation that grows to each size, and one kept at `shortConversationLength` messages beside it. */
    let long: { tokenHash: string; id: string } | null = null;
    let short: { tokenHash: string; id: string; lastKept: number } | null = null;
    let length = 0;
    let clock = Date.now();
    const seedMessages = (ctx: Context, conversationId: string, from: number, to: number) =>
      inChunks(from, to, (start, end) =>
        ctx.sql(
          `insert into chat_messages (conversation_id, client_id, sender, body)
           select $1, 'seed-' || n, 'visitor', 'Seeded message ' || n from generate_series($2::int, $3::int - 1) n`,
          [conversationId, start, end],
        ),
      );
    /** Every message unread by staff: the count the summary shows is the whole conversation. */
    const countUnread = (ctx: Context, conversationId: string) =>
      ctx.sql(`update chat_conversations set staff_unread = (select count(*) from chat_messages where conversation_id = $1) where id = $1`, [conversationId]);
    const open = async (ctx: Context) => {
      const tokenHash = hashToken(randomUUID());
      const ack = await chat.sendVisitorMessage(ctx.deps, { tokenHash, ip: '10.9.9.9' }, { clientId: randomUUID(), body: 'First' });
      if (!ack.ok) throw new Error(ack.error);
      return { tokenHash, id: ack.conversation.id };
    };
    return {
      name: 'Chat: a visitor message (stored, summary for staff)',
      unit: 'messages in the conversation',
      floor: 'one bare insert of the message',
      // The conversation's length is what the goal is about (issue 31): the same
      // message in a short conversation of the same database, measured in the
      // same alternation, leaves out what the whole table's size and the
      // machine's moment add to both.
      secondFloor: `the same message in a ${shortConversationLength}-message conversation of the same database`,
      sizes: (quick: boolean) => (quick ? [100, 1_000] : [100, 1_000, 10_000, 100_000]),
      async prepare(ctx: Context, size: number) {
        if (!long || !short) {
          long = await open(ctx);
          length = 1;
          const opened = await open(ctx);
          await seedMessages(ctx, opened.id, 1, shortConversationLength);
          const { rows } = await ctx.sql(`select max(id)::int as last from chat_messages where conversation_id = $1`, [opened.id]);
          short = { ...opened, lastKept: (rows[0] as { last: number }).last };
        }
        await seedMessages(ctx, long.id, length, size);
        await countUnread(ctx, long.id);
        // The short conversation back to its length: the messages the last size's measurements added go.
        await ctx.sql(`delete from chat_messages where conversation_id = $1 and id > $2`, [short.id, short.lastKept]);
        await countUnread(ctx, short.id);
        await ctx.sql('analyze chat_messages');
        length = Math.max(length, size);
      },
      async calls(ctx: Context) {
        // The chat allows 20 messages a minute: the clock moves a minute per message.
        ctx.deps.now = () => new Date(clock);
        const message = (conversation: { tokenHash: string }) => async () => {
          clock += 61_000;
          const ack = await chat.sendVisitorMessage(ctx.deps, { tokenHash: conversation.tokenHash, ip: '10.9.9.9' }, { clientId: randomUUID(), body: 'How long does it take?' });
          if (!ack.ok) throw new Error(ack.error);
          await chat.conversationSummary(ctx.deps, ack.conversation.id);
        };
        const floor = () =>
          ctx.sql(`insert into chat_messages (conversation_id, client_id, sender, body) values ($1, $2, 'visitor', 'How long does it take?') returning id`, [
            long!.id,
            randomUUID(),
          ]);
        return { app: message(long!), floor, secondFloor: message(short!) };
      },
    };
  })(),
  (() => {
    let seeded = 0;
    return {
      name: "Chat: the console's conversation list (100 most recent)",
      unit: 'conversations',
      floor: 'the same rows by the last-message index',
      sizes: (quick: boolean) => (quick ? [1_000, 10_000] : [1_000, 10_000, 100_000]),
      async prepare(ctx: Context, size: number) {
        await inChunks(seeded, size, (from, to) =>
          ctx.sql(
          `with c as (
             insert into chat_conversations (visitor_token_hash, visitor_email, current_page, last_message_at, staff_unread, last_message_body, last_message_sender)
             select md5('growth-' || n), null, '/schedule', now() - n * interval '1 second', 1, 'Hello ' || n, 'visitor'
             from generate_series($1::int, $2::int - 1) n
             returning id)
           insert into chat_messages (conversation_id, client_id, sender, body) select id, 'first', 'visitor', 'Hello' from c`,
          [from, to],
          ),
        );
        await ctx.sql('analyze chat_conversations; analyze chat_messages');
        seeded = Math.max(seeded, size);
      },
      async calls(ctx: Context) {
        const app = () => chat.listConversations(ctx.deps);
        const floor = () =>
          ctx.sql(
            `select id, visitor_email, current_page, last_message_at, staff_read_up_to, last_message_body, last_message_sender, staff_unread
             from chat_conversations where last_message_at is not null order by last_message_at desc limit 100`,
          );
        return { app, floor };
      },
    };
  })(),
];
}

// ---------------------------------------------------------------- running

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

async function timed(run: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await run();
  return performance.now() - t0;
}

/** Every case at every size on one database; `database` is opened and closed here. */
export async function runGrowth(open: () => Promise<Database>, options: { quick: boolean; iterations: number; log: (line: string) => void }): Promise<GrowthRow[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'notary-growth-'));
  const database = await open();
  bookingsSeeded = 0;
  const cases = growthCases();
  try {
    const config = loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir, LOG_LEVEL: 'silent', BOOKING_SLOT_CAPACITY: '1000000', PUBLIC_URL: 'http://localhost:3000' });
    const deps = await buildDeps(config, database, createLogger('silent'));
    const realNow = deps.now;
    const staffUser = await database.queryPool.query<{ id: string }>(
      `insert into staff_users (email, name, role, time_zone) values ('growth@example.com', 'Growth Staff', 'staff', '${timeZone}') returning id`,
    );
    const ctx: Context = {
      deps,
      sql: (text, values) => database.queryPool.query(text, values),
      staff: { user: { id: staffUser.rows[0]!.id, email: 'growth@example.com', name: 'Growth Staff', role: 'staff', timeZone }, sessionId: 'growth' },
    };
    // Sizes in increasing order across all cases, so the shared data only grows.
    const steps = [...new Set(cases.flatMap((c) => c.sizes(options.quick)))].sort((a, b) => a - b);
    const rows: GrowthRow[] = [];
    for (const size of steps) {
      for (const growthCase of cases) {
        if (!growthCase.sizes(options.quick).includes(size)) continue;
        options.log(`growth: ${growthCase.name} at ${size.toLocaleString('en-US')} ${growthCase.unit}`);
        deps.now = realNow;
        await growthCase.prepare(ctx, size);
        const { app, floor, secondFloor } = await growthCase.calls(ctx, size);
        for (let i = 0; i < 5; i++) {
          await app();
          await floor();
          await secondFloor?.();
        }
        const appMs: number[] = [];
        const floorMs: number[] = [];
        const secondFloorMs: number[] = [];
        for (let i = 0; i < options.iterations; i++) {
          appMs.push(await timed(app));
          floorMs.push(await timed(floor));
          if (secondFloor) secondFloorMs.push(await timed(secondFloor));
        }
        rows.push({
          case: growthCase.name,
          unit: growthCase.unit,
          size,
          appMs: median(appMs),
          floorMs: median(floorMs),
          floor: growthCase.floor,
          ...(secondFloor ? { secondFloorMs: median(secondFloorMs), secondFloor: growthCase.secondFloor } : {}),
        });
      }
    }
    deps.now = realNow;
    // Case by case, sizes in order: one case's growth reads down its rows.
    return cases.flatMap((c) => rows.filter((r) => r.case === c.name));
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Opens PGlite (in a folder of its own, as the server does) or a PostgreSQL database by URL. */
export function growthDatabase(kind: 'PGlite' | 'PostgreSQL', url?: string): () => Promise<Database> {
  if (kind === 'PostgreSQL') return () => openPostgres(url!, { max: 10 });
  return async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'notary-growth-pglite-'));
    const database = await openPglite(path.join(dir, 'pglite'));
    return { ...database, close: async () => (await database.close(), rmSync(dir, { recursive: true, force: true })) };
  };
}
