import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings, customers, documents, identityVerifications, notarialDocuments, sessionParticipants, sessionRecordings } from '../../src/server/db/schema.ts';
import type { Deps } from '../../src/server/deps.ts';
import { accessActions, accessTable, actorRoles, mayDo, type AccessAction, type ActorRole } from '../../src/server/features/access/service.ts';
import { appendJournalEntry } from '../../src/server/features/journal/service.ts';
import { attachSessionRoom, type SessionRoomServer } from '../../src/server/features/session/socket.ts';
import { hashToken } from '../../src/server/tokens.ts';
import { startChatApp, type ChatTestApp } from '../helpers/chat.ts';
import { createStaffUser, trpcHttp, type TestStaffUser } from '../helpers/staff.ts';

/**
 * The access policy's whole table, on every channel (docs/decisions/065):
 * each actor tries each action through each channel that carries it — tRPC,
 * the plain HTTP routes, the session room's socket — on a fresh booking, and
 * the answer must be the table's. "Refused" is an access refusal (401, 403,
 * 404 from the access check, a socket handshake refused with code `closed`);
 * anything else — done, or refused by the booking's *state* (too late to
 * move, nothing recorded yet) — is "allowed": the caller got past the policy.
 *
 * A customer (visitor or signer) reaches the staff channels with no cookie and
 * staff the customer channels with no link: a table entry that allows an
 * actor an action with no channel for them fails here too.
 */
const fixtures = new URL('../fixtures/', import.meta.url);
const jpg = readFileSync(new URL('sample.jpg', fixtures)).toString('base64');
const png = readFileSync(new URL('sample.png', fixtures)).toString('base64');

type Verdict = 'allowed' | 'refused';
interface Fixture {
  bookingId: string;
  token: string;
  documentId: string;
  /** A supporting file of the booking (an ID photo): decision 133. */
  supportingDocumentId: string;
  verificationId: string;
  recordingId: string;
  storedRecordingId: string;
  /** A co-signer's or witness's own link and row (decision 121). */
  participantToken: string;
  participantId: string;
}
interface Caller {
  token: string | null;
  cookie: string | null;
}
type Probe = (f: Fixture, who: Caller) => Promise<Verdict>;

const fromStatus = (status: number): Verdict => (status === 401 || status === 403 || status === 404 ? 'refused' : 'allowed');

describe('the access table on every channel', () => {
  let app: ChatTestApp;
  let room: SessionRoomServer;
  let notary: TestStaffUser;
  const cookies = {} as Record<'booking_notary' | 'other_notary' | 'staff' | 'admin', string>;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    app = await startChatApp('pglite', { BOOKING_SLOT_CAPACITY: '1000' });
    room = attachSessionRoom(app.chat.io, app.deps);
    notary = await createStaffUser(app.deps, { role: 'notary' });
    cookies.booking_notary = await notary.sessionCookie();
    cookies.other_notary = await (await createStaffUser(app.deps, { role: 'notary' })).sessionCookie();
    cookies.staff = await (await createStaffUser(app.deps, { role: 'staff' })).sessionCookie();
    cookies.admin = await (await createStaffUser(app.deps, { role: 'admin' })).sessionCookie();
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await room?.close();
    await app?.close();
  });

  /** A confirmed booking assigned to the notary, starting in 5 minutes (the room is open), with all the act's pieces. */
  async function fixture(deps: Deps, role: ActorRole): Promise<Fixture> {
    const verified = role !== 'visitor';
    const [customer] = await deps.db.insert(customers).values({ firstName: 'Ada', lastName: 'Lovelace', email: `ada-${randomUUID().slice(0, 6)}@example.com` }).returning();
    const token = randomBytes(32).toString('base64url');
    const [booking] = await deps.db
      .insert(bookings)
      .values({ reference: `NOTARY-${randomUUID().slice(0, 8).toUpperCase()}`, status: 'confirmed', startsAt: new Date(Date.now() + 5 * 60_000), priceCents: 2500, customerId: customer!.id, notaryId: notary.id, manageTokenHash: hashToken(token) })
      .returning();
    const bookingId = booking!.id;
    const documentKey = `${bookingId}/${randomUUID()}.pdf`;
    await deps.storage.put(documentKey, Readable.from(Buffer.from('%PDF-1.4\n%%EOF\n')), { contentType: 'application/pdf' });
    const [doc] = await deps.db.insert(documents).values({ bookingId, originalName: 'deed.pdf', contentType: 'application/pdf', sizeBytes: 15, storageKey: documentKey, status: 'stored', scanStatus: 'clean' }).returning();
    const sealedKey = `${bookingId}/sealed-${doc!.id}.pdf`;
    await deps.storage.put(sealedKey, Readable.from(Buffer.from('%PDF-1.4 sealed\n')), { contentType: 'application/pdf' });
    await deps.db.insert(notarialDocuments).values({ bookingId, documentId: doc!.id, sealedKey, sealedAt: new Date(), sealedBy: notary.id, sealedSha256: 'x'.repeat(64) });
    const supportingKey = `${bookingId}/${randomUUID()}.jpg`;
    await deps.storage.put(supportingKey, Readable.from(Buffer.from(jpg, 'base64')), { contentType: 'image/jpeg' });
    const [supporting] = await deps.db.insert(documents).values({ bookingId, originalName: 'id-photo.jpg', contentType: 'image/jpeg', sizeBytes: 100, storageKey: supportingKey, status: 'stored', scanStatus: 'clean' }).returning();
    await deps.db.insert(notarialDocuments).values({ bookingId, documentId: supporting!.id, supportingAt: new Date() });
    const imageKey = `${bookingId}/identity-${randomUUID()}-front.jpg`;
    await deps.storage.put(imageKey, Readable.from(Buffer.from(jpg, 'base64')), { contentType: 'image/jpeg' });
    const [verification] = await deps.db
      .insert(identityVerifications)
      .values({ bookingId, provider: 'test', providerSessionId: `vs_table_${randomUUID()}`, attempt: 1, status: verified ? 'verified' : 'failed', nameOnId: 'Ada Lovelace', imageKeys: [imageKey], confirmedAt: verified ? new Date() : null, confirmedBy: verified ? notary.id : null })
      .returning();
    const recordingId = randomUUID();
    await deps.db.insert(sessionRecordings).values({ id: recordingId, bookingId, mimeType: 'video/webm', storageKey: `recordings/${bookingId}/${recordingId}.webm`, startedBy: notary.id });
    const storedRecordingId = randomUUID();
    const storedKey = `recordings/${bookingId}/${storedRecordingId}.webm`;
    await deps.storage.put(storedKey, Readable.from(Buffer.from('webm')), { contentType: 'video/webm' });
    await deps.db.insert(sessionRecordings).values({ id: storedRecordingId, bookingId, mimeType: 'video/webm', storageKey: storedKey, status: 'stored', sizeBytes: 4, storedAt: new Date(), startedBy: notary.id });
    await deps.db.transaction((tx) => appendJournalEntry(tx, { notaryId: notary.id, bookingId, kind: 'act', performedAt: new Date(), data: { bookingReference: booking!.reference } }));
    // The participant the participant roles act as: a co-signer (a witness for `witness`), verified unless `invitee`.
    const participantToken = randomBytes(32).toString('base64url');
    const [participant] = await deps.db
      .insert(sessionParticipants)
      .values({ bookingId, role: role === 'witness' ? 'witness' : 'signer', name: 'Grace Hopper', email: `grace-${randomUUID().slice(0, 6)}@example.com`, tokenHash: hashToken(participantToken), createdBy: 'customer' })
      .returning();
    if (role === 'co_signer' || role === 'witness') {
      await deps.db.insert(identityVerifications).values({ bookingId, participantId: participant!.id, provider: 'test', providerSessionId: `vs_table_p_${randomUUID()}`, attempt: 1, status: 'verified', nameOnId: 'Grace Hopper' });
    }
    return { bookingId, token, documentId: doc!.id, supportingDocumentId: supporting!.id, verificationId: verification!.id, recordingId, storedRecordingId, participantToken, participantId: participant!.id };
  }

  const trpc = (path: string, input: (f: Fixture, who: Caller) => unknown, type: 'query' | 'mutation' = 'mutation'): Probe => async (f, who) =>
    fromStatus((await trpcHttp(app.url, path, { input: input(f, who), type, cookie: who.cookie ?? undefined, headers: { origin: app.url } })).status);
  const http = (method: string, path: (f: Fixture, who: Caller) => string, body?: () => BodyInit): Probe => async (f, who) => {
    const res = await fetch(`${app.url}${path(f, who)}`, { method, headers: { origin: app.url, 'content-type': method === 'GET' ? 'text/plain' : 'application/json', ...(who.cookie ? { cookie: who.cookie } : {}) }, body: body?.() });
    await res.arrayBuffer();
    return fromStatus(res.status);
  };
  const tokenOf = (who: Caller) => who.token ?? 'n'.repeat(43);
  /** The room's socket: the handshake, then an event (chat) on it. */
  const socketProbe: Probe = async (f, who) => {
    const socket = io(`${app.url}/session`, { transports: ['websocket'], forceNew: true, reconnection: false, auth: who.token ? { token: who.token } : { bookingId: f.bookingId }, extraHeaders: who.cookie ? { cookie: who.cookie } : {} });
    sockets.push(socket);
    const handshake = await new Promise<string>((resolve) => {
      socket.once('connect', () => resolve('ok'));
      socket.once('connect_error', (error: Error & { data?: { code?: string } }) => resolve(error.data?.code ?? 'none'));
    });
    if (handshake !== 'ok') {
      expect(handshake).toBe('closed');
      return 'refused';
    }
    const answer = await new Promise<{ ok: boolean }>((resolve) => socket.emit('chat', { clientId: randomUUID(), body: 'hello' }, resolve));
    socket.disconnect();
    return answer.ok ? 'allowed' : 'refused';
  };

  /** For each action, the channels that carry it: customer channels (a link) and staff channels (a cookie). */
  const channels: Record<AccessAction, Record<string, Probe>> = {
    view: {
      'customer: tRPC manageBooking.get': trpc('manageBooking.get', (_f, w) => ({ token: tokenOf(w) }), 'query'),
      'customer: HTTP GET calendar.ics?token': http('GET', (f, w) => `/api/bookings/${f.bookingId}/calendar.ics?token=${tokenOf(w)}&`),
      'staff: tRPC console.bookings.get': trpc('console.bookings.get', (f) => ({ bookingId: f.bookingId }), 'query'),
    },
    view_act: {
      'customer: tRPC manageAct.get': trpc('manageAct.get', (_f, w) => ({ token: tokenOf(w) }), 'query'),
      'staff: tRPC act.get': trpc('act.get', (f) => ({ bookingId: f.bookingId }), 'query'),
    },
    reschedule: {
      'customer: tRPC manageBooking.reschedule': trpc('manageBooking.reschedule', (_f, w) => ({ token: tokenOf(w), startsAt: new Date(Date.now() + 3 * 86_400_000) })),
      'staff: tRPC console.bookings.reschedule': trpc('console.bookings.reschedule', (f) => ({ bookingId: f.bookingId, startsAt: new Date(Date.now() + 3 * 86_400_000) })),
    },
    cancel: {
      'customer: tRPC manageBooking.cancel': trpc('manageBooking.cancel', (_f, w) => ({ token: tokenOf(w) })),
      'staff: tRPC console.bookings.cancel': trpc('console.bookings.cancel', (f) => ({ bookingId: f.bookingId, reason: 'Table test' })),
    },
    refund: {
      'staff: tRPC console.bookings.cancel (refunds)': trpc('console.bookings.cancel', (f) => ({ bookingId: f.bookingId, reason: 'Table test' })),
    },
    verify_identity: {
      'customer: HTTP POST /api/manage/identity/test': http('POST', (_f, w) => `/api/manage/identity/test?token=${tokenOf(w)}`, () => JSON.stringify({ nameOnId: 'Ada Lovelace', front: jpg, back: png, selfie: jpg })),
      'staff: tRPC act.confirmIdentity': trpc('act.confirmIdentity', (f) => ({ bookingId: f.bookingId, verificationId: f.verificationId })),
    },
    review_identity: {
      'staff: tRPC act.identity': trpc('act.identity', (f) => ({ bookingId: f.bookingId }), 'query'),
      'staff: HTTP GET /api/staff/identity/:id/front': http('GET', (f) => `/api/staff/identity/${f.verificationId}/front`),
    },
    join_room: {
      'room: tRPC session.get': trpc('session.get', (f, w) => (w.token ? { token: w.token } : { bookingId: f.bookingId }), 'query'),
      'room: socket /session handshake + chat': socketProbe,
    },
    record: {
      'staff: tRPC session.start': trpc('session.start', (f) => ({ bookingId: f.bookingId })),
      'staff: HTTP PUT recording chunk': http('PUT', (f) => `/api/session/recordings/${f.recordingId}/chunks/0`, () => 'chunk-bytes'),
    },
    play_recording: {
      'staff: HTTP GET /api/session/recordings/:id': http('GET', (f) => `/api/session/recordings/${f.storedRecordingId}`),
    },
    sign: {
      'customer: tRPC manageAct.adoptSignature': trpc('manageAct.adoptSignature', (f, w) => ({ token: tokenOf(w), documentId: f.documentId, kind: 'drawn', png: `data:image/png;base64,${png}` })),
      'customer: tRPC manageAct.giveConsent': trpc('manageAct.giveConsent', (_f, w) => ({ token: tokenOf(w), location: 'IA', consent: true })),
      'customer: tRPC manageAct.answerOath': trpc('manageAct.answerOath', (_f, w) => ({ token: tokenOf(w), kind: 'affirm' })),
    },
    seal: {
      'staff: tRPC act.saveField': trpc('act.saveField', (f) => ({ bookingId: f.bookingId, documentId: f.documentId, kind: 'signature', page: 1, x: 0.35, y: 0.77, width: 0.3, height: 0.06 })),
      'staff: tRPC act.seal': trpc('act.seal', (f) => ({ bookingId: f.bookingId, documentId: f.documentId, actType: 'acknowledgment' })),
    },
    finish: {
      'staff: tRPC session.finish': trpc('session.finish', (f) => ({ bookingId: f.bookingId, outcome: 'completed' })),
      'staff: tRPC console.bookings.markOutcome': trpc('console.bookings.markOutcome', (f) => ({ bookingId: f.bookingId, outcome: 'completed' })),
    },
    download_original: {
      'customer: HTTP GET /api/manage/documents/:id?token': http('GET', (f, w) => `/api/manage/documents/${f.documentId}?token=${tokenOf(w)}`),
      'staff: HTTP GET /api/staff/documents/:id': http('GET', (f) => `/api/staff/documents/${f.documentId}`),
    },
    /** A supporting file through the same routes: a co-signer's or witness's link is refused it (decision 133). */
    download_supporting: {
      'customer: HTTP GET /api/manage/documents/:supportingId?token': http('GET', (f, w) => `/api/manage/documents/${f.supportingDocumentId}?token=${tokenOf(w)}`),
      'staff: HTTP GET /api/staff/documents/:supportingId': http('GET', (f) => `/api/staff/documents/${f.supportingDocumentId}`),
    },
    download_notarized: {
      'customer: HTTP GET /api/manage/notarized/:id?token': http('GET', (f, w) => `/api/manage/notarized/${f.documentId}?token=${tokenOf(w)}`),
      'staff: HTTP GET /api/staff/notarized/:booking/:id': http('GET', (f) => `/api/staff/notarized/${f.bookingId}/${f.documentId}`),
    },
    view_identity: {
      'customer: tRPC manageAct.identity': trpc('manageAct.identity', (_f, w) => ({ token: tokenOf(w) }), 'query'),
      'customer: tRPC manageAct.kba': trpc('manageAct.kba', (_f, w) => ({ token: tokenOf(w) }), 'query'),
    },
    view_invitation: {
      'customer: tRPC participants.invitation': trpc('participants.invitation', (_f, w) => ({ token: tokenOf(w) }), 'query'),
    },
    add_participant: {
      'customer: tRPC participants.add': trpc('participants.add', (_f, w) => ({ token: tokenOf(w), role: 'witness', name: 'Alan Turing', email: `alan-${randomUUID().slice(0, 6)}@example.com` })),
    },
    remove_participant: {
      'staff: tRPC participants.remove': trpc('participants.remove', (f) => ({ bookingId: f.bookingId, participantId: f.participantId, reason: 'Table test' })),
    },
    read_journal: {
      /** Allowed when this booking's entry is among what the caller reads. */
      'staff: tRPC act.journal': async (f, who) => {
        const res = await trpcHttp(app.url, 'act.journal', { input: {}, type: 'query', cookie: who.cookie ?? undefined });
        if (res.status !== 200) return fromStatus(res.status);
        const [reference] = (await app.deps.db.select({ reference: bookings.reference }).from(bookings).where(eq(bookings.id, f.bookingId))).map((r) => r.reference);
        return JSON.stringify(res.body.result!.data.json).includes(reference!) ? 'allowed' : 'refused';
      },
      'staff: HTTP GET /api/staff/journal.csv': async (f, who) => {
        const res = await fetch(`${app.url}/api/staff/journal.csv`, { headers: who.cookie ? { cookie: who.cookie } : {} });
        const text = await res.text();
        if (res.status !== 200) return fromStatus(res.status);
        const [reference] = (await app.deps.db.select({ reference: bookings.reference }).from(bookings).where(eq(bookings.id, f.bookingId))).map((r) => r.reference);
        return text.includes(reference!) ? 'allowed' : 'refused';
      },
    },
  };

  it('names every action and role once (the table is total)', () => {
    expect(Object.keys(accessTable).sort()).toEqual([...accessActions].sort());
    expect(Object.keys(channels).sort()).toEqual([...accessActions].sort());
    for (const action of accessActions) for (const role of accessTable[action]) expect(actorRoles).toContain(role);
  });

  it.each(accessActions.map((action) => [action]))('%s: every actor on every channel gets the table’s answer', async (action) => {
    const found: string[] = [];
    const expected: string[] = [];
    for (const role of actorRoles) {
      // One booking per actor and action: a caller passes at most one channel kind, so a change it makes is its own.
      const f = await fixture(app.deps, role);
      for (const [channel, probe] of Object.entries(channels[action])) {
        const who: Caller =
          role === 'visitor' || role === 'signer'
            ? { token: f.token, cookie: null }
            : role === 'invitee' || role === 'co_signer' || role === 'witness'
              ? { token: f.participantToken, cookie: null }
              : { token: null, cookie: cookies[role] };
        const verdict = await probe(f, who);
        // A channel only for the other kind of caller: its refusal is all there is to check.
        const want: Verdict = mayDo(role, action) && channelTakes(channel, who) ? 'allowed' : 'refused';
        found.push(`${role} ${channel}: ${verdict}`);
        expected.push(`${role} ${channel}: ${want}`);
      }
    }
    expect(found).toEqual(expected);
    // Every role the table allows is allowed on at least one channel (no entry without a way to use it).
    for (const role of accessTable[action]) expect(found.some((line) => line.startsWith(`${role} `) && line.endsWith('allowed')), `${action}: ${role}`).toBe(true);
  });
});

/** Whose channel it is, from its name: `customer:` (a link), `staff:` (a cookie), `room:` (either). */
function channelTakes(channel: string, who: Caller): boolean {
  if (channel.startsWith('room:')) return true;
  return channel.startsWith('customer:') ? who.token !== null : who.cookie !== null;
}

