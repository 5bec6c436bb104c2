import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { actMessages } from '../../src/shared/notarial-act.ts';
import { identityConfirmed } from '../helpers/identity.ts';
import { auditLog, bookings, customers, documents, notarySessions, outbox, sessionRecordings } from '../../src/server/db/schema.ts';
import { buildDeps, type Deps } from '../../src/server/deps.ts';
import { createApp } from '../../src/server/app.ts';
import { openPostgres } from '../../src/server/db/client.ts';
import { createLogger } from '../../src/server/logger.ts';
import { attachChat } from '../../src/server/features/chat/socket.ts';
import { hashToken } from '../../src/server/tokens.ts';
import { enqueueReminder } from '../../src/server/features/notifications/events.ts';
import { actChanged } from '../../src/server/features/act/service.ts';
import { fillSecrets, secretPlaceholder } from '../../src/server/features/notifications/secrets.ts';
import { purgeExpiredRecordings } from '../../src/server/features/retention/service.ts';
import { chunkKey, notifyStalledRecordings, recordingKey } from '../../src/server/features/session/recording-service.ts';
import { durationsMs, indexWebm } from '../../src/server/features/session/webm.ts';
import { assemblyIdle, runAssemblies } from '../../src/server/features/session/assembly.ts';
import { sweepStorage } from '../../src/server/features/storage-sweep/sweep.ts';
import { iceServersFor, turnCredential } from '../../src/server/features/session/ice.ts';
import { attachSessionRoom, type SessionRoomServer } from '../../src/server/features/session/socket.ts';
import type { SessionClientEvents, SessionServerEvents } from '../../src/shared/session.ts';
import { startChatApp, type ChatTestApp } from '../helpers/chat.ts';
import { dbKinds } from '../helpers/db.ts';
import { createStaffUser, trpcHttp, type TestStaffUser } from '../helpers/staff.ts';

type RoomClient = Socket<SessionServerEvents, SessionClientEvents>;

describe('TURN credentials (coturn use-auth-secret)', () => {
  it('derives username expiry:participant and base64 HMAC-SHA1 of it with the shared secret', () => {
    const now = new Date('2027-01-01T00:00:00Z');
    const { username, credential } = turnCredential('s3cret', 'customer-1234', now, 3600);
    expect(username).toBe(`${now.getTime() / 1000 + 3600}:customer-1234`);
    expect(credential).toBe(createHmac('sha1', 's3cret').update(username).digest('base64'));
  });

  it('lists only configured servers: nothing by default, no public STUN host', () => {
    const base = { STUN_URLS: undefined, TURN_URLS: undefined, TURN_SECRET: undefined, TURN_CREDENTIAL_TTL_SECONDS: 600 };
    expect(iceServersFor(base, 'x', new Date())).toEqual([]);
    const servers = iceServersFor({ ...base, STUN_URLS: 'stun:turn.example.test:3478', TURN_URLS: 'turn:turn.example.test:3478, turns:turn.example.test:5349', TURN_SECRET: 'k' }, 'x', new Date());
    expect(servers[0]).toEqual({ urls: ['stun:turn.example.test:3478'] });
    expect(servers[1]).toMatchObject({ urls: ['turn:turn.example.test:3478', 'turns:turn.example.test:5349'], username: expect.stringMatching(/^\d+:x$/) });
  });
});

describe.each(dbKinds)('session room (%s)', (kind) => {
  let app: ChatTestApp;
  let room: SessionRoomServer;
  let notary: TestStaffUser;
  let otherNotary: TestStaffUser;
  let staff: TestStaffUser;
  let admin: TestStaffUser;
  const sockets: RoomClient[] = [];

  beforeAll(async () => {
    app = await startChatApp(kind);
    room = attachSessionRoom(app.chat.io, app.deps);
    // On PostgreSQL: the connection between nodes is up (its first heartbeat answered) before the room is used.
    for (const deadline = Date.now() + 20_000; app.chat.fanOut && app.chat.fanOut.downForMs() > 0 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 200));
    notary = await createStaffUser(app.deps, { role: 'notary' });
    otherNotary = await createStaffUser(app.deps, { role: 'notary' });
    staff = await createStaffUser(app.deps, { role: 'staff' });
    admin = await createStaffUser(app.deps, { role: 'admin' });
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.disconnect();
  });
  afterAll(async () => {
    await room?.close();
    await app?.close();
  });

  async function booking(deps: Deps, options: { startsInMinutes?: number; status?: 'confirmed' | 'cancelled'; notaryId?: string | null } = {}) {
    const [customer] = await deps.db.insert(customers).values({ firstName: 'Ada', lastName: 'Lovelace', email: `ada-${randomUUID().slice(0, 6)}@example.com` }).returning();
    const token = randomBytes(32).toString('base64url');
    const [row] = await deps.db
      .insert(bookings)
      .values({
        reference: `NOTARY-${randomUUID().slice(0, 8).toUpperCase()}`,
        status: options.status ?? 'confirmed',
        startsAt: new Date(Date.now() + (options.startsInMinutes ?? 5) * 60_000),
        priceCents: 2500,
        customerId: customer!.id,
        notaryId: options.notaryId === undefined ? notary.id : options.notaryId,
        manageTokenHash: hashToken(token),
      })
      .returning();
    // Identity proofing is a start precondition (features/notarial-act): done and confirmed here.
    if (row!.notaryId) await identityConfirmed(deps, row!.id, row!.notaryId);
    return { id: row!.id, token };
  }

  function connect(auth: Record<string, string>, cookie?: string, url = app.url): RoomClient {
    const socket: RoomClient = io(`${url}/session`, { transports: ['websocket'], forceNew: true, reconnection: false, auth, extraHeaders: cookie ? { cookie } : {} });
    sockets.push(socket);
    // Listened for from the start: a socket may connect while the test awaits something else.
    outcomes.set(
      socket,
      new Promise((resolve) => {
        socket.once('connect', () => resolve('connected'));
        socket.once('connect_error', (error) => resolve(error.message));
      }),
    );
    return socket;
  }

  const outcomes = new WeakMap<RoomClient, Promise<'connected' | string>>();
  function outcome(socket: RoomClient): Promise<'connected' | string> {
    return outcomes.get(socket)!;
  }

  function join(socket: RoomClient) {
    return new Promise<Parameters<Parameters<SessionClientEvents['join']>[0]>[0]>((resolve) => socket.emit('join', resolve));
  }

  it('lets in the customer (manage token) and the assigned notary, and relays signals, chat and room events between them', async () => {
    const b = await booking(app.deps);
    const customer = connect({ token: b.token });
    const notarySocket = connect({ bookingId: b.id }, await notary.sessionCookie());
    expect(await outcome(customer)).toBe('connected');
    expect(await outcome(notarySocket)).toBe('connected');
    const first = await join(customer);
    expect(first).toMatchObject({ ok: true, role: 'customer', peers: [], iceServers: [] });
    const peerJoined = new Promise<{ id: string; role: string }>((resolve) => customer.once('peer:joined', resolve));
    const second = await join(notarySocket);
    expect(second).toMatchObject({ ok: true, role: 'notary', peers: [{ id: customer.id, role: 'customer', participantId: null }] });
    expect(await peerJoined).toEqual({ id: notarySocket.id, role: 'notary', participantId: null });

    const signal = new Promise<unknown>((resolve) => customer.once('signal', resolve));
    notarySocket.emit('signal', { to: customer.id!, attempt: 1, description: { type: 'offer', sdp: 'v=0' } });
    expect(await signal).toEqual({ to: customer.id, from: notarySocket.id, attempt: 1, description: { type: 'offer', sdp: 'v=0' } });

    const chat = new Promise<{ body: string; sender: string }>((resolve) => notarySocket.once('chat', resolve));
    const sent = await new Promise<{ ok: boolean }>((resolve) => customer.emit('chat', { clientId: randomUUID(), body: 'G-R-A-C-E' }, resolve));
    expect(sent.ok).toBe(true);
    expect(await chat).toMatchObject({ body: 'G-R-A-C-E', sender: 'customer' });

    const event = new Promise<unknown>((resolve) => customer.once('room:event', resolve));
    notarySocket.emit('room:event', { type: 'document:focus', payload: { documentId: 'x', page: 2 } });
    expect(await event).toEqual({ type: 'document:focus', payload: { documentId: 'x', page: 2 }, from: 'notary' });
  });

  it.runIf(kind === 'postgres')('announces a joiner to the room only once it has its answer: the other side’s first offer never overtakes it', async () => {
    const b = await booking(app.deps);
    const notarySocket = connect({ bookingId: b.id }, await notary.sessionCookie());
    const customer = connect({ token: b.token });
    expect(await outcome(notarySocket)).toBe('connected');
    expect(await outcome(customer)).toBe('connected');
    await join(notarySocket);
    await app.deps.db.insert(notarySessions).values({ bookingId: b.id });
    // The customer's join is slow to answer: another connection holds the session's row, which
    // the join records the customer's arrival in, for half a second.
    const holder = new pg.Client({ connectionString: (app.deps.database as { url?: string }).url });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT 1 FROM notary_sessions WHERE booking_id = $1 FOR UPDATE', [b.id]);
    const released = new Promise((resolve) => setTimeout(resolve, 500)).then(() => holder.query('COMMIT')).finally(() => holder.end());
    // The notary's side offers the moment it hears of the customer, as the room does.
    notarySocket.once('peer:joined', (peer) => notarySocket.emit('signal', { to: peer.id, attempt: 1, description: { type: 'offer', sdp: 'v=0' } }));
    const order: string[] = [];
    const offered = new Promise<void>((resolve) =>
      customer.once('signal', () => {
        order.push('offer');
        resolve();
      }),
    );
    const answer = await join(customer);
    order.push('answer');
    await Promise.all([offered, released]);
    expect(answer).toMatchObject({ ok: true, peers: [expect.objectContaining({ id: notarySocket.id })] });
    expect(order).toEqual(['answer', 'offer']);
  });

  it('refuses a stranger, another booking’s token, an unassigned notary, staff, admins, a cancelled or not yet open booking', async () => {
    const b = await booking(app.deps);
    const other = await booking(app.deps, { notaryId: otherNotary.id });
    const cancelled = await booking(app.deps, { status: 'cancelled' });
    const later = await booking(app.deps, { startsInMinutes: 120 });
    const refusals = await Promise.all([
      outcome(connect({ token: 'x'.repeat(43) })),
      outcome(connect({ bookingId: b.id })),
      outcome(connect({ bookingId: b.id }, await otherNotary.sessionCookie())),
      outcome(connect({ bookingId: b.id }, await staff.sessionCookie())),
      outcome(connect({ bookingId: b.id }, await admin.sessionCookie())),
      outcome(connect({ token: cancelled.token })),
      outcome(connect({ token: later.token })),
      outcome(connect({ bookingId: other.id }, await notary.sessionCookie())),
    ]);
    expect(refusals).toEqual([
      'We could not find this session. Please use the link in your confirmation email.',
      'Please sign in.',
      'This appointment is not assigned to you.',
      'This appointment is not assigned to you.',
      'This appointment is not assigned to you.',
      'This video session has ended.',
      'The video session opens 10 minutes before your appointment.',
      'This appointment is not assigned to you.',
    ]);
    // The same refusals over tRPC and for recordings.
    const get = await trpcHttp(app.url, 'session.get', { type: 'query', input: { bookingId: b.id }, cookie: await otherNotary.sessionCookie() });
    expect(get.status).toBe(403);
    const start = await trpcHttp(app.url, 'session.start', { input: { bookingId: b.id }, cookie: await otherNotary.sessionCookie() });
    expect(start.status).toBe(403);
  });

  it('rate limits a socket that floods signalling', async () => {
    const b = await booking(app.deps);
    const customer = connect({ token: b.token });
    await outcome(customer);
    await join(customer);
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => new Promise<{ ok: boolean; error?: string }>((resolve) => customer.emit('signal', { to: 'nobody', attempt: 1, candidate: null }, (r) => resolve(r as { ok: boolean; error?: string })))),
    );
    const refused = answers.filter((a) => !a.ok);
    expect(refused.length).toBeGreaterThan(50);
    expect(refused[0]!.error).toBe('Too many requests. Please wait a moment and try again.');
  });

  it('cuts a participant off at their next event once the booking is cancelled (access re-checked on the change, not per event)', async () => {
    const b = await booking(app.deps);
    const customer = connect({ token: b.token });
    await outcome(customer);
    await join(customer);
    // Changed behind the services' back: nothing says access changed, so the check made at the handshake stands (until its TTL).
    await app.deps.db.update(bookings).set({ status: 'cancelled' }).where(eq(bookings.id, b.id));
    const stillIn = await new Promise<{ ok: boolean }>((resolve) => customer.emit('chat', { clientId: randomUUID(), body: 'still here?' }, resolve));
    expect(stillIn.ok).toBe(true);
    // The cancellation as the services make it says so: the next event is checked again and refused.
    actChanged(app.deps, b.id, 'access');
    const closed = new Promise<{ reason: string }>((resolve) => customer.once('session:closed', resolve));
    customer.emit('chat', { clientId: randomUUID(), body: 'hello?' }, () => {});
    expect(await closed).toEqual({ reason: 'This video session has ended.' });
  });

  it('handshake refusals carry a code the client branches on (not the wording)', async () => {
    const stranger = connect({ token: 'y'.repeat(43) });
    const refused = await new Promise<Error & { data?: { code?: string } }>((resolve) => stranger.once('connect_error', resolve));
    expect(refused.data).toEqual({ code: 'closed' });
  });

  it('room chat: a NUL or a bidi override is refused with a code (not stored, not logged); message ids are per sender', async () => {
    const b = await booking(app.deps);
    const customer = connect({ token: b.token });
    const notarySocket = connect({ bookingId: b.id }, await notary.sessionCookie());
    await outcome(customer);
    await outcome(notarySocket);
    await join(customer);
    await join(notarySocket);
    const send = (socket: RoomClient, clientId: string, body: string) =>
      new Promise<{ ok: boolean; error?: string; code?: string; message?: { body: string; sender: string } }>((resolve) => socket.emit('chat', { clientId, body }, resolve as never));
    for (const body of ['null\u0000byte', 'invoice\u202Efdp.exe']) {
      expect(await send(customer, randomUUID(), body)).toEqual({ ok: false, error: 'Messages cannot contain control characters.', code: 'invalid' });
    }
    // Line breaks and tabs are text.
    expect((await send(customer, randomUUID(), 'line one\n\tline two')).ok).toBe(true);
    // The same client id from both sides: two messages, neither dropped.
    const shared = randomUUID();
    expect((await send(customer, shared, 'from the customer')).message).toMatchObject({ body: 'from the customer', sender: 'customer' });
    expect((await send(notarySocket, shared, 'from the notary')).message).toMatchObject({ body: 'from the notary', sender: 'notary' });
    expect((await send(notarySocket, shared, 'from the notary')).message).toMatchObject({ body: 'from the notary' }); // a resend stays one
    const history = await join(customer);
    expect(history.ok && history.messages.filter((m) => m.clientId === shared).map((m) => m.sender).sort()).toEqual(['customer', 'notary']);
  });

  it('records in chunks (idempotent, notary only), assembles one private object, plays back with ranges for the notary and admins, and finishes', async () => {
    const b = await booking(app.deps, { startsInMinutes: -1 });
    const notaryCookie = await notary.sessionCookie();

    const early = await trpcHttp(app.url, 'session.finish', { input: { bookingId: b.id, outcome: 'completed' }, cookie: notaryCookie });
    expect(early.status).toBe(409);
    expect(early.body.error?.json.message).toBe('Record the session before finishing it.');

    const started = await trpcHttp(app.url, 'session.start', { input: { bookingId: b.id }, cookie: notaryCookie });
    expect(started.status).toBe(200);
    const { recordingId } = started.body.result!.data.json as { recordingId: string };
    const put = (seq: number, body: Buffer, cookie?: string) =>
      fetch(`${app.url}/api/session/recordings/${recordingId}/chunks/${seq}`, { method: 'PUT', headers: { 'content-type': 'application/octet-stream', ...(cookie ? { cookie } : {}) }, body: new Uint8Array(body) });
    const parts = [Buffer.from('first-chunk|'), Buffer.from('second-chunk|'), Buffer.from('third')];
    expect((await put(1, parts[1]!, notaryCookie)).status).toBe(201);
    expect((await put(0, parts[0]!, notaryCookie)).status).toBe(201);
    expect((await put(0, parts[0]!, notaryCookie)).status).toBe(200); // a re-send
    expect((await put(0, Buffer.from('different'), notaryCookie)).status).toBe(409);
    expect((await put(2, parts[2]!)).status).toBe(401);
    expect((await put(2, parts[2]!, await otherNotary.sessionCookie())).status).toBe(403);
    expect((await put(2, Buffer.alloc(9 * 1024 * 1024), notaryCookie)).status).toBe(413);

    const missing = await trpcHttp(app.url, 'session.stopRecording', { input: { recordingId, chunkCount: 3 }, cookie: notaryCookie });
    expect(missing.body.result!.data.json).toEqual({ missing: [2] });
    expect((await put(2, parts[2]!, notaryCookie)).status).toBe(201);
    const stopped = await trpcHttp(app.url, 'session.stopRecording', { input: { recordingId, chunkCount: 3 }, cookie: notaryCookie });
    expect(stopped.body.result!.data.json).toEqual({ missing: [] });
    // Stop only queued it: the background job (here this node's, kicked by Stop) assembles.
    await assemblyIdle(app.deps);

    const [row] = await app.deps.db.select().from(sessionRecordings).where(eq(sessionRecordings.id, recordingId));
    expect(row).toMatchObject({ status: 'stored', chunkCount: 3, sizeBytes: Buffer.concat(parts).length });
    expect(row!.storageKey).toBe(`recordings/${b.id}/${recordingId}.webm`);
    const object = await app.deps.storage.get(row!.storageKey);
    const whole: Buffer[] = [];
    for await (const piece of object.body) whole.push(piece as Buffer);
    expect(Buffer.concat(whole).toString()).toBe('first-chunk|second-chunk|third');

    const play = (cookie: string | null, range?: string) => fetch(`${app.url}/api/session/recordings/${recordingId}`, { headers: { ...(cookie ? { cookie } : {}), ...(range ? { range } : {}) } });
    const ranged = await play(notaryCookie, 'bytes=6-10');
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 6-10/${row!.sizeBytes}`);
    expect(await ranged.text()).toBe('chunk');
    expect((await play(await admin.sessionCookie())).status).toBe(200);
    expect((await play(await staff.sessionCookie())).status).toBe(403);
    expect((await play(await otherNotary.sessionCookie())).status).toBe(403);
    expect((await play(null)).status).toBe(401);
    expect((await play(notaryCookie, 'bytes=999-1000')).status).toBe(416);
    const played = await app.deps.db.select().from(auditLog).where(eq(auditLog.action, 'session.recording_played'));
    expect(played.filter((a) => (a.data as { recordingId: string }).recordingId === recordingId)).toHaveLength(1);

    const finished = await trpcHttp(app.url, 'session.finish', { input: { bookingId: b.id, outcome: 'completed' }, cookie: notaryCookie });
    expect(finished.status).toBe(200);
    const [after] = await app.deps.db.select({ status: bookings.status }).from(bookings).where(eq(bookings.id, b.id));
    expect(after!.status).toBe('completed');
    const mail = await app.deps.db.select().from(outbox).where(eq(outbox.dedupeKey, `session-finished:${b.id}`));
    expect(mail[0]).toMatchObject({ kind: 'session_completed' });

    // Retention: once the period has passed, the object goes and the row says so.
    await app.deps.db.update(sessionRecordings).set({ storedAt: new Date(Date.now() - (app.deps.config.RECORDING_RETENTION_DAYS + 1) * 86_400_000) }).where(eq(sessionRecordings.id, recordingId));
    const purged = await purgeExpiredRecordings(app.deps);
    expect(purged.deleted).toBe(1);
    expect(await app.deps.storage.exists(row!.storageKey)).toBe(false);
  });

  /** A running recording with `parts` received, on a booking of the notary that started a minute ago. */
  async function runningRecording(parts: Buffer[]) {
    const b = await booking(app.deps, { startsInMinutes: -1 });
    const cookie = await notary.sessionCookie();
    const started = await trpcHttp(app.url, 'session.start', { input: { bookingId: b.id }, cookie });
    const { recordingId } = started.body.result!.data.json as { recordingId: string };
    for (const [seq, body] of parts.entries()) {
      const res = await fetch(`${app.url}/api/session/recordings/${recordingId}/chunks/${seq}`, { method: 'PUT', headers: { 'content-type': 'application/octet-stream', cookie }, body: new Uint8Array(body) });
      expect(res.status).toBe(201);
    }
    const stop = () => trpcHttp(app.url, 'session.stopRecording', { input: { recordingId, chunkCount: parts.length }, cookie });
    const row = async () => (await app.deps.db.select().from(sessionRecordings).where(eq(sessionRecordings.id, recordingId)))[0]!;
    return { b, cookie, recordingId, stop, row };
  }

  /** Holds storage writes of recordings until released (a slow store, a long recording). */
  function holdRecordingWrites() {
    const put = app.deps.storage.put.bind(app.deps.storage);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let held = 0;
    app.deps.storage.put = async (key, body, options) => {
      if (key.endsWith('.webm')) {
        held++;
        await gate;
      }
      return put(key, body, options);
    };
    return {
      held: () => held,
      release() {
        release();
        app.deps.storage.put = put;
      },
    };
  }

  it('Stop only queues the assembly and answers at once; the room says the recording is being saved; Finish waits for it and succeeds once stored', async () => {
    const r = await runningRecording([Buffer.from('one|'), Buffer.from('two')]);
    const hold = holdRecordingWrites();
    try {
      const started = Date.now();
      const stopped = await r.stop();
      expect(stopped.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(1_000);
      await vi.waitFor(() => expect(hold.held()).toBe(1));
      expect(await r.row()).toMatchObject({ status: 'assembling', assemblyLeaseUntil: expect.any(Date) });
      const view = await trpcHttp(app.url, 'session.get', { type: 'query', input: { bookingId: r.b.id }, cookie: r.cookie });
      expect(view.body.result!.data.json).toMatchObject({ recordingActive: false, recordingSaving: true, finishBlockers: expect.arrayContaining(['Saving the recording… Finish again in a moment.']) });
      // Finish waits for the assembly (released while it waits) and then succeeds.
      const finishing = trpcHttp(app.url, 'session.finish', { input: { bookingId: r.b.id, outcome: 'completed' }, cookie: r.cookie });
      setTimeout(() => hold.release(), 300);
      expect((await finishing).status).toBe(200);
      expect(await r.row()).toMatchObject({ status: 'stored', chunkCount: 2, assemblyLeaseUntil: null });
    } finally {
      hold.release();
      await assemblyIdle(app.deps);
    }
  });

  it('an assembly whose node died (kill -9: the lease ran out) is taken over by the next Stop or the background run; a live lease is left alone', async () => {
    const r = await runningRecording([Buffer.from('a|'), Buffer.from('b')]);
    // What a node killed mid-assembly leaves: queued, claimed, the bytes never written.
    await app.deps.db.update(sessionRecordings).set({ status: 'assembling', assemblyLeaseUntil: new Date(Date.now() + 60_000) }).where(eq(sessionRecordings.id, r.recordingId));
    expect((await r.stop()).status).toBe(200);
    await assemblyIdle(app.deps);
    expect(await runAssemblies(app.deps)).toBe(0);
    expect((await r.row()).status).toBe('assembling');
    // Finishing now is refused with the status, not wedged: it waits (bounded) and says so.
    const blocked = await trpcHttp(app.url, 'session.get', { type: 'query', input: { bookingId: r.b.id }, cookie: r.cookie });
    expect((blocked.body.result!.data.json as { recordingSaving: boolean }).recordingSaving).toBe(true);

    // The lease runs out: the next Stop takes it over.
    await app.deps.db.update(sessionRecordings).set({ assemblyLeaseUntil: new Date(Date.now() - 1) }).where(eq(sessionRecordings.id, r.recordingId));
    expect((await r.stop()).status).toBe(200);
    await assemblyIdle(app.deps);
    expect(await r.row()).toMatchObject({ status: 'stored', chunkCount: 2 });

    // Or the background run (every node's): same for a recording nobody stops again.
    const other = await runningRecording([Buffer.from('c')]);
    await app.deps.db.update(sessionRecordings).set({ status: 'assembling', assemblyLeaseUntil: new Date(Date.now() - 1) }).where(eq(sessionRecordings.id, other.recordingId));
    expect(await runAssemblies(app.deps)).toBe(1);
    expect(await other.row()).toMatchObject({ status: 'stored', chunkCount: 1 });
    expect((await trpcHttp(app.url, 'session.finish', { input: { bookingId: other.b.id, outcome: 'completed' }, cookie: other.cookie })).status).toBe(200);
  });

  it('a failed assembly (storage refusing) stays queued with a back-off and is retried, never lost', async () => {
    const r = await runningRecording([Buffer.from('x')]);
    const put = app.deps.storage.put.bind(app.deps.storage);
    app.deps.storage.put = async (key, body, options) => {
      if (key.endsWith('.webm')) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
      return put(key, body, options);
    };
    try {
      expect((await r.stop()).status).toBe(200);
      await assemblyIdle(app.deps);
    } finally {
      app.deps.storage.put = put;
    }
    const failed = await r.row();
    expect(failed).toMatchObject({ status: 'assembling', assemblyAttempts: 1 });
    expect(failed.assemblyLeaseUntil!.getTime()).toBeGreaterThan(Date.now());
    // Backing off: not claimed again yet.
    expect(await runAssemblies(app.deps)).toBe(0);
    await app.deps.db.update(sessionRecordings).set({ assemblyLeaseUntil: new Date(Date.now() - 1) }).where(eq(sessionRecordings.id, r.recordingId));
    expect(await runAssemblies(app.deps)).toBe(1);
    expect(await r.row()).toMatchObject({ status: 'stored', chunkCount: 1 });
  });

  /**
   * Issue 26: the stored WebM had no duration and no cues. A browser's real
   * chunks (tests/fixtures/mediarecorder-live.webm, cut where the uploads
   * happen to cut) are stored seekable, with the SHA-256 of the file as
   * stored in the row and the audit trail (decision 103).
   */
  it('a MediaRecorder recording is stored with its duration and cues, and the SHA-256 of the stored file in the row and the audit trail', async () => {
    const live = readFileSync('tests/fixtures/mediarecorder-live.webm');
    const r = await runningRecording([live.subarray(0, 30_000), live.subarray(30_000, 30_001), live.subarray(30_001, 90_000), live.subarray(90_000)]);
    expect((await r.stop()).status).toBe(200);
    await assemblyIdle(app.deps);
    const row = await r.row();
    const pieces: Buffer[] = [];
    for await (const piece of (await app.deps.storage.get(row.storageKey)).body) pieces.push(piece as Buffer);
    const stored = Buffer.concat(pieces);
    const sha256 = createHash('sha256').update(stored).digest('hex');
    expect(row).toMatchObject({ status: 'stored', chunkCount: 4, sizeBytes: stored.length, sha256, durationMs: 4179 });
    // Rewritten, not just joined: a Segment of known size, and the same media read back.
    expect(stored.equals(live)).toBe(false);
    const again = await indexWebm([stored]);
    expect(durationsMs(again).durationMs).toBe(4179);
    expect(again.clusters.filter((c) => c.cueTime !== null).length).toBeGreaterThan(1);
    const [audit] = await app.deps.db.select().from(auditLog).where(and(eq(auditLog.action, 'session.recording_stored'), eq(auditLog.entityId, r.b.id)));
    expect(audit!.data).toMatchObject({ recordingId: r.recordingId, sha256, sizeBytes: stored.length, durationMs: 4179, seekable: true });
  });

  it('a running recording whose chunks stop arriving: the notary’s room is told once and shows it; the next chunk clears it', async () => {
    const r = await runningRecording([Buffer.from('one|')]);
    const view = async (access: { bookingId: string } | { token: string }, cookie?: string) =>
      (await trpcHttp(app.url, 'session.get', { type: 'query', input: access, ...(cookie ? { cookie } : {}) })).body.result!.data.json as { recordingStalled: boolean };
    expect((await view({ bookingId: r.b.id }, r.cookie)).recordingStalled).toBe(false);
    expect(await notifyStalledRecordings(app.deps)).not.toContain(r.b.id);

    // The last chunk came longer ago than RECORDING_STALL_SECONDS.
    const stallMs = app.deps.config.RECORDING_STALL_SECONDS * 1000;
    await app.deps.db.update(sessionRecordings).set({ lastChunkAt: new Date(Date.now() - stallMs - 1000) }).where(eq(sessionRecordings.id, r.recordingId));
    const notarySocket = connect({ bookingId: r.b.id }, r.cookie);
    expect(await outcome(notarySocket)).toBe('connected');
    await join(notarySocket);
    const told = new Promise<void>((resolve) => notarySocket.once('session:updated', () => resolve()));
    expect(await notifyStalledRecordings(app.deps)).toContain(r.b.id);
    await told;
    expect((await view({ bookingId: r.b.id }, r.cookie)).recordingStalled).toBe(true);
    expect((await view({ token: r.b.token })).recordingStalled).toBe(false);
    // Told once per stall, whichever node looks next.
    expect(await notifyStalledRecordings(app.deps)).not.toContain(r.b.id);

    // The uploads catch up: the room is told again and the warning goes.
    const toldAgain = new Promise<void>((resolve) => notarySocket.once('session:updated', () => resolve()));
    const res = await fetch(`${app.url}/api/session/recordings/${r.recordingId}/chunks/1`, { method: 'PUT', headers: { 'content-type': 'application/octet-stream', cookie: r.cookie }, body: new Uint8Array(Buffer.from('two')) });
    expect(res.status).toBe(201);
    await toldAgain;
    expect((await view({ bookingId: r.b.id }, r.cookie)).recordingStalled).toBe(false);
    expect(await notifyStalledRecordings(app.deps)).not.toContain(r.b.id);
  });

  it('no-show: refused before the start, then the customer gets "we missed you" with a working manage link', async () => {
    const future = await booking(app.deps);
    const early = await trpcHttp(app.url, 'session.finish', { input: { bookingId: future.id, outcome: 'no_show', reason: 'Did not join' }, cookie: await notary.sessionCookie() });
    expect(early.body.error?.json.message).toBe('A no-show can only be recorded once the appointment time has passed.');

    const b = await booking(app.deps, { startsInMinutes: -20 });
    const res = await trpcHttp(app.url, 'session.finish', { input: { bookingId: b.id, outcome: 'no_show', reason: 'Did not join' }, cookie: await notary.sessionCookie() });
    expect(res.status).toBe(200);
    const [mail] = await app.deps.db.select().from(outbox).where(eq(outbox.dedupeKey, `session-finished:${b.id}`));
    const payload = mail!.payload as { message: { to: string; subject: string; text: string; html: string }; sealedSecrets: Record<string, string> };
    expect(payload.message.subject).toContain('We missed you');
    // Stored with a placeholder only; the link is filled in at send time.
    expect(payload.message.text).toContain(`/booking/${secretPlaceholder('manage_token')}`);
    const sent = fillSecrets(app.deps.secrets, payload.message, payload.sealedSecrets);
    const link = /\/booking\/([A-Za-z0-9_-]{43})/.exec(sent.text)![1]!;
    const view = await trpcHttp(app.url, 'manageBooking.get', { type: 'query', input: { token: link } });
    expect(view.body.result!.data.json).toMatchObject({ id: b.id, status: 'no_show' });
  });

  it('the 24-hour reminder carries the manage link and the Join video session link', async () => {
    const b = await booking(app.deps, { startsInMinutes: 23 * 60 });
    const queued = await app.deps.db.transaction((tx) => enqueueReminder(tx, app.deps, b.id));
    expect(queued).toBe(true);
    const [mail] = await app.deps.db.select().from(outbox).where(eq(outbox.kind, 'booking_reminder'));
    const stored = mail!.payload as { message: { to: string; subject: string; text: string; html: string }; sealedSecrets: Record<string, string> };
    expect(stored.message.text).not.toMatch(/\/booking\/[A-Za-z0-9_-]{43}/);
    const payload = { message: fillSecrets(app.deps.secrets, stored.message, stored.sealedSecrets) };
    const token = /\/booking\/([A-Za-z0-9_-]{43})\/session/.exec(payload.message.text)![1]!;
    expect(payload.message.html).toContain('Join video session');
    expect(payload.message.text).toContain(`/booking/${token}`);
    expect(payload.message.text).not.toContain('use the link in your confirmation email');
    const view = await trpcHttp(app.url, 'manageBooking.get', { type: 'query', input: { token } });
    expect(view.body.result!.data.json).toMatchObject({ id: b.id });
  });

  it('the notary’s working day: assignment email and badge, staff reschedule for the customer', async () => {
    const b = await booking(app.deps, { startsInMinutes: 3 * 24 * 60, notaryId: null });
    const staffCookie = await staff.sessionCookie();
    const notaryCookie = await notary.sessionCookie();
    const before = (await trpcHttp(app.url, 'console.newAppointments', { type: 'query', cookie: notaryCookie })).body.result!.data.json as number;
    expect((await trpcHttp(app.url, 'console.bookings.assignNotary', { input: { bookingId: b.id, notaryId: notary.id }, cookie: staffCookie })).status).toBe(200);
    const assigned = await app.deps.db.select().from(outbox).where(eq(outbox.kind, 'notary_assigned'));
    expect(assigned.map((m) => (m.payload as { message: { to: string } }).message.to)).toContain(notary.email);
    expect((await trpcHttp(app.url, 'console.newAppointments', { type: 'query', cookie: notaryCookie })).body.result!.data.json).toBe(before + 1);
    const list = (await trpcHttp(app.url, 'console.appointments', { type: 'query', cookie: notaryCookie })).body.result!.data.json as { appointments: { id: string; isNew: boolean }[] };
    expect(list.appointments.find((a) => a.id === b.id)).toMatchObject({ isNew: true });
    await trpcHttp(app.url, 'console.bookings.get', { type: 'query', input: { bookingId: b.id }, cookie: notaryCookie });
    expect((await trpcHttp(app.url, 'console.newAppointments', { type: 'query', cookie: notaryCookie })).body.result!.data.json).toBe(before);

    const date = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Chicago' }).format(new Date(Date.now() + 5 * 86400_000));
    const slots = (await trpcHttp(app.url, 'slots.list', { type: 'query', input: { date, timeZone: 'America/Chicago' } })).body.result!.data.json as { slots: { startsAt: string; available: boolean }[] };
    const free = slots.slots.find((s) => s.available)!;
    expect((await trpcHttp(app.url, 'console.bookings.reschedule', { input: { bookingId: b.id, startsAt: free.startsAt }, cookie: notaryCookie })).status).toBe(403);
    expect((await trpcHttp(app.url, 'console.bookings.reschedule', { input: { bookingId: b.id, startsAt: free.startsAt }, cookie: staffCookie })).status).toBe(200);
    const [moved] = await app.deps.db.select({ startsAt: bookings.startsAt }).from(bookings).where(eq(bookings.id, b.id));
    expect(moved!.startsAt!.toISOString()).toBe(new Date(free.startsAt).toISOString());
    const mails = await app.deps.db.select().from(outbox).where(eq(outbox.kind, 'booking_rescheduled'));
    expect(mails.some((m) => (m.payload as { message: { text: string } }).message.text.includes('our team moved your appointment'))).toBe(true);
  });

  it('the manage page’s Join video session is live from 10 minutes before the start until the session is finished', async () => {
    const later = await booking(app.deps, { startsInMinutes: 120 });
    const soon = await booking(app.deps, { startsInMinutes: 5 });
    const laterView = (await trpcHttp(app.url, 'manageBooking.get', { type: 'query', input: { token: later.token } })).body.result!.data.json as { canJoinSession: boolean; sessionOpensAt: string };
    expect(laterView.canJoinSession).toBe(false);
    const [row] = await app.deps.db.select({ startsAt: bookings.startsAt }).from(bookings).where(eq(bookings.id, later.id));
    expect(new Date(laterView.sessionOpensAt).getTime()).toBe(row!.startsAt!.getTime() - 10 * 60_000);
    const soonView = (await trpcHttp(app.url, 'manageBooking.get', { type: 'query', input: { token: soon.token } })).body.result!.data.json as { canJoinSession: boolean };
    expect(soonView.canJoinSession).toBe(true);
    await app.deps.db.update(bookings).set({ status: 'completed' }).where(eq(bookings.id, soon.id));
    const doneView = (await trpcHttp(app.url, 'manageBooking.get', { type: 'query', input: { token: soon.token } })).body.result!.data.json as { canJoinSession: boolean; sessionOpensAt: string | null };
    expect(doneView).toMatchObject({ canJoinSession: false, sessionOpensAt: null });
  });

  it.runIf(kind === 'postgres')('signals across two nodes through the PostgreSQL adapter', async () => {
    const databaseUrl = (app.deps.database as { url?: string }).url!;
    const database = await openPostgres(databaseUrl, { max: 5 });
    const deps = await buildDeps(app.deps.config, database, createLogger('silent'));
    const { app: express, close } = await createApp(deps, { pages: false });
    const server = createServer(express);
    const chat = await attachChat(server, deps);
    const secondRoom = attachSessionRoom(chat.io, deps);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const secondUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const b = await booking(app.deps);
      const customer = connect({ token: b.token });
      const notarySocket = connect({ bookingId: b.id }, await notary.sessionCookie(), secondUrl);
      expect(await outcome(customer)).toBe('connected');
      expect(await outcome(notarySocket)).toBe('connected');
      await join(customer);
      const joined = await join(notarySocket);
      expect(joined).toMatchObject({ ok: true, peers: [expect.objectContaining({ id: customer.id })] });
      const signal = new Promise<unknown>((resolve) => customer.once('signal', resolve));
      notarySocket.emit('signal', { to: customer.id!, attempt: 1, candidate: { candidate: 'candidate:1 1 udp 1 127.0.0.1 5000 typ host', sdpMid: '0', sdpMLineIndex: 0 } });
      expect(await signal).toMatchObject({ from: notarySocket.id, candidate: { sdpMid: '0' } });
    } finally {
      await secondRoom.close();
      await chat.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await close();
      await database.close();
    }
  });

  it('the orphan sweep keeps live recordings and running chunks, and removes leftovers', async () => {
    const b = await booking(app.deps);
    const put = (key: string) => app.deps.storage.put(key, Readable.from([Buffer.from('x')]), { contentType: 'application/octet-stream', upsert: true });
    const stored = randomUUID();
    const running = randomUUID();
    const gone = randomUUID();
    await app.deps.db.insert(sessionRecordings).values([
      { id: stored, bookingId: b.id, mimeType: 'video/webm', storageKey: recordingKey(b.id, stored), status: 'stored' },
      { id: running, bookingId: b.id, mimeType: 'video/webm', storageKey: recordingKey(b.id, running), status: 'recording' },
      { id: gone, bookingId: b.id, mimeType: 'video/webm', storageKey: recordingKey(b.id, gone), status: 'deleted' },
    ]);
    const keys = {
      stored: recordingKey(b.id, stored),
      leftoverChunk: chunkKey(b.id, stored, 0),
      runningChunk: chunkKey(b.id, running, 3),
      deleted: recordingKey(b.id, gone),
    };
    for (const key of Object.values(keys)) await put(key);
    await sweepStorage({ ...app.deps, now: () => new Date(Date.now() + 2 * 3600_000) });
    expect(await app.deps.storage.exists(keys.stored)).toBe(true);
    expect(await app.deps.storage.exists(keys.runningChunk)).toBe(true);
    expect(await app.deps.storage.exists(keys.leftoverChunk)).toBe(false);
    expect(await app.deps.storage.exists(keys.deleted)).toBe(false);
  });

  it('session.get shows the documents with this viewer’s own links', async () => {
    const b = await booking(app.deps);
    const key = `${b.id}/${randomUUID()}.pdf`;
    await app.deps.storage.put(key, Readable.from([Buffer.from('%PDF-1.4')]), { contentType: 'application/pdf' });
    const [doc] = await app.deps.db.insert(documents).values({ bookingId: b.id, originalName: 'deed.pdf', contentType: 'application/pdf', sizeBytes: 8, storageKey: key, status: 'stored', scanStatus: 'clean' }).returning();
    const asCustomer = await trpcHttp(app.url, 'session.get', { type: 'query', input: { token: b.token } });
    expect(asCustomer.body.result!.data.json).toMatchObject({ role: 'customer', open: true, state: 'waiting', documents: [{ id: doc!.id, url: `/api/manage/documents/${doc!.id}?token=${b.token}` }] });
    const asNotary = await trpcHttp(app.url, 'session.get', { type: 'query', input: { bookingId: b.id }, cookie: await notary.sessionCookie() });
    expect(asNotary.body.result!.data.json).toMatchObject({ role: 'notary', documents: [{ url: `/api/staff/documents/${doc!.id}` }], finishBlockers: ['Record the session before finishing it.', actMessages.notSealed] });
  });
});
