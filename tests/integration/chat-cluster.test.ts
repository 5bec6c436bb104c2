import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatConversationSummary, ChatMessage } from '../../src/shared/chat.ts';
import {
  closeSockets,
  connectStaff,
  connectVisitor,
  connected,
  newVisitorCookie,
  nextEvent,
  startChatApp,
  startSecondNode,
  type ChatTestApp,
} from '../helpers/chat.ts';
import { createStaffUser } from '../helpers/staff.ts';

/**
 * Two app instances on one PostgreSQL database, each with its own Socket.IO
 * server: the PostgreSQL adapter (LISTEN/NOTIFY) carries events between them.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('live chat across two nodes (postgres)', () => {
  let nodeA: ChatTestApp;
  let nodeB: { url: string; close(): Promise<void> };
  beforeEach(async () => {
    nodeA = await startChatApp('postgres');
    nodeB = await startSecondNode(nodeA);
  });
  afterEach(async () => {
    closeSockets();
    await nodeB.close();
    await nodeA.close();
  });

  it('delivers live between a visitor on one node and staff on the other, with presence', async () => {
    const visitor = connectVisitor(nodeA.url, await newVisitorCookie(nodeA.url));
    await connected(visitor);
    expect(await visitor.timeout(5000).emitWithAck('sync', { lastSeenId: 0 })).toMatchObject({ staffOnline: false });

    // The adapter's nodes find each other by heartbeat; presence is pushed across.
    const presence = nextEvent<{ staffOnline: boolean }>(visitor, 'presence', (p) => p.staffOnline, 8000);
    const cookie = await (await createStaffUser(nodeA.deps, { role: 'staff', name: 'Remote Staff' })).sessionCookie();
    const staff = connectStaff(nodeB.url, cookie);
    await connected(staff);
    await presence;
    expect(await visitor.timeout(8000).emitWithAck('sync', { lastSeenId: 0 })).toMatchObject({ staffOnline: true });

    const staffSees = nextEvent<{ message: ChatMessage; conversation: ChatConversationSummary }>(staff, 'message');
    const sent = await visitor.timeout(5000).emitWithAck('send', { clientId: randomUUID(), body: 'Hello from node A', page: '/' });
    if (!sent.ok) throw new Error(sent.error);
    expect((await staffSees).message).toEqual(sent.message);

    const conversationId = sent.message.conversationId;
    const typing = nextEvent(visitor, 'typing');
    staff.emit('typing', { conversationId, typing: true });
    expect(await typing).toEqual({ typing: true });

    const visitorSees = nextEvent<ChatMessage>(visitor, 'message', (m) => m.sender === 'staff');
    const reply = await staff.timeout(5000).emitWithAck('send', { conversationId, clientId: randomUUID(), body: 'Hello from node B' });
    if (!reply.ok) throw new Error(reply.error);
    expect(await visitorSees).toEqual(reply.message);
  });
});
