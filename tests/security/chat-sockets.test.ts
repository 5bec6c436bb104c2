import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { staffUsers } from '../../src/server/db/schema.ts';
import { chatEventRates } from '../../src/server/features/chat/socket.ts';
import { dbKinds } from '../helpers/db.ts';
import { closeSockets, connected, connectStaff, connectVisitor, newVisitorCookie, nextEvent, startChatApp, type ChatTestApp } from '../helpers/chat.ts';
import { createStaffUser } from '../helpers/staff.ts';
import { until } from './helpers.ts';

/**
 * Attacks on the live chat's Socket.IO namespaces. The console shows the chat
 * to admin and staff only; the sockets apply the same rule, on connect and on
 * every event.
 */
describe.each(dbKinds)('chat sockets (%s)', (kind) => {
  let app: ChatTestApp;
  beforeAll(async () => {
    app = await startChatApp(kind);
  });
  afterEach(() => closeSockets());
  afterAll(() => app.close());

  const cookieFor = async (role: 'admin' | 'staff' | 'notary') => {
    const user = await createStaffUser(app.deps, { role, name: `Pat ${role}` });
    return { id: user.id, cookie: await user.sessionCookie() };
  };

  it('a signed-in notary opens /staff → refused "unauthorized" (no conversation list, no visitor emails)', async () => {
    const { cookie } = await cookieFor('notary');
    await expect(connected(connectStaff(app.url, cookie))).rejects.toThrow('unauthorized');
  });

  it('a staff member demoted to notary keeps the socket open → cut off at the next event of every kind (conversations, typing)', async () => {
    const visitor = connectVisitor(app.url, await newVisitorCookie(app.url));
    await connected(visitor);
    const sent = await visitor.timeout(5000).emitWithAck('send', { clientId: randomUUID(), body: 'Hello?' });
    if (!sent.ok) throw new Error(sent.error);
    const conversationId = sent.message.conversationId;

    for (const event of ['conversations', 'typing'] as const) {
      const { id, cookie } = await cookieFor('staff');
      const socket = connectStaff(app.url, cookie);
      await connected(socket);
      await app.deps.db.update(staffUsers).set({ role: 'notary' }).where(eq(staffUsers.id, id));
      const disconnected = nextEvent(socket, 'disconnect');
      const visitorTyping = nextEvent(visitor, 'typing', () => true, 1_000).then(() => 'seen', () => 'not seen');
      if (event === 'conversations') {
        const answer = await socket.timeout(5000).emitWithAck('conversations').catch(() => null);
        expect(answer === null || answer.ok === false).toBe(true);
      } else {
        socket.emit('typing', { conversationId, typing: true });
      }
      await disconnected;
      // The typing indicator of a demoted member never reaches the visitor.
      expect(await visitorTyping).toBe('not seen');
    }
  });

  it(`a visitor floods "typing" → staff consoles receive at most ${chatEventRates.typing.limit} per window`, async () => {
    const { cookie } = await cookieFor('staff');
    const staff = connectStaff(app.url, cookie);
    await connected(staff);
    const visitor = connectVisitor(app.url, await newVisitorCookie(app.url));
    await connected(visitor);
    const sent = await visitor.timeout(5000).emitWithAck('send', { clientId: randomUUID(), body: 'Typing test' });
    if (!sent.ok) throw new Error(sent.error);
    await visitor.timeout(5000).emitWithAck('sync', { lastSeenId: 0 });

    let received = 0;
    staff.on('typing', () => received++);
    // Accepted events are not acknowledged; refused ones say so to a client that asked.
    const answers: unknown[] = [];
    const emitTyping = visitor.emit.bind(visitor) as (event: string, payload: unknown, ack: (answer: unknown) => void) => void;
    for (let i = 0; i < chatEventRates.typing.limit + 15; i++) emitTyping('typing', { typing: i % 2 === 0 }, (answer) => answers.push(answer));
    await until(() => answers.length === 15, 5_000, '15 refusals');
    expect(answers).toContainEqual({ ok: false, error: 'Too many requests. Please wait a moment and try again.' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(received).toBeGreaterThan(0);
    expect(received).toBeLessThanOrEqual(chatEventRates.typing.limit);
  });

  it(`a visitor floods "page" → at most ${chatEventRates.page.limit} accepted per window, the rest answered "Too many requests"`, async () => {
    const visitor = connectVisitor(app.url, await newVisitorCookie(app.url));
    await connected(visitor);
    const answers: unknown[] = [];
    const emitPage = visitor.emit.bind(visitor) as (event: string, payload: unknown, ack: (answer: unknown) => void) => void;
    for (let i = 0; i < chatEventRates.page.limit + 5; i++) emitPage('page', { page: `/p${i}` }, (answer) => answers.push(answer));
    await until(() => answers.length >= 5, 5_000, 'refusals');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(answers).toEqual(Array(5).fill({ ok: false, error: 'Too many requests. Please wait a moment and try again.' }));
  });
});
