import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { and, eq } from 'drizzle-orm';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, bookings, identityVerifications, notarySessions, outbox, sessionParticipants } from '../../src/server/db/schema.ts';
import { participantRemovedMessage } from '../../src/server/features/access/service.ts';
import { attachSessionRoom, type SessionRoomServer } from '../../src/server/features/session/socket.ts';
import { fillSecrets } from '../../src/server/features/notifications/secrets.ts';
import { participantLabels, participantMessages, type InvitationView, type ParticipantSummary } from '../../src/shared/participants.ts';
import type { CustomerIdentityView } from '../../src/shared/notarial-act.ts';
import type { SessionView } from '../../src/shared/session.ts';
import { bookingIn } from '../helpers/bookings.ts';
import { startChatApp, type ChatTestApp } from '../helpers/chat.ts';
import { createStaffUser, trpcHttp, type TestStaffUser } from '../helpers/staff.ts';

/**
 * Co-signers and witnesses (issue 29) through the real HTTP and socket
 * surface: the customer adds them, each gets "You've been invited to sign"
 * with a link of their own; a participant's link proves only their own
 * identity and never sees the customer's; the notary removes one and their
 * link and socket are refused from then on.
 */
const jpg = readFileSync(new URL('../fixtures/sample.jpg', import.meta.url)).toString('base64');
const png = readFileSync(new URL('../fixtures/sample.png', import.meta.url)).toString('base64');

describe('session participants', () => {
  let app: ChatTestApp;
  let room: SessionRoomServer;
  let notary: TestStaffUser;
  let notaryCookie: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    app = await startChatApp('pglite', { BOOKING_SLOT_CAPACITY: '1000' });
    room = attachSessionRoom(app.chat.io, app.deps);
    notary = await createStaffUser(app.deps, { role: 'notary', name: 'Nora Notary' });
    notaryCookie = await notary.sessionCookie();
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await room?.close();
    await app?.close();
  });

  const call = async <T>(route: string, input: unknown, type: 'query' | 'mutation' = 'mutation', cookie?: string) => {
    const res = await trpcHttp(app.url, route, { input, type, cookie, headers: { origin: app.url } });
    return { status: res.status, data: res.body.result?.data.json as T, message: res.body.error?.json.message as string | undefined };
  };

  /** A confirmed booking with the room open (starts in 5 minutes), assigned to the notary. */
  async function openBooking() {
    const b = await bookingIn(app.deps, 'confirmed');
    await app.deps.db.update(bookings).set({ notaryId: notary.id, startsAt: new Date(Date.now() + 5 * 60_000) }).where(eq(bookings.id, b.bookingId));
    return { ...b, token: b.manageToken! };
  }

  /** The invitation as sent: its subject, its text and the participant's raw token (from the link). */
  async function invitationFor(email: string) {
    const rows = await app.deps.db.select().from(outbox).where(eq(outbox.kind, 'participant_invitation'));
    const row = rows.find((r) => (r.payload as { message: { to: string } }).message.to === email)!;
    const payload = row.payload as { message: { to: string; subject: string; text: string; html: string }; sealedSecrets: Record<string, string> };
    const sent = fillSecrets(app.deps.secrets, payload.message, payload.sealedSecrets);
    const token = /\/invitation\/([A-Za-z0-9_-]{40,})/.exec(sent.text)![1]!;
    return { stored: payload.message, sent, token };
  }

  const add = (token: string, details: Record<string, unknown>) => call<ParticipantSummary[]>('participants.add', { token, ...details });

  function connect(auth: Record<string, string>, cookie?: string) {
    const socket = io(`${app.url}/session`, { transports: ['websocket'], forceNew: true, reconnection: false, auth, extraHeaders: cookie ? { cookie } : {} });
    sockets.push(socket);
    return socket;
  }
  const handshake = (socket: Socket) =>
    new Promise<string>((resolve) => {
      socket.once('connect', () => resolve('ok'));
      socket.once('connect_error', (error: Error & { data?: { code?: string } }) => resolve(`${error.data?.code}: ${error.message}`));
    });

  it('the customer adds a signer and a witness; each is emailed their own link, kept only as a hash and sealed in the outbox', async () => {
    const b = await openBooking();
    const signer = await add(b.token, { role: 'signer', name: 'Grace Hopper', email: 'Grace.H@example.com', phone: '' });
    expect(signer.status).toBe(200);
    const witness = await add(b.token, { role: 'witness', name: 'Alan Turing', email: 'alan@example.com', phone: '+1 515 555 0100' });
    expect(witness.data.map((p) => [p.name, p.role, p.status, p.email])).toEqual([
      ['Grace Hopper', 'signer', 'invited', 'grace.h@example.com'],
      ['Alan Turing', 'witness', 'invited', 'alan@example.com'],
    ]);
    const mail = await invitationFor('grace.h@example.com');
    expect(mail.stored.subject).toContain(participantLabels.inviteSubject);
    // The stored row holds a placeholder, never the token.
    expect(mail.stored.text).not.toContain(mail.token);
    const [row] = await app.deps.db.select().from(sessionParticipants).where(eq(sessionParticipants.email, 'grace.h@example.com'));
    expect(row!.tokenHash).not.toBe(mail.token);
    const invitation = await call<InvitationView>('participants.invitation', { token: mail.token }, 'query');
    expect(invitation.data).toMatchObject({ role: 'signer', name: 'Grace Hopper', invitedBy: expect.any(String), canJoinSession: true });

    // The same address twice, bad input, and a fourth person are refused with nothing added.
    expect(await add(b.token, { role: 'signer', name: 'Grace again', email: 'grace.h@example.com' })).toMatchObject({ status: 409, message: participantMessages.duplicateEmail });
    expect((await add(b.token, { role: 'signer', name: 'X\u202eY', email: 'x@example.com' })).status).toBe(400);
    expect((await add(b.token, { role: 'notary', name: 'Nope', email: 'n@example.com' })).status).toBe(400);
    expect((await add(b.token, { role: 'signer', name: 'Ada', email: 'ada@example.com' })).status).toBe(200);
    expect(await add(b.token, { role: 'signer', name: 'Eve', email: 'eve@example.com' })).toMatchObject({ status: 412, message: participantMessages.tooMany });
    // A participant's link cannot add anyone, nor open the customer's booking page.
    expect((await add(mail.token, { role: 'signer', name: 'Mallory', email: 'm@example.com' })).status).toBe(403);
    expect((await call('manageBooking.get', { token: mail.token }, 'query')).status).toBe(403);
    expect((await app.deps.db.select().from(sessionParticipants).where(eq(sessionParticipants.bookingId, b.bookingId))).length).toBe(3);
  });

  it('refuses adding once the session has started', async () => {
    const b = await openBooking();
    await app.deps.db.insert(notarySessions).values({ bookingId: b.bookingId, startedAt: new Date() });
    expect(await add(b.token, { role: 'witness', name: 'Late Witness', email: 'late@example.com' })).toMatchObject({ status: 412, message: participantMessages.sessionStarted });
  });

  it('a co-signer proves their own identity: the customer’s stays as it was, and neither link reads the other’s', async () => {
    const b = await openBooking();
    await add(b.token, { role: 'signer', name: 'Grace Hopper', email: `grace-${randomUUID().slice(0, 6)}@example.com` });
    const [row] = await app.deps.db.select().from(sessionParticipants).where(eq(sessionParticipants.bookingId, b.bookingId));
    const { token } = await invitationFor(row!.email);
    const res = await fetch(`${app.url}/api/manage/identity/test?token=${token}`, {
      method: 'POST',
      headers: { origin: app.url, 'content-type': 'application/json' },
      body: JSON.stringify({ nameOnId: 'Grace Hopper', front: jpg, back: png, selfie: jpg }),
    });
    expect(res.status).toBe(200);
    expect((await call<CustomerIdentityView>('manageAct.identity', { token }, 'query')).data.status).toBe('verified');
    // The customer has not proved anything: their view and the access policy say so.
    expect((await call<CustomerIdentityView>('manageAct.identity', { token: b.token }, 'query')).data.status).toBe('not_started');
    const rows = await app.deps.db.select().from(identityVerifications).where(eq(identityVerifications.bookingId, b.bookingId));
    expect(rows.map((r) => r.participantId)).toEqual([row!.id]);
    // A verified co-signer signs only fields placed for them (decision 123): none here, so nothing of the customer's is signed.
    expect((await call('manageAct.adoptSignature', { token, documentId: randomUUID(), kind: 'drawn', png: `data:image/png;base64,${png}` })).status).toBe(404);
  });

  it('the notary removes a participant: audited, their link and their socket refused from then on, the others unaffected', async () => {
    const b = await openBooking();
    await add(b.token, { role: 'witness', name: 'Alan Turing', email: `alan-${randomUUID().slice(0, 6)}@example.com` });
    const [row] = await app.deps.db.select().from(sessionParticipants).where(eq(sessionParticipants.bookingId, b.bookingId));
    const { token } = await invitationFor(row!.email);

    const witness = connect({ token });
    expect(await handshake(witness)).toBe('ok');
    const joined = await new Promise<{ ok: boolean; role?: string }>((resolve) => witness.emit('join', resolve));
    expect(joined).toMatchObject({ ok: true, role: 'participant' });
    const view = await call<SessionView>('session.get', { bookingId: b.bookingId }, 'query', notaryCookie);
    expect(view.data.participants).toEqual([expect.objectContaining({ id: row!.id, name: 'Alan Turing', status: 'joined' })]);

    const closed = new Promise<{ reason: string }>((resolve) => witness.once('session:closed', resolve));
    // Another notary may not; the booking's notary may, with a reason.
    const other = await createStaffUser(app.deps, { role: 'notary' });
    expect((await call('participants.remove', { bookingId: b.bookingId, participantId: row!.id, reason: 'Left the call' }, 'mutation', await other.sessionCookie())).status).toBe(403);
    const removed = await call<ParticipantSummary[]>('participants.remove', { bookingId: b.bookingId, participantId: row!.id, reason: 'Left the call' }, 'mutation', notaryCookie);
    expect(removed.data[0]).toMatchObject({ status: 'removed' });
    // The open socket is refused at its next event (told why, then disconnected); a new one at the handshake.
    let answered = false;
    witness.emit('chat', { clientId: randomUUID(), body: 'still here?' }, () => (answered = true));
    expect((await closed).reason).toBe(participantRemovedMessage);
    expect(answered).toBe(false);
    expect(await handshake(connect({ token }))).toBe(`closed: ${participantRemovedMessage}`);
    expect(await call('session.get', { token }, 'query')).toMatchObject({ status: 403, message: participantRemovedMessage });
    expect((await call('participants.invitation', { token }, 'query')).status).toBe(403);
    // Twice is refused; the audit trail names who, whom and why.
    expect((await call('participants.remove', { bookingId: b.bookingId, participantId: row!.id, reason: 'Again' }, 'mutation', notaryCookie)).status).toBe(409);
    const audit = await app.deps.db.select().from(auditLog).where(and(eq(auditLog.entityId, b.bookingId), eq(auditLog.action, 'participant.removed')));
    expect(audit).toEqual([expect.objectContaining({ actorId: notary.id, data: expect.objectContaining({ participantId: row!.id, reason: 'Left the call', status: 'removed' }) })]);
    // The customer's link still works.
    expect((await call('session.get', { token: b.token }, 'query')).status).toBe(200);
  });
});
