import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/server/db/client.ts';
import { StaffChat } from '../../src/client/features/chat/staff-chat.ts';
import { VisitorChat } from '../../src/client/features/chat/visitor-chat.ts';
import { closeSockets, connectStaff, connectVisitor, newVisitorCookie, startChatApp, type ChatTestApp } from '../helpers/chat.ts';
import { dbKinds } from '../helpers/db.ts';
import { createStaffUser } from '../helpers/staff.ts';
import { until } from '../helpers/async.ts';

/**
 * The browser-side protocol classes (outbox, replay, dedupe) against the real
 * server, with the connection cut at awkward moments.
 */
describe.each(dbKinds)('chat clients across reconnects (%s)', (kind) => {
  let app: ChatTestApp;
  const clients: Array<{ close(): void }> = [];
  beforeEach(async () => {
    app = await startChatApp(kind);
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    closeSockets();
    await app.close();
  });

  async function visitorAndStaff() {
    const visitorSocket = connectVisitor(app.url, await newVisitorCookie(app.url));
    const visitor = new VisitorChat(visitorSocket, '/');
    const staffSocket = connectStaff(app.url, await (await createStaffUser(app.deps, { role: 'staff', name: 'Sam' })).sessionCookie());
    const staff = new StaffChat(staffSocket);
    clients.push(visitor, staff);
    await until(() => visitor.store.get().staffOnline === true && staff.store.get().loaded, 'both connected');
    return { visitor, visitorSocket, staff, staffSocket };
  }

  it('loses nothing and duplicates nothing when the connection drops mid-conversation', async () => {
    const { visitor, visitorSocket, staff, staffSocket } = await visitorAndStaff();
    visitor.send('first');
    await until(() => staff.store.get().conversations.length === 1, 'conversation listed');
    const conversationId = staff.store.get().conversations[0]!.id;
    await staff.open(conversationId);

    // Cut the visitor's transport right after handing it two messages: whether
    // they reached the server or not, the outbox resends them after reconnect.
    visitor.send('second');
    visitor.send('third');
    visitorSocket.io.engine.close();
    // Meanwhile staff answer; the visitor gets these by replay.
    staff.send('reply one');
    staff.send('reply two');
    // And staff drop too, with a message in flight.
    staff.send('reply three');
    staffSocket.io.engine.close();

    const bodies = (thread: { messages: Array<{ body: string }> }) => thread.messages.map((m) => m.body);
    await until(() => visitor.store.get().thread.messages.length === 6 && visitor.store.get().thread.outbox.length === 0, 'visitor has all six');
    await until(() => (staff.store.get().threads[conversationId]?.messages.length ?? 0) === 6, 'staff has all six');

    const visitorView = visitor.store.get().thread;
    const staffView = staff.store.get().threads[conversationId]!;
    expect(visitorView.messages).toEqual(staffView.messages);
    const ids = visitorView.messages.map((m) => m.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    // Each side's own messages keep the order they were written in.
    expect(bodies(visitorView).filter((b) => !b.startsWith('reply'))).toEqual(['first', 'second', 'third']);
    expect(bodies(visitorView).filter((b) => b.startsWith('reply'))).toEqual(['reply one', 'reply two', 'reply three']);

    const [row] = await queryRows<{ n: string | number }>(app.deps.db, sql`select count(*) as n from chat_messages`);
    expect(Number(row!.n)).toBe(6);
  });

  it('a switch to Available while the handshake is under way reaches the server (visitors see online)', async () => {
    const visitor = new VisitorChat(connectVisitor(app.url, await newVisitorCookie(app.url)), '/');
    const cookie = await (await createStaffUser(app.deps, { role: 'staff', name: 'Sam' })).sessionCookie();
    // A console remembered as Away reloads: its handshake says away…
    const staffSocket = connectStaff(app.url, cookie, { away: true });
    const staff = new StaffChat(staffSocket, { away: true });
    clients.push(visitor, staff);
    // …and the switch is pressed after that handshake left but before it was answered.
    staffSocket.io.once('open', () => staff.setAway(false));
    await until(() => staff.store.get().loaded, 'staff connected');
    expect(staff.store.get().away).toBe(false);
    await until(() => visitor.store.get().staffOnline === true, 'the visitor sees staff online');
  });

  it('sends messages written while offline once the connection is back, in order', async () => {
    const { visitor, visitorSocket, staff } = await visitorAndStaff();
    visitorSocket.disconnect();
    for (const body of ['a', 'b', 'c', 'd']) visitor.send(body);
    expect(visitor.store.get().thread.outbox.map((o) => [o.body, o.status])).toEqual([
      ['a', 'sending'],
      ['b', 'sending'],
      ['c', 'sending'],
      ['d', 'sending'],
    ]);
    visitorSocket.connect();
    await until(() => visitor.store.get().thread.outbox.length === 0, 'outbox empty');
    expect(visitor.store.get().thread.messages.map((m) => m.body)).toEqual(['a', 'b', 'c', 'd']);

    // Staff's list shows the conversation with four unread, then none once opened.
    await until(() => staff.store.get().conversations[0]?.unread === 4, 'four unread');
    await staff.open(staff.store.get().conversations[0]!.id);
    await until(() => staff.store.get().conversations[0]?.unread === 0, 'read');
  });

  it('marks a refused message failed and sends it on retry', async () => {
    const { visitor } = await visitorAndStaff();
    // 21 in a minute: the last is refused by the rate limit and waits for Retry.
    for (let i = 1; i <= 21; i++) visitor.send(`m${i}`);
    await until(() => visitor.store.get().thread.messages.length === 20 && visitor.store.get().thread.outbox[0]?.status === 'failed', 'refused');
    const refused = visitor.store.get().thread.outbox[0]!;
    expect(refused).toMatchObject({ body: 'm21', error: 'Too many requests. Please wait a moment and try again.' });

    // A minute later (the server's clock moved on), Retry sends it.
    app.deps.now = () => new Date(Date.now() + 61_000);
    visitor.retry(refused.clientId);
    await until(() => visitor.store.get().thread.outbox.length === 0, 'retried');
    expect(visitor.store.get().thread.messages.at(-1)).toMatchObject({ body: 'm21', clientId: refused.clientId });
  });
});
