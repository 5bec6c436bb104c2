import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings, contactMessages, customers, documents, payments } from '../../src/server/db/schema.ts';
import { appRouter } from '../../src/server/router.ts';
import { queryRows } from '../../src/server/db/client.ts';
import { searchCondition } from '../../src/server/features/console/repository.ts';
import pg from 'pg';
import type { Deps } from '../../src/server/deps.ts';
import { consolePages, homePathFor } from '../../src/shared/staff.ts';
import { actStages } from '../../src/shared/act-stages.ts';
import { dbKinds } from '../helpers/db.ts';
import { startTestApp, type TestServer } from '../helpers/app.ts';
import { createStaffUser, trpcHttp, type TestStaffUser } from '../helpers/staff.ts';

/** Every staff-facing procedure, read from the router itself: a new one is covered without editing this test. */
const procedures = Object.entries((appRouter as unknown as { _def: { procedures: Record<string, { _def: { type: 'query' | 'mutation' } }> } })._def.procedures)
  .filter(([path]) => path.startsWith('staff.') || path.startsWith('console.'))
  .map(([path, procedure]) => ({ path, type: procedure._def.type }));

/** Open to anyone on purpose (signing in, accepting an invitation). */
const publicProcedures = ['staff.me', 'staff.login', 'staff.invitation', 'staff.acceptInvite'];
/** Need only a session, second factor pending or not (the steps of signing in). */
const sessionOnly = ['staff.logout', 'staff.totp.verify', 'staff.totp.begin', 'staff.totp.confirm'];
const everyRole = [...sessionOnly, 'staff.totp.disable', 'staff.account.updateProfile', 'staff.account.changePassword', 'console.bookings.get', 'console.bookings.markOutcome'];
/** What each role may call; anything else must answer FORBIDDEN. */
const notaryOnly = ['console.appointments', 'console.pastAppointments', 'console.newAppointments', 'console.onDemand.accept', 'console.onDemand.heartbeat'];
/** Working hours: notaries (their own) and admins (anyone's), never office staff. */
const hoursOf = (path: string) => path.startsWith('console.availability.') || path.startsWith('console.onDemand.');
const allowedFor = {
  admin: (path: string) => !notaryOnly.includes(path),
  staff: (path: string) => !path.startsWith('staff.users.') && !notaryOnly.includes(path) && !hoursOf(path),
  notary: (path: string) => everyRole.includes(path) || notaryOnly.includes(path) || hoursOf(path),
};

async function insertBooking(deps: Deps, values: { startsAt: Date; status?: 'confirmed' | 'cancelled' | 'completed'; notaryId?: string | null; name?: string; email?: string }) {
  const [customer] = await deps.db
    .insert(customers)
    .values({ firstName: values.name ?? 'Ada', lastName: 'Lovelace', email: values.email ?? 'ada@example.com', phone: '(515) 555-0100' })
    .returning();
  const [booking] = await deps.db
    .insert(bookings)
    .values({
      reference: `NOTARY-${randomUUID().slice(0, 8).toUpperCase()}`,
      status: values.status ?? 'confirmed',
      startsAt: values.startsAt,
      timeZone: 'America/New_York',
      priceCents: 2500,
      customerId: customer!.id,
      notaryId: values.notaryId ?? null,
    })
    .returning();
  return booking!;
}

async function insertDocument(deps: Deps, bookingId: string, bytes = Buffer.from('%PDF-1.4 test document')) {
  const key = `${bookingId}/${randomUUID()}.pdf`;
  await deps.storage.put(key, Readable.from(bytes), { contentType: 'application/pdf' });
  const [doc] = await deps.db
    .insert(documents)
    .values({ bookingId, originalName: 'deed – signed.pdf', contentType: 'application/pdf', sizeBytes: bytes.length, storageKey: key, status: 'stored', scanStatus: 'clean', storedAt: new Date() })
    .returning();
  return doc!;
}

describe.each(dbKinds)('staff access control (%s)', (kind) => {
  let app: TestServer;
  let users: Record<'admin' | 'staff' | 'notary' | 'otherNotary', TestStaffUser>;
  let cookies: Record<'admin' | 'staff' | 'notary' | 'otherNotary', string>;
  beforeAll(async () => {
    app = await startTestApp(kind);
    users = {
      admin: await createStaffUser(app.deps, { role: 'admin' }),
      staff: await createStaffUser(app.deps, { role: 'staff' }),
      notary: await createStaffUser(app.deps, { role: 'notary', timeZone: 'America/Los_Angeles' }),
      otherNotary: await createStaffUser(app.deps, { role: 'notary' }),
    };
    cookies = {
      admin: await users.admin.sessionCookie(),
      staff: await users.staff.sessionCookie(),
      notary: await users.notary.sessionCookie(),
      otherNotary: await users.otherNotary.sessionCookie(),
    };
  });
  afterAll(() => app.close());

  it('finds the staff procedures in the router', () => {
    expect(procedures.length).toBeGreaterThan(15);
    expect(procedures.map((p) => p.path)).toContain('console.bookings.assignNotary');
  });

  it('refuses anonymous callers on every non-public staff procedure (401)', async () => {
    for (const { path, type } of procedures.filter((p) => !publicProcedures.includes(p.path))) {
      const res = await trpcHttp(app.url, path, { type, input: {} });
      expect({ path, status: res.status, code: res.body.error?.json.data.code }).toEqual({ path, status: 401, code: 'UNAUTHORIZED' });
    }
  });

  it('refuses a session still owing its second factor everywhere but the sign-in steps', async () => {
    const pending = await createStaffUser(app.deps, { role: 'admin', totp: false });
    const login = await trpcHttp(app.url, 'staff.login', { input: { email: pending.email, password: pending.password } });
    const cookie = login.cookies[0]!.split(';')[0]!;
    for (const { path, type } of procedures.filter((p) => !publicProcedures.includes(p.path) && !sessionOnly.includes(p.path))) {
      const res = await trpcHttp(app.url, path, { type, input: {}, cookie });
      expect({ path, status: res.status }).toEqual({ path, status: 401 });
    }
  });

  for (const role of ['admin', 'staff', 'notary'] as const) {
    it(`refuses ${role} on every procedure outside the role (403)`, async () => {
      const refused = procedures.filter((p) => !publicProcedures.includes(p.path) && !allowedFor[role](p.path));
      expect(refused.length).toBeGreaterThan(0);
      for (const { path, type } of refused) {
        const res = await trpcHttp(app.url, path, { type, input: {}, cookie: cookies[role] });
        expect({ path, status: res.status, code: res.body.error?.json.data.code }).toEqual({ path, status: 403, code: 'FORBIDDEN' });
      }
    });
  }

  it('redirects anonymous visitors of every console page to the login, never indexed or cached', async () => {
    for (const page of Object.keys(consolePages)) {
      const res = await fetch(`${app.url}/admin/${page}`, { redirect: 'manual' });
      expect({ page, status: res.status }).toEqual({ page, status: 302 });
      expect(res.headers.get('location')).toBe(`/admin/login?next=${encodeURIComponent(`/admin/${page}`)}`);
      expect(res.headers.get('x-robots-tag')).toContain('noindex');
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
    // The client router ignores case and decodes segments: so must the gate.
    for (const variant of ['/ADMIN/bookings', '/Admin/Bookings', '/%61dmin/bookings', '//admin//bookings']) {
      const res = await fetch(`${app.url}${variant}`, { redirect: 'manual' });
      expect({ variant, status: res.status, to: res.headers.get('location')?.split('?')[0] }).toEqual({ variant, status: 302, to: '/admin/login' });
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
    const detail = await fetch(`${app.url}/admin/bookings/${randomUUID()}`, { redirect: 'manual' });
    expect(detail.status).toBe(302);
  });

  it('sends each role away from console pages outside it', async () => {
    for (const role of ['admin', 'staff', 'notary'] as const) {
      for (const [page, roles] of Object.entries(consolePages)) {
        const res = await fetch(`${app.url}/admin/${page}`, { redirect: 'manual', headers: { cookie: cookies[role] } });
        if ((roles as readonly string[]).includes(role)) {
          expect({ role, page, status: res.status }).not.toEqual({ role, page, status: 302 });
        } else {
          expect({ role, page, status: res.status, to: res.headers.get('location') }).toEqual({ role, page, status: 302, to: homePathFor(role) });
        }
      }
    }
  });

  it('serves documents only to staff, admins and the assigned notary', async () => {
    const booking = await insertBooking(app.deps, { startsAt: new Date(Date.now() + 86400_000), notaryId: users.notary.id });
    const doc = await insertDocument(app.deps, booking.id);
    const url = `${app.url}/api/staff/documents/${doc.id}`;
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url, { headers: { cookie: 'staff_session=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' } })).status).toBe(401);
    expect((await fetch(url, { headers: { cookie: cookies.otherNotary } })).status).toBe(403);
    for (const role of ['admin', 'staff', 'notary'] as const) {
      const res = await fetch(url, { headers: { cookie: cookies[role] } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toMatch(/^attachment;/);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.text()).toBe('%PDF-1.4 test document');
    }
    expect((await fetch(`${app.url}/api/staff/documents/${randomUUID()}`, { headers: { cookie: cookies.admin } })).status).toBe(404);
  });

  it('shows a notary only their own appointments, today and upcoming, and earlier ones still awaiting an outcome', async () => {
    const mine = await insertBooking(app.deps, { startsAt: new Date(Date.now() + 2 * 3600_000), notaryId: users.notary.id, name: 'Mine' });
    const awaiting = await insertBooking(app.deps, { startsAt: new Date(Date.now() - 3 * 86400_000), notaryId: users.notary.id, name: 'Awaiting' });
    const past = await insertBooking(app.deps, { startsAt: new Date(Date.now() - 3 * 86400_000), notaryId: users.notary.id, name: 'Past', status: 'completed' });
    const theirs = await insertBooking(app.deps, { startsAt: new Date(Date.now() + 3600_000), notaryId: users.otherNotary.id, name: 'Theirs' });
    const res = await trpcHttp(app.url, 'console.appointments', { type: 'query', cookie: cookies.notary });
    const { appointments, timeZone } = res.body.result!.data.json as { appointments: { id: string; customer: { phone: string }; awaitingOutcome: boolean; sessionState: string }[]; timeZone: string };
    const ids = appointments.map((a) => a.id);
    expect(timeZone).toBe('America/Los_Angeles');
    expect(ids).toContain(mine.id);
    expect(appointments.find((a) => a.id === awaiting.id)).toMatchObject({ awaitingOutcome: true, sessionState: 'waiting' });
    expect(appointments.find((a) => a.id === mine.id)).toMatchObject({ awaitingOutcome: false });
    expect(ids).not.toContain(past.id);
    expect(ids).not.toContain(theirs.id);
    expect(appointments.find((a) => a.id === mine.id)!.customer.phone).toBe('(515) 555-0100');
    expect((await trpcHttp(app.url, 'console.bookings.get', { type: 'query', cookie: cookies.notary, input: { bookingId: theirs.id } })).status).toBe(403);
    expect((await trpcHttp(app.url, 'console.bookings.get', { type: 'query', cookie: cookies.notary, input: { bookingId: mine.id } })).status).toBe(200);
  });

  it('a notary’s past appointments stay reachable after the day ends: only their own, before today, most recent first, a page at a time', async () => {
    type Page = { appointments: { id: string; startsAt: string; actStage: string }[]; next: string | null };
    const past = async (after?: string | null) => {
      const res = await trpcHttp(app.url, 'console.pastAppointments', { type: 'query', cookie: cookies.notary, input: { after } });
      expect(res.status).toBe(200);
      return res.body.result!.data.json as Page;
    };
    const days = Array.from({ length: 23 }, (_, i) => i + 30);
    const mine = [];
    for (const day of days) mine.push(await insertBooking(app.deps, { startsAt: new Date(Date.now() - day * 86400_000), notaryId: users.notary.id, status: 'completed' }));
    const theirs = await insertBooking(app.deps, { startsAt: new Date(Date.now() - 31 * 86400_000), notaryId: users.otherNotary.id, status: 'completed' });
    const upcoming = await insertBooking(app.deps, { startsAt: new Date(Date.now() + 86400_000), notaryId: users.notary.id });
    const seen: Page['appointments'] = [];
    let page = await past();
    expect(page.appointments).toHaveLength(20);
    expect(page.next).not.toBeNull();
    seen.push(...page.appointments);
    for (let i = 0; page.next && i < 10; i++) {
      page = await past(page.next);
      seen.push(...page.appointments);
    }
    const ids = seen.map((a) => a.id);
    // Every one of theirs, once, most recent first; never another notary's, never today's or later.
    for (const booking of mine) expect(ids.filter((id) => id === booking.id)).toHaveLength(1);
    expect(ids).not.toContain(theirs.id);
    expect(ids).not.toContain(upcoming.id);
    const times = seen.map((a) => new Date(a.startsAt).getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
    // Each with the act's stage, as the appointment page shows it.
    for (const a of seen) expect(actStages).toContain(a.actStage);
    // A forged page link is refused with the list's message.
    expect((await trpcHttp(app.url, 'console.pastAppointments', { type: 'query', cookie: cookies.notary, input: { after: 'past_1_x' } })).status).toBe(400);
  });
});

describe.each(dbKinds)('console bookings (%s)', (kind) => {
  let app: TestServer;
  let cookie: string;
  let notary: TestStaffUser;
  beforeAll(async () => {
    app = await startTestApp(kind);
    cookie = await (await createStaffUser(app.deps, { role: 'staff', timeZone: 'America/Chicago' })).sessionCookie();
    notary = await createStaffUser(app.deps, { role: 'notary', name: 'Nia Notary' });
  });
  afterAll(() => app.close());

  const call = (path: string, input: unknown, type: 'query' | 'mutation' = 'query') => trpcHttp(app.url, path, { type, input, cookie });

  it('lists upcoming first (soonest first), then past (latest first); filters by day, status and search', async () => {
    const hour = 3600_000;
    const later = await insertBooking(app.deps, { startsAt: new Date(Date.now() + 48 * hour), name: 'Later', email: 'later@example.com' });
    const soon = await insertBooking(app.deps, { startsAt: new Date(Date.now() + 2 * hour), name: 'Soon' });
    const recent = await insertBooking(app.deps, { startsAt: new Date(Date.now() - 2 * hour), name: 'Recent', status: 'completed' });
    const old = await insertBooking(app.deps, { startsAt: new Date(Date.now() - 48 * hour), name: 'Old', status: 'cancelled' });
    const list = await call('console.bookings.list', {});
    const ids = (list.body.result!.data.json as { items: { id: string }[] }).items.map((b) => b.id);
    expect(ids.filter((id) => [later.id, soon.id, recent.id, old.id].includes(id))).toEqual([soon.id, later.id, recent.id, old.id]);

    const byStatus = await call('console.bookings.list', { status: 'cancelled' });
    expect((byStatus.body.result!.data.json as { items: { id: string }[] }).items.map((b) => b.id)).toEqual([old.id]);
    const byEmail = await call('console.bookings.list', { q: 'LATER@example' });
    expect((byEmail.body.result!.data.json as { items: { id: string }[] }).items.map((b) => b.id)).toEqual([later.id]);
    const byName = await call('console.bookings.list', { q: 'soon lovelace' });
    expect((byName.body.result!.data.json as { items: { id: string }[] }).items.map((b) => b.id)).toEqual([soon.id]);
    const byReference = await call('console.bookings.list', { q: recent.reference.toLowerCase() });
    expect((byReference.body.result!.data.json as { items: { id: string }[] }).items.map((b) => b.id)).toEqual([recent.id]);
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Chicago' }).format(later.startsAt!);
    const byDay = await call('console.bookings.list', { day });
    expect((byDay.body.result!.data.json as { items: { id: string }[] }).items.map((b) => b.id)).toContain(later.id);
    expect((byDay.body.result!.data.json as { items: { id: string }[] }).items.map((b) => b.id)).not.toContain(old.id);
  });

  it('pages through every booking by cursor, ties on the time included, with the filters kept', async () => {
    const hour = 3600_000;
    const base = Math.floor(Date.now() / hour) * hour;
    const [customer] = await app.deps.db.insert(customers).values({ firstName: 'Pager', lastName: 'Tester', email: 'pager@example.com' }).returning();
    const createdAt = new Date('2026-01-01T00:00:00.123456Z');
    // 45 upcoming and 45 past on 9 times each (5 bookings share every time), 25 undated created at 5 instants.
    const rows = Array.from({ length: 115 }, (_, i) => ({
      reference: `NOTARY-PG${String(i).padStart(5, '0')}`,
      status: i < 90 ? ('confirmed' as const) : ('draft' as const),
      startsAt: i < 45 ? new Date(base + (3 + (i % 9)) * hour) : i < 90 ? new Date(base - (3 + (i % 9)) * hour) : null,
      createdAt: new Date(createdAt.getTime() + (i % 5) * 1000),
      priceCents: 2500,
      customerId: customer!.id,
    }));
    const inserted = await app.deps.db.insert(bookings).values(rows).returning({ id: bookings.id, startsAt: bookings.startsAt, createdAt: bookings.createdAt });
    const byKey = (key: (r: (typeof inserted)[number]) => number, direction: 1 | -1) => (a: (typeof inserted)[number], b: (typeof inserted)[number]) =>
      direction * (key(a) - key(b) || (a.id < b.id ? -1 : 1));
    const expected = [
      ...inserted.filter((r) => r.startsAt && r.startsAt.getTime() > Date.now()).sort(byKey((r) => r.startsAt!.getTime(), 1)),
      ...inserted.filter((r) => r.startsAt && r.startsAt.getTime() < Date.now()).sort(byKey((r) => r.startsAt!.getTime(), -1)),
      ...inserted.filter((r) => !r.startsAt).sort(byKey((r) => r.createdAt.getTime(), -1)),
    ].map((r) => r.id);

    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const page = await call('console.bookings.list', { status: 'all', q: 'pager tester', ...(after ? { after } : {}) });
      expect(page.status).toBe(200);
      const { items, next } = page.body.result!.data.json as { items: { id: string }[]; next: string | null };
      seen.push(...items.map((b) => b.id));
      after = next;
      pages++;
    } while (after && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(expected);

    // The default view (no drafts) pages the same way: 90 rows, two pages.
    const first = (await call('console.bookings.list', { q: 'PAGER@example.com' })).body.result!.data.json as { items: { id: string }[]; next: string };
    const second = (await call('console.bookings.list', { q: 'PAGER@example.com', after: first.next })).body.result!.data.json as { items: { id: string }[]; next: string | null };
    expect([...first.items, ...second.items].map((b) => b.id)).toEqual(expected.slice(0, 90));
    expect(second.next).toBeNull();

    const bad = await call('console.bookings.list', { after: 'past_1_not-a-cursor' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('This page link is not valid. Go back to the first page.');
  });

  it('pages a broad search (over a thousand matches) along the index, filtered, in the same order', async () => {
    const hour = 3600_000;
    const [customer] = await app.deps.db.insert(customers).values({ firstName: 'Broad', lastName: 'Searcher', email: 'broad@example.com' }).returning();
    const base = Math.floor(Date.now() / hour) * hour;
    const inserted = await app.deps.db
      .insert(bookings)
      .values(Array.from({ length: 1_010 }, (_, i) => ({ reference: `NOTARY-BR${String(i).padStart(5, '0')}`, status: 'completed' as const, startsAt: new Date(base - (1 + (i % 400)) * hour), priceCents: 2500, customerId: customer!.id })))
      .returning({ id: bookings.id, startsAt: bookings.startsAt });
    const expected = inserted.sort((a, b) => b.startsAt!.getTime() - a.startsAt!.getTime() || (a.id < b.id ? 1 : -1)).map((r) => r.id);
    const first = (await call('console.bookings.list', { q: 'broad searcher' })).body.result!.data.json as { items: { id: string }[]; next: string };
    const second = (await call('console.bookings.list', { q: 'broad searcher', after: first.next })).body.result!.data.json as { items: { id: string }[] };
    expect([...first.items, ...second.items].map((b) => b.id)).toEqual(expected.slice(0, 100));
    // Shaped like a reference, so tried narrow first: over a thousand found, the walk answers, in the same order.
    const byCode = (await call('console.bookings.list', { q: 'notary-br0' })).body.result!.data.json as { items: { id: string }[]; next: string };
    const byCodeNext = (await call('console.bookings.list', { q: 'notary-br0', after: byCode.next })).body.result!.data.json as { items: { id: string }[] };
    expect([...byCode.items, ...byCodeNext.items].map((b) => b.id)).toEqual(expected.slice(0, 100));
  });

  it('searches by trigram index, case-insensitively, and treats % and _ as text', async () => {
    const match = await insertBooking(app.deps, { startsAt: new Date(Date.now() + 72 * 3600_000), name: 'Grace', email: 'grace.hopper@navy.example' });
    await insertBooking(app.deps, { startsAt: new Date(Date.now() + 73 * 3600_000), name: 'Gracie', email: 'other@example.com' });
    const search = async (q: string) => ((await call('console.bookings.list', { q })).body.result!.data.json as { items: { id: string }[] }).items.map((b) => b.id);
    expect(await search('HOPPER@NAVY')).toEqual([match.id]);
    expect(await search('grace lovelace')).toEqual([match.id]);
    expect(await search(match.reference.slice(-6).toLowerCase())).toEqual([match.id]);
    expect(await search('100%')).toEqual([]);
    expect(await search('grace_')).toEqual([]);
    // The plan reads the trigram index on the bookings' search text (a GIN bitmap scan), not every booking.
    await app.deps.db.execute(sql`set enable_seqscan = off`);
    const plan = await queryRows(app.deps.db, sql`explain select id from ${bookings} where ${searchCondition('grace.hop')}`);
    await app.deps.db.execute(sql`set enable_seqscan = on`);
    expect(JSON.stringify(plan)).toContain('bookings_search_trgm_idx');
  });

  it('finds an address by the end of its local part (a btree), the domain checked after; trigram indexes keep a small pending list', async () => {
    const match = await insertBooking(app.deps, { startsAt: new Date(Date.now() + 74 * 3600_000), name: 'Ada', email: 'ada.byron@analytical.example' });
    await insertBooking(app.deps, { startsAt: new Date(Date.now() + 75 * 3600_000), name: 'Adam', email: 'ada.byron@other.example' });
    const search = async (q: string) => ((await call('console.bookings.list', { q })).body.result!.data.json as { items: { id: string }[] }).items.map((b) => b.id);
    expect(await search('BYRON@ANALYTICAL')).toEqual([match.id]);
    expect(await search('ada.byron@analytical.example')).toEqual([match.id]);
    expect(await search('byron@analytical.example.com')).toEqual([]);
    expect(await search('a@b@analytical')).toEqual([]);
    // The address is looked up by the reversed local part, not by trigrams every address shares.
    await app.deps.db.execute(sql`set enable_seqscan = off`);
    const plan = JSON.stringify(await queryRows(app.deps.db, sql`explain select id from ${bookings} where ${searchCondition('byron@analytical')}`));
    await app.deps.db.execute(sql`set enable_seqscan = on`);
    expect(plan).toContain("reverse(split_part(lower(email), '@'::text, 1)) ~~ 'noryb%'");
    expect(plan).not.toContain('bookings_search_trgm_idx');
    const options = await queryRows<{ relname: string; reloptions: string[] | null }>(
      app.deps.db,
      sql`select relname, reloptions from pg_class where relname like '%trgm_idx' order by relname`,
    );
    expect(options).toEqual([{ relname: 'bookings_search_trgm_idx', reloptions: ['gin_pending_list_limit=64'] }]);
  });

  it('finds a whole reference by its code (the prefix checked after), a name by any part, each search in one statement without an estimate', async () => {
    const at = new Date(Date.now() + 76 * 3600_000);
    const [customer] = await app.deps.db.insert(customers).values({ firstName: 'Katherine', lastName: 'Johnson', email: 'kj1918@nasa.example' }).returning();
    const [match, inside] = await app.deps.db
      .insert(bookings)
      .values([
        { reference: 'NOTARY-ZQ7K3M9X', status: 'confirmed' as const, startsAt: at, priceCents: 2500, customerId: customer!.id },
        // The code again, but not after the prefix: a reference holds the prefix only at its start.
        { reference: 'NOTARY-XZQ7K3M9', status: 'confirmed' as const, startsAt: new Date(at.getTime() + 3600_000), priceCents: 2500 },
      ])
      .returning();
    const statements: string[] = [];
    // A search's statement is unnamed, so PostgreSQL plans it with each call's values (decisions 131, 135).
    const named: string[] = [];
    const query = pg.Client.prototype.query;
    const search = async (q: string) => {
      statements.length = 0;
      pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
        const [config] = args as [string | { text?: string; name?: string }];
        statements.push(typeof config === 'string' ? config : (config?.text ?? ''));
        if (typeof config === 'object' && config?.name) named.push(config.name);
        return (query as (...a: unknown[]) => unknown).apply(this, args);
      } as typeof query;
      try {
        return ((await call('console.bookings.list', { q })).body.result!.data.json as { items: { id: string }[] }).items.map((b) => b.id);
      } finally {
        pg.Client.prototype.query = query;
      }
    };
    // No estimate is asked first: a reference or an address is one statement, a word one per run at most.
    const reads = () => ({ explain: statements.filter((text) => text.startsWith('explain')).length, bookings: statements.filter((text) => text.includes('from "bookings"')).length });
    expect(await search('NOTARY-ZQ7K3M9X')).toEqual([match!.id]);
    expect(reads()).toEqual({ explain: 0, bookings: 1 });
    expect(await search('notary-zq7k')).toEqual([match!.id]);
    expect(await search('ZQ7K3M9')).toEqual([match!.id, inside!.id]);
    expect(await search('KJ1918@NASA')).toEqual([match!.id]);
    expect(reads()).toEqual({ explain: 0, bookings: 1 });
    // Part of a name, in the middle of a word: each run's query (upcoming, past, undated) planned on its own.
    expect(await search('therine john')).toEqual([match!.id]);
    expect(reads()).toEqual({ explain: 0, bookings: 3 });
    expect(named).toEqual([]);
    // The code's trigrams, not the prefix's every reference shares.
    const plan = JSON.stringify(await queryRows(app.deps.db, sql`explain select id from ${bookings} where ${searchCondition('NOTARY-ZQ7K')}`));
    expect(plan).toContain("~~ '%zq7k%'");
    expect(plan).not.toContain("~~ '%notary-zq7k%'");
  });

  it('keeps the search text with the booking: a customer renamed or readdressed, a booking given another customer, a customer deleted', async () => {
    const search = async (q: string) => ((await call('console.bookings.list', { q, status: 'all' })).body.result!.data.json as { items: { id: string }[] }).items.map((b) => b.id);
    const booking = await insertBooking(app.deps, { startsAt: new Date(Date.now() + 80 * 3600_000), name: 'Hedy', email: 'hedy.kiesler@vienna.example' });
    const [{ customerId }] = (await app.deps.db.select({ customerId: bookings.customerId }).from(bookings).where(sql`${bookings.id} = ${booking.id}`)) as [{ customerId: string }];
    expect(await search('hedy lovelace')).toEqual([booking.id]);
    expect(await search(booking.reference.slice(-5))).toEqual([booking.id]);

    await app.deps.db.update(customers).set({ firstName: 'Hedwig', lastName: 'Lamarr', email: 'hedy.lamarr@hollywood.example' }).where(sql`${customers.id} = ${customerId}`);
    expect(await search('hedwig lamarr')).toEqual([booking.id]);
    expect(await search('lamarr@hollywood')).toEqual([booking.id]);
    expect(await search('amarr@holly')).toEqual([booking.id]);
    expect(await search('hedy lovelace')).toEqual([]);
    expect(await search('kiesler@vienna')).toEqual([]);
    expect(await search('vienna.example')).toEqual([]);
    // A change to another column of the customer leaves their bookings' text alone.
    await app.deps.db.update(customers).set({ phone: '(515) 555-0199' }).where(sql`${customers.id} = ${customerId}`);
    expect(await search('hedwig lamarr')).toEqual([booking.id]);

    const [other] = await app.deps.db.insert(customers).values({ firstName: 'Radia', lastName: 'Perlman', email: 'radia@spanning.example' }).returning();
    await app.deps.db.update(bookings).set({ customerId: other!.id }).where(sql`${bookings.id} = ${booking.id}`);
    expect(await search('radia perlman')).toEqual([booking.id]);
    expect(await search('radia@spanning')).toEqual([booking.id]);
    expect(await search('hedwig lamarr')).toEqual([]);
    expect(await search('lamarr@hollywood')).toEqual([]);

    // Deleting the customer sets the booking's customer to null (ON DELETE SET NULL): the reference alone is left.
    await app.deps.db.delete(customers).where(sql`${customers.id} = ${other!.id}`);
    expect(await search('radia perlman')).toEqual([]);
    expect(await search(booking.reference)).toEqual([booking.id]);
    const [row] = await queryRows<{ search_text: string }>(app.deps.db, sql`select search_text from ${bookings} where id = ${booking.id}`);
    expect(row!.search_text).toBe(booking.reference.toLowerCase());
  });

  it('never matches across two fields of the search text, whose separator no search can match', async () => {
    const search = async (q: string) => ((await call('console.bookings.list', { q, status: 'all' })).body.result!.data.json as { items: { id: string }[] }).items.map((b) => b.id);
    const booking = await insertBooking(app.deps, { startsAt: new Date(Date.now() + 81 * 3600_000), name: 'Sep', email: 'sepx@fields.example' });
    const code = booking.reference.slice(-4).toLowerCase();
    const [row] = await queryRows<{ search_text: string }>(app.deps.db, sql`select search_text from ${bookings} where id = ${booking.id}`);
    expect(row!.search_text).toBe(`${booking.reference.toLowerCase()}\x1fsep lovelace\x1fsepx@fields.example`);
    expect(await search(`${code}`)).toEqual([booking.id]);
    expect(await search('sep lovelace')).toEqual([booking.id]);
    expect(await search('sepx@fields')).toEqual([booking.id]);
    // The end of one field and the start of the next, with the separator, a space or nothing between them.
    for (const across of [`${code}\x1fsep`, `${code} sep`, `${code}sep`, 'lovelace\x1fsepx', 'lovelace sepx', 'lovelacesepx', '%\x1f%', '\x1f']) {
      expect({ across, found: await search(across) }).toEqual({ across, found: [] });
    }
    // A page's statement is kept per shape: one that matches nothing is not taken for the list without a search.
    const list = (await call('console.bookings.list', { status: 'all' })).body.result!.data.json as { items: { id: string }[] };
    expect(list.items.length).toBeGreaterThan(0);
  });

  it('keeps a hold from rewriting the search text: its trigger fires only when the reference or the customer changes', async () => {
    const triggers = await queryRows<{ tgname: string; definition: string }>(
      app.deps.db,
      sql`select tgname, pg_get_triggerdef(oid) as definition from pg_trigger where tgname like '%search_text%' order by tgname`,
    );
    expect(triggers.map((t) => t.tgname)).toEqual(['bookings_search_text_insert', 'bookings_search_text_update', 'customers_search_text']);
    expect(triggers[1]!.definition).toContain('BEFORE UPDATE OF reference, customer_id ON public.bookings');
    expect(triggers[1]!.definition).toContain('WHEN (((old.reference IS DISTINCT FROM new.reference) OR (old.customer_id IS DISTINCT FROM new.customer_id)))');
    expect(triggers[2]!.definition).toContain('AFTER UPDATE OF first_name, last_name, email ON public.customers');
  });

  it('assigns a notary, refuses an outcome before the start, and records history', async () => {
    const booking = await insertBooking(app.deps, { startsAt: new Date(Date.now() + 3600_000) });
    expect((await call('console.bookings.assignNotary', { bookingId: booking.id, notaryId: notary.id }, 'mutation')).status).toBe(200);
    const early = await call('console.bookings.markOutcome', { bookingId: booking.id, outcome: 'completed' }, 'mutation');
    expect(early.status).toBe(400);
    expect(early.body.error?.json.message).toBe('You can mark the outcome only after the appointment has started.');
    const detail = (await call('console.bookings.get', { bookingId: booking.id })).body.result!.data.json as {
      notary: { id: string };
      history: { action: string }[];
      customerTimeZone: string;
      staffTimeZone: string;
    };
    expect(detail.notary.id).toBe(notary.id);
    expect(detail.history.map((h) => h.action)).toContain('booking.notary_assigned');
    expect(detail).toMatchObject({ customerTimeZone: 'America/New_York', staffTimeZone: 'America/Chicago' });

    const started = await insertBooking(app.deps, { startsAt: new Date(Date.now() - 60_000) });
    expect((await call('console.bookings.markOutcome', { bookingId: started.id, outcome: 'no_show' }, 'mutation')).status).toBe(200);
    const after = (await call('console.bookings.get', { bookingId: started.id })).body.result!.data.json as { status: string };
    expect(after.status).toBe('no_show');
  });

  it('cancels with a refund of what was paid', async () => {
    const booking = await insertBooking(app.deps, { startsAt: new Date(Date.now() + 3 * 86400_000) });
    await app.deps.db.insert(payments).values({ bookingId: booking.id, provider: 'test', providerPaymentId: `pi_test_${randomUUID()}`, amountCents: 2500, status: 'succeeded', method: 'card' });
    const res = await call('console.bookings.cancel', { bookingId: booking.id, reason: 'Customer asked by phone' }, 'mutation');
    expect(res.status).toBe(200);
    expect(res.body.result!.data.json).toEqual({ refundedCents: 2500 });
    const detail = (await call('console.bookings.get', { bookingId: booking.id })).body.result!.data.json as {
      status: string;
      payment: { status: string; refundedCents: number };
    };
    expect(detail.status).toBe('cancelled');
    expect(detail.payment).toMatchObject({ status: 'refunded', refundedCents: 2500 });
    expect((await call('console.bookings.cancel', { bookingId: booking.id, reason: 'again' }, 'mutation')).status).toBe(400);
  });

  it('lists open messages and marks them handled', async () => {
    const [message] = await app.deps.db.insert(contactMessages).values({ kind: 'business', name: 'Bo Biz', email: 'bo@example.com', message: 'Volume pricing?' }).returning();
    const open = (await call('console.messages.list', { show: 'open' })).body.result!.data.json as { id: string }[];
    expect(open.map((m) => m.id)).toContain(message!.id);
    expect((await call('console.messages.markHandled', { messageId: message!.id }, 'mutation')).status).toBe(200);
    const stillOpen = (await call('console.messages.list', { show: 'open' })).body.result!.data.json as { id: string }[];
    expect(stillOpen.map((m) => m.id)).not.toContain(message!.id);
    const handled = (await call('console.messages.list', { show: 'handled' })).body.result!.data.json as { id: string; handledBy: string }[];
    expect(handled.find((m) => m.id === message!.id)!.handledBy).toBe('Test staff');
  });
});
