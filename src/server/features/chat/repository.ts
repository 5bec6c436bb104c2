import { sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../db/client.ts';
import type { ChatConversationSummary, ChatMessage, ChatSender } from '../../../shared/chat.ts';

/** The only module of the chat feature that speaks SQL. */

/** Characters of the last message a conversation's summary shows. */
const lastMessagePreview = 140;

export interface ConversationRow {
  id: string;
  visitorTokenHash: string;
}

interface MessageRecord {
  id: string | number;
  conversation_id: string;
  client_id: string;
  sender: ChatSender;
  sender_name: string | null;
  body: string;
  created_at: string | Date;
}

function toMessage(row: MessageRecord): ChatMessage {
  return {
    id: Number(row.id),
    conversationId: row.conversation_id,
    clientId: row.client_id,
    sender: row.sender,
    senderName: row.sender === 'staff' ? (row.sender_name ?? 'Staff') : null,
    body: row.body,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

export async function findConversationByTokenHash(db: DbOrTx, tokenHash: string): Promise<ConversationRow | null> {
  const [row] = await queryRows<{ id: string }>(db, sql`select id from chat_conversations where visitor_token_hash = ${tokenHash}`);
  return row ? { id: row.id, visitorTokenHash: tokenHash } : null;
}

export async function findConversationById(db: DbOrTx, id: string): Promise<ConversationRow | null> {
  const [row] = await queryRows<{ id: string; visitor_token_hash: string }>(
    db,
    sql`select id, visitor_token_hash from chat_conversations where id = ${id}`,
  );
  return row ? { id: row.id, visitorTokenHash: row.visitor_token_hash } : null;
}

/** The visitor's conversation, created on their first message (two tabs may race: one row wins). */
export async function ensureConversation(db: DbOrTx, tokenHash: string, page: string | null): Promise<ConversationRow> {
  await db.execute(sql`
    insert into chat_conversations (visitor_token_hash, current_page) values (${tokenHash}, ${page})
    on conflict (visitor_token_hash) do nothing`);
  const found = await findConversationByTokenHash(db, tokenHash);
  if (!found) throw new Error('chat conversation vanished after insert');
  return found;
}

/**
 * Takes the conversation's row lock. Every insert into a conversation holds it
 * until commit, so message ids become visible in id order within a
 * conversation — a replay "after id N" can never skip a message that
 * committed late with a smaller id.
 */
export async function lockConversation(tx: DbOrTx, id: string): Promise<void> {
  await tx.execute(sql`select id from chat_conversations where id = ${id} for update`);
}

/** Inserts once per (conversation, clientId); a resend answers the stored message. */
export async function insertMessage(
  tx: DbOrTx,
  input: { conversationId: string; clientId: string; sender: ChatSender; staffUserId: string | null; body: string },
): Promise<{ message: ChatMessage; created: boolean }> {
  const inserted = await queryRows<{ id: string | number }>(
    tx,
    sql`
      insert into chat_messages (conversation_id, client_id, sender, staff_user_id, body)
      values (${input.conversationId}, ${input.clientId}, ${input.sender}, ${input.staffUserId}, ${input.body})
      on conflict (conversation_id, client_id) do nothing
      returning id`,
  );
  const created = inserted.length > 0;
  if (created) {
    // The conversation's summary moves with it (decision 080): no per-message count or search later.
    await tx.execute(sql`
      update chat_conversations set last_message_at = now(), last_message_body = left(${input.body}, ${lastMessagePreview}),
        last_message_sender = ${input.sender}, staff_unread = staff_unread + ${input.sender === 'visitor' ? 1 : 0}
      where id = ${input.conversationId}`);
  }
  const message = await messageByClientId(tx, input.conversationId, input.clientId);
  if (!message) throw new Error('chat message vanished after insert');
  return { message, created };
}

const messageSelect = sql`
  select m.id, m.conversation_id, m.client_id, m.sender, s.name as sender_name, m.body, m.created_at
  from chat_messages m left join staff_users s on s.id = m.staff_user_id`;

export async function messageByClientId(db: DbOrTx, conversationId: string, clientId: string): Promise<ChatMessage | null> {
  const [row] = await queryRows<MessageRecord>(
    db,
    sql`${messageSelect} where m.conversation_id = ${conversationId} and m.client_id = ${clientId}`,
  );
  return row ? toMessage(row) : null;
}

/** The latest `limit` messages up to `upToId` (inclusive), oldest first: by the (conversation, id) index, backwards. */
export async function messagesUpTo(db: DbOrTx, conversationId: string, upToId: number, limit: number): Promise<ChatMessage[]> {
  const rows = await queryRows<MessageRecord>(
    db,
    sql`${messageSelect} where m.conversation_id = ${conversationId} and m.id <= ${upToId} order by m.id desc limit ${limit}`,
  );
  return rows.reverse().map(toMessage);
}

/** Messages after `afterId`, oldest first; `limit + 1` are read to tell whether more follow. */
export async function messagesAfter(
  db: DbOrTx,
  conversationId: string,
  afterId: number,
  limit: number,
): Promise<{ messages: ChatMessage[]; more: boolean }> {
  const rows = await queryRows<MessageRecord>(
    db,
    sql`${messageSelect} where m.conversation_id = ${conversationId} and m.id > ${afterId} order by m.id limit ${limit + 1}`,
  );
  return { messages: rows.slice(0, limit).map(toMessage), more: rows.length > limit };
}

export async function setCurrentPage(db: DbOrTx, id: string, page: string): Promise<void> {
  await db.execute(sql`update chat_conversations set current_page = ${page} where id = ${id}`);
}

export async function setVisitorEmail(db: DbOrTx, id: string, email: string): Promise<void> {
  await db.execute(sql`update chat_conversations set visitor_email = ${email} where id = ${id}`);
}

/**
 * Read pointers only move forward, whatever order two staff tabs report in. The
 * unread count is recounted from the new pointer on (by the (conversation, id)
 * index: only the messages after it). Call with the conversation locked
 * (lockConversation): a visitor message committing meanwhile would otherwise be
 * missed by the count's snapshot while its increment is overwritten.
 */
export async function markStaffRead(tx: DbOrTx, id: string, upTo: number): Promise<void> {
  await tx.execute(sql`
    update chat_conversations c set staff_read_up_to = greatest(c.staff_read_up_to, ${upTo}),
      staff_unread = (select count(*) from chat_messages u
        where u.conversation_id = c.id and u.sender = 'visitor' and u.id > greatest(c.staff_read_up_to, ${upTo}))
    where c.id = ${id}`);
}

interface SummaryRecord {
  id: string;
  visitor_email: string | null;
  current_page: string | null;
  last_message_at: string | Date | null;
  staff_read_up_to: string | number;
  last_body: string | null;
  last_sender: ChatSender | null;
  unread: string | number;
}

/** One row per conversation, nothing counted or searched (decision 080). */
const summarySelect = sql`
  select c.id, c.visitor_email, c.current_page, c.last_message_at, c.staff_read_up_to,
    c.last_message_body as last_body, c.last_message_sender as last_sender, c.staff_unread as unread
  from chat_conversations c`;

function toSummary(row: SummaryRecord): ChatConversationSummary {
  return {
    id: row.id,
    visitorEmail: row.visitor_email,
    currentPage: row.current_page,
    lastMessageAt: row.last_message_at ? new Date(row.last_message_at).toISOString() : null,
    lastMessage: row.last_body !== null && row.last_sender ? { body: row.last_body, sender: row.last_sender } : null,
    unread: Number(row.unread),
    staffReadUpTo: Number(row.staff_read_up_to),
  };
}

/** Conversations with at least one message, most recent first. */
export async function listConversations(db: DbOrTx, limit: number): Promise<ChatConversationSummary[]> {
  const rows = await queryRows<SummaryRecord>(
    db,
    sql`${summarySelect} where c.last_message_at is not null order by c.last_message_at desc limit ${limit}`,
  );
  return rows.map(toSummary);
}

export async function conversationSummary(db: DbOrTx, id: string): Promise<ChatConversationSummary | null> {
  const [row] = await queryRows<SummaryRecord>(db, sql`${summarySelect} where c.id = ${id}`);
  return row ? toSummary(row) : null;
}

export async function insertOfflineContactMessage(
  tx: DbOrTx,
  input: { email: string; body: string },
): Promise<void> {
  await tx.execute(
    sql`insert into contact_messages (kind, name, email, message) values ('chat_offline', 'Chat visitor', ${input.email}, ${input.body})`,
  );
}
