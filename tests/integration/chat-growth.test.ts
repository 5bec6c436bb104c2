import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/server/db/client.ts';
import * as chat from '../../src/server/features/chat/service.ts';
import { hashToken } from '../../src/server/tokens.ts';
import { dbKinds } from '../helpers/db.ts';
import { startTestApp, type TestServer } from '../helpers/app.ts';
import { createStaffUser } from '../helpers/staff.ts';

/** Chat costs that must not grow with a conversation's length (issue 31, decision 080). */
describe.each(dbKinds)('chat at length (%s)', (kind) => {
  let app: TestServer;
  beforeAll(async () => {
    app = await startTestApp(kind);
  });
  afterAll(() => app.close());

  const visitor = () => ({ tokenHash: hashToken(randomUUID()), ip: `10.0.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` });

  it('emails an absent visitor the latest messages up to the reply, not the first ones', async () => {
    const who = visitor();
    const first = await chat.leaveOfflineMessage(app.deps, who, { clientId: randomUUID(), email: 'long@example.com', body: 'Message start' });
    if (!first.ok) throw new Error(first.error);
    const conversationId = first.conversation.id;
    // 600 earlier messages, written directly (the chat's rate limit would take half an hour).
    await app.deps.db.execute(sql`
      insert into chat_messages (conversation_id, client_id, sender, body)
      select ${conversationId}, 'seed-' || n, 'visitor', 'Message ' || n from generate_series(1, 600) n`);
    const staff = await createStaffUser(app.deps, { role: 'staff', name: 'Sam Staff' });
    const reply = await chat.sendStaffMessage(app.deps, staff.id, { conversationId, clientId: randomUUID(), body: 'Here is our answer.' });
    if (!reply.ok) throw new Error(reply.error);
    // A message after the reply is not part of it.
    await app.deps.db.execute(sql`insert into chat_messages (conversation_id, client_id, sender, body) values (${conversationId}, 'later', 'visitor', 'After the reply')`);

    expect(await chat.emailReplyToAbsentVisitor(app.deps, conversationId, reply.message.id)).toBe(true);
    const [mail] = await queryRows<{ text: string }>(app.deps.db, sql`select payload->'message'->>'text' as text from outbox where kind = 'chat_reply'`);
    const quoted = mail!.text.match(/(?:You|Sam Staff): [^\n]+/g)!;
    expect(quoted).toHaveLength(30);
    expect(quoted[0]).toBe('You: Message 572');
    expect(quoted.at(-2)).toBe('You: Message 600');
    expect(quoted.at(-1)).toBe('Sam Staff: Here is our answer.');
    expect(mail!.text).not.toContain('After the reply');
  });

  it('keeps the unread count and last message with the conversation, recounted only from the read pointer on', async () => {
    const who = visitor();
    const sent = [];
    for (const body of ['One', 'Two', 'Three']) {
      const ack = await chat.sendVisitorMessage(app.deps, who, { clientId: randomUUID(), body });
      if (!ack.ok) throw new Error(ack.error);
      sent.push(ack);
    }
    const conversationId = sent[0]!.conversation.id;
    expect(await chat.conversationSummary(app.deps, conversationId)).toMatchObject({ unread: 3, lastMessage: { body: 'Three', sender: 'visitor' } });

    const read = await chat.markRead(app.deps, conversationId, sent[1]!.message.id);
    expect(read).toMatchObject({ ok: true, conversation: { unread: 1, staffReadUpTo: sent[1]!.message.id } });
    // An older pointer reported late moves nothing.
    expect(await chat.markRead(app.deps, conversationId, sent[0]!.message.id)).toMatchObject({ conversation: { unread: 1, staffReadUpTo: sent[1]!.message.id } });

    const staff = await createStaffUser(app.deps, { role: 'staff' });
    const reply = await chat.sendStaffMessage(app.deps, staff.id, { conversationId, clientId: randomUUID(), body: 'x'.repeat(300) });
    if (!reply.ok) throw new Error(reply.error);
    const afterReply = await chat.conversationSummary(app.deps, conversationId);
    expect(afterReply).toMatchObject({ unread: 0, lastMessage: { sender: 'staff' } });
    expect(afterReply!.lastMessage!.body).toHaveLength(140);

    const again = await chat.sendVisitorMessage(app.deps, who, { clientId: randomUUID(), body: 'Four' });
    expect(again.ok).toBe(true);
    // A resend is not a new message: not counted twice.
    await chat.sendVisitorMessage(app.deps, who, { clientId: again.ok ? again.message.clientId : '', body: 'Four' });
    const listed = (await chat.listConversations(app.deps)).find((c) => c.id === conversationId);
    expect(listed).toMatchObject({ unread: 1, lastMessage: { body: 'Four', sender: 'visitor' } });
  });

  it("reads a conversation's messages by the (conversation, id) index", async () => {
    await app.deps.db.execute(sql`set enable_seqscan = off`);
    const plan = await queryRows(app.deps.db, sql`explain select id from chat_messages where conversation_id = ${randomUUID()} and id <= 5 order by id desc limit 30`);
    await app.deps.db.execute(sql`set enable_seqscan = on`);
    expect(JSON.stringify(plan)).toContain('chat_messages_conversation_idx');
  });
});
