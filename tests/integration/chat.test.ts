import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryRows } from '../../src/server/db/client.ts';
import { tooManyRequestsMessage } from '../../src/server/rate-limit.ts';
import * as notifications from '../../src/server/features/notifications/events.ts';
import { deleteSession } from '../../src/server/features/staff/session.ts';
import { hashToken } from '../../src/server/tokens.ts';
import type { ChatConversationSummary, ChatMessage } from '../../src/shared/chat.ts';
import {
  closeSockets,
  connectStaff,
  connectVisitor,
  connected,
  newVisitorCookie,
  nextEvent,
  startChatApp,
  type ChatTestApp,
  type VisitorClient,
} from '../helpers/chat.ts';
import { dbKinds } from '../helpers/db.ts';
import { createStaffUser } from '../helpers/staff.ts';

vi.mock('../../src/server/features/notifications/events.ts', async (importOriginal) => {
  const original = await importOriginal<typeof notifications>();
  return { ...original, onChatMessageLeftOffline: vi.fn(original.onChatMessageLeftOffline) };
});

const sync = (socket: VisitorClient, lastSeenId = 0, page?: string) =>
  socket.timeout(5000).emitWithAck('sync', { lastSeenId, ...(page ? { page } : {}) });

describe.each(dbKinds)('live chat (%s)', (kind) => {
  let app: ChatTestApp;
  beforeEach(async () => {
    vi.mocked(notifications.onChatMessageLeftOffline).mockClear();
    app = await startChatApp(kind);
  });
  afterEach(async () => {
    closeSockets();
    await app.close();
  });

  async function staffCookie(role: 'admin' | 'staff' | 'notary' = 'staff') {
    const user = await createStaffUser(app.deps, { role, name: `Pat ${role}` });
    return user.sessionCookie();
  }

  it('issues an HttpOnly, SameSite=Lax visitor cookie on the handshake and stores only its SHA-256', async () => {
    const res = await fetch(`${app.url}/socket.io/?EIO=4&transport=polling&chat=visitor`);
    await res.text();
    const setCookie = res.headers.getSetCookie().find((line) => line.startsWith('chat_visitor='))!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Path=\//);

    const cookie = setCookie.split(';')[0]!;
    const token = cookie.split('=')[1]!;
    const visitor = connectVisitor(app.url, cookie);
    await connected(visitor);
    const ack = await visitor.timeout(5000).emitWithAck('send', { clientId: randomUUID(), body: 'Hello' });
    expect(ack.ok).toBe(true);
    const rows = await queryRows<{ visitor_token_hash: string }>(app.deps.db, sql`select visitor_token_hash from chat_conversations`);
    expect(rows).toEqual([{ visitor_token_hash: hashToken(token) }]);
    expect(JSON.stringify(rows)).not.toContain(token);

    // A staff handshake (no ?chat=visitor) gets no visitor cookie.
    const staffRes = await fetch(`${app.url}/socket.io/?EIO=4&transport=polling`);
    await staffRes.text();
    expect(staffRes.headers.getSetCookie().some((line) => line.startsWith('chat_visitor='))).toBe(false);
  });

  it('carries messages both ways live, with typing, presence, the page and unread counts', async () => {
    const visitor = connectVisitor(app.url, await newVisitorCookie(app.url));
    await connected(visitor);
    const first = await sync(visitor, 0, '/schedule');
    expect(first).toMatchObject({ ok: true, conversationId: null, staffOnline: false, messages: [] });

    const presence = nextEvent<{ staffOnline: boolean }>(visitor, 'presence');
    const staff = connectStaff(app.url, await staffCookie('staff'));
    await connected(staff);
    expect(await presence).toEqual({ staffOnline: true });

    const staffSees = nextEvent<{ message: ChatMessage; conversation: ChatConversationSummary }>(staff, 'message');
    const sent = await visitor.timeout(5000).emitWithAck('send', { clientId: randomUUID(), body: 'Do you notarize wills?', page: '/schedule' });
    if (!sent.ok) throw new Error(sent.error);
    const seen = await staffSees;
    expect(seen.message).toEqual(sent.message);
    expect(seen.conversation).toMatchObject({ id: sent.message.conversationId, currentPage: '/schedule', unread: 1 });

    const listed = await staff.timeout(5000).emitWithAck('conversations');
    if (!listed.ok) throw new Error(listed.error);
    expect(listed.conversations.map((c: ChatConversationSummary) => [c.id, c.unread])).toEqual([[sent.message.conversationId, 1]]);

    const conversationId = sent.message.conversationId;
    const staffTyping = nextEvent(staff, 'typing');
    visitor.emit('typing', { typing: true });
    expect(await staffTyping).toEqual({ conversationId, typing: true });
    const visitorTyping = nextEvent(visitor, 'typing');
    staff.emit('typing', { conversationId, typing: true });
    expect(await visitorTyping).toEqual({ typing: true });

    const visitorSees = nextEvent<ChatMessage>(visitor, 'message', (m) => m.sender === 'staff');
    const reply = await staff.timeout(5000).emitWithAck('send', { conversationId, clientId: randomUUID(), body: 'Yes, we do.' });
    if (!reply.ok) throw new Error(reply.error);
    const received = await visitorSees;
    expect(received).toEqual(reply.message);
    expect(received).toMatchObject({ sender: 'staff', senderName: 'Pat staff', body: 'Yes, we do.' });
    expect(received.id).toBeGreaterThan(sent.message.id);

    const pageUpdate = nextEvent<ChatConversationSummary>(staff, 'conversation');
    visitor.emit('page', { page: '/blog?utm=x' });
    expect(await pageUpdate).toMatchObject({ id: conversationId, currentPage: '/blog' });

    // A second visitor message is unread until staff mark it read.
    const again = await visitor.timeout(5000).emitWithAck('send', { clientId: randomUUID(), body: 'Great, thanks' });
    if (!again.ok) throw new Error(again.error);
    const before = await staff.timeout(5000).emitWithAck('conversations');
    expect(before.ok && before.conversations[0]!.unread).toBe(1);
    const read = await staff.timeout(5000).emitWithAck('read', { conversationId, upTo: again.message.id });
    expect(read).toMatchObject({ ok: true, conversation: { unread: 0, staffReadUpTo: again.message.id } });

    const gone = nextEvent<{ staffOnline: boolean }>(visitor, 'presence');
    staff.disconnect();
    expect(await gone).toEqual({ staffOnline: false });
  });

  it('refuses /staff handshakes without a valid staff session, and a session after logout', async () => {
    await expect(connected(connectStaff(app.url, null))).rejects.toThrow('unauthorized');
    await expect(connected(connectStaff(app.url, 'staff_session=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'))).rejects.toThrow('unauthorized');
    // A visitor cookie is not a staff session.
    await expect(connected(connectStaff(app.url, await newVisitorCookie(app.url)))).rejects.toThrow('unauthorized');

    const cookie = await staffCookie('staff');
    const live = connectStaff(app.url, cookie);
    await connected(live);
    await deleteSession(app.deps.db, hashToken(cookie.split('=')[1]!));
    await expect(connected(connectStaff(app.url, cookie))).rejects.toThrow('unauthorized');
    // The open console is cut off at its next action.
    const disconnected = nextEvent(live, 'disconnect');
    const answer = await live.timeout(5000).emitWithAck('conversations').catch(() => null);
    expect(answer === null || answer.ok === false).toBe(true);
    await disconnected;
  });

  it('refuses a handshake from a foreign Origin and a visitor without a cookie', async () => {
    const res = await fetch(`${app.url}/socket.io/?EIO=4&transport=polling&chat=visitor`, { headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
    await res.text();
    await expect(connected(connectVisitor(app.url, await newVisitorCookie(app.url), { origin: 'https://evil.example' }))).rejects.toThrow();
    const same = connectVisitor(app.url, await newVisitorCookie(app.url), { origin: app.url });
    await connected(same);

    const { io } = await import('socket.io-client');
    const anonymous = io(`${app.url}/chat`, { transports: ['websocket'], forceNew: true, reconnection: false });
    await expect(connected(anonymous)).rejects.toThrow('No chat session');
    anonymous.close();
  });

  it('stores a message resent with the same clientId once and answers with the stored one', async () => {
    const visitor = connectVisitor(app.url, await newVisitorCookie(app.url));
    await connected(visitor);
    const clientId = randomUUID();
    const first = await visitor.timeout(5000).emitWithAck('send', { clientId, body: 'Only once' });
    const second = await visitor.timeout(5000).emitWithAck('send', { clientId, body: 'Only once' });
    expect(first.ok && second.ok).toBe(true);
    expect(second).toEqual(first);

    const staff = connectStaff(app.url, await staffCookie());
    await connected(staff);
    const conversationId = first.ok ? first.message.conversationId : '';
    const staffClientId = randomUUID();
    const a = await staff.timeout(5000).emitWithAck('send', { conversationId, clientId: staffClientId, body: 'Reply' });
    const b = await staff.timeout(5000).emitWithAck('send', { conversationId, clientId: staffClientId, body: 'Reply' });
    expect(b).toEqual(a);

    const [count] = await queryRows<{ n: string | number }>(app.deps.db, sql`select count(*) as n from chat_messages`);
    expect(Number(count!.n)).toBe(2);
  });

  it('replays every message missed while disconnected, in order, after the last seen id', async () => {
    const cookie = await newVisitorCookie(app.url);
    let visitor = connectVisitor(app.url, cookie);
    await connected(visitor);
    const hello = await visitor.timeout(5000).emitWithAck('send', { clientId: randomUUID(), body: 'Hello?' });
    if (!hello.ok) throw new Error(hello.error);
    visitor.disconnect();

    const staff = connectStaff(app.url, await staffCookie());
    await connected(staff);
    const conversationId = hello.message.conversationId;
    const replies: ChatMessage[] = [];
    for (const body of ['One', 'Two', 'Three']) {
      const ack = await staff.timeout(5000).emitWithAck('send', { conversationId, clientId: randomUUID(), body });
      if (!ack.ok) throw new Error(ack.error);
      replies.push(ack.message);
    }

    // Same cookie, new connection (a reload or a reconnect): nothing lost, nothing reordered.
    visitor = connectVisitor(app.url, cookie);
    await connected(visitor);
    const replay = await sync(visitor, hello.message.id);
    expect(replay).toMatchObject({ ok: true, conversationId, more: false });
    expect(replay.ok && replay.messages).toEqual(replies);
    const full = await sync(visitor, 0);
    expect(full.ok && full.messages.map((m: ChatMessage) => m.body)).toEqual(['Hello?', 'One', 'Two', 'Three']);

    const history = await staff.timeout(5000).emitWithAck('sync', { conversationId, lastSeenId: replies[0]!.id });
    expect(history.ok && history.messages.map((m: ChatMessage) => m.body)).toEqual(['Two', 'Three']);
  });

  it('stores a message left while no staff are online and notifies staff', async () => {
    const visitor = connectVisitor(app.url, await newVisitorCookie(app.url));
    await connected(visitor);
    expect(await sync(visitor)).toMatchObject({ staffOnline: false });
    const input = { clientId: randomUUID(), email: 'ana@example.com', body: 'Please call me back about an apostille.', page: '/' };
    const ack = await visitor.timeout(5000).emitWithAck('offline', input);
    if (!ack.ok) throw new Error(ack.error);
    // A resend (lost acknowledgement) does not store or email twice.
    expect(await visitor.timeout(5000).emitWithAck('offline', input)).toEqual(ack);

    const rows = await queryRows<{ id: string; kind: string; email: string; message: string }>(
      app.deps.db,
      sql`select id, kind, email, message from contact_messages`,
    );
    expect(rows).toEqual([{ id: expect.any(String), kind: 'chat_offline', email: 'ana@example.com', message: input.body }]);
    expect(vi.mocked(notifications.onChatMessageLeftOffline)).toHaveBeenCalledTimes(1);
    expect(vi.mocked(notifications.onChatMessageLeftOffline).mock.calls[0]![2]).toEqual({
      conversationId: ack.message.conversationId,
      messageId: String(ack.message.id),
    });
    // The email itself: one outbox row to staff, replying to the visitor.
    const mail = await queryRows<{ kind: string }>(app.deps.db, sql`select kind from outbox`);
    expect(mail).toEqual([{ kind: 'chat_offline' }]);

    // Staff see it in the conversation when they come back, with the address to answer.
    const staff = connectStaff(app.url, await staffCookie());
    await connected(staff);
    const listed = await staff.timeout(5000).emitWithAck('conversations');
    expect(listed.ok && listed.conversations[0]).toMatchObject({ visitorEmail: 'ana@example.com', unread: 1 });

    const bad = await visitor.timeout(5000).emitWithAck('offline', { ...input, clientId: randomUUID(), email: 'not-an-email' });
    expect(bad).toEqual({ ok: false, error: 'Please enter a valid email address.' });
  });

  it('limits a visitor to 20 messages a minute and 2,000 characters a message', async () => {
    const visitor = connectVisitor(app.url, await newVisitorCookie(app.url));
    await connected(visitor);
    const tooLong = await visitor.timeout(5000).emitWithAck('send', { clientId: randomUUID(), body: 'x'.repeat(2001) });
    expect(tooLong).toEqual({ ok: false, error: 'Messages can be at most 2000 characters.' });
    const longest = await visitor.timeout(5000).emitWithAck('send', { clientId: randomUUID(), body: 'x'.repeat(2000) });
    expect(longest.ok).toBe(true);

    for (let i = 2; i <= 20; i++) {
      const ack = await visitor.timeout(5000).emitWithAck('send', { clientId: randomUUID(), body: `message ${i}` });
      expect(ack.ok).toBe(true);
    }
    const refused = await visitor.timeout(5000).emitWithAck('send', { clientId: randomUUID(), body: 'one too many' });
    expect(refused).toMatchObject({ ok: false, error: tooManyRequestsMessage });
    expect(!refused.ok && refused.retryAfterSeconds).toBeGreaterThan(0);

    // The same address with a fresh cookie is limited too.
    const other = connectVisitor(app.url, await newVisitorCookie(app.url));
    await connected(other);
    const fromSameAddress = await other.timeout(5000).emitWithAck('send', { clientId: randomUUID(), body: 'hi' });
    expect(fromSameAddress).toMatchObject({ ok: false, error: tooManyRequestsMessage });
  });
});
