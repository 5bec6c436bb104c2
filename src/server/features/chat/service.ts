import { randomBytes } from 'node:crypto';
import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding';
import type { Tx } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import { consumeRate, tooManyRequestsMessage, type RateRule } from '../../rate-limit.ts';
import { onChatMessageLeftOffline, onChatReplyToAbsentVisitor } from '../notifications/events.ts';
import { chatReplayLimit, type ChatAck, type ChatConversationSummary, type ChatMessage } from '../../../shared/chat.ts';
import * as repo from './repository.ts';

/**
 * The chat's rules: who may write where, how often, and that a message is
 * stored exactly once whatever the network does. The socket layer
 * (`socket.ts`) only parses input and routes events.
 */

export const chatRateRules = {
  /** Per visitor cookie (one conversation). */
  perConversation: { name: 'chat:conversation', limit: 20, windowSeconds: 60 },
  perAddress: { name: 'chat:ip', limit: 20, windowSeconds: 60 },
  /** Each offline message emails staff: a tighter limit per address. */
  offlinePerAddress: { name: 'chat-offline:ip', limit: 5, windowSeconds: 600 },
} satisfies Record<string, RateRule>;

export const chatUnavailableMessage = 'That conversation no longer exists.';

/** 160 random bits, like staff session tokens; only the SHA-256 is stored. */
export function newVisitorToken(): string {
  return encodeBase32LowerCaseNoPadding(randomBytes(20));
}

export function isVisitorToken(token: string | undefined): token is string {
  return token !== undefined && /^[a-z2-7]{32}$/.test(token);
}

export interface VisitorRef {
  tokenHash: string;
  /** Client address, for the per-address limits. */
  ip: string;
}

async function checkRates(deps: Deps, rules: Array<[RateRule, string]>): Promise<ChatAck<object> | null> {
  for (const [rule, subject] of rules) {
    const decision = await consumeRate(deps, rule, subject, deps.now());
    if (!decision.allowed) return { ok: false, error: tooManyRequestsMessage, retryAfterSeconds: decision.retryAfterSeconds };
  }
  return null;
}

/** A resend of a stored message is answered from the database without spending the rate budget. */
async function findResend(deps: Deps, conversationId: string | undefined, clientId: string): Promise<ChatMessage | null> {
  if (!conversationId) return null;
  return repo.messageByClientId(deps.db, conversationId, clientId);
}

export async function visitorHistory(
  deps: Deps,
  visitor: VisitorRef,
  afterId: number,
): Promise<{ conversationId: string | null; messages: ChatMessage[]; more: boolean }> {
  const conversation = await repo.findConversationByTokenHash(deps.db, visitor.tokenHash);
  if (!conversation) return { conversationId: null, messages: [], more: false };
  const page = await repo.messagesAfter(deps.db, conversation.id, afterId, chatReplayLimit);
  return { conversationId: conversation.id, ...page };
}

export async function setVisitorPage(deps: Deps, visitor: VisitorRef, page: string): Promise<string | null> {
  const conversation = await repo.findConversationByTokenHash(deps.db, visitor.tokenHash);
  if (!conversation) return null;
  await repo.setCurrentPage(deps.db, conversation.id, page);
  return conversation.id;
}

export interface SendResult {
  message: ChatMessage;
  /** False when this was a resend of a stored message (nothing new to broadcast). */
  created: boolean;
  conversation: repo.ConversationRow;
}

export async function sendVisitorMessage(
  deps: Deps,
  visitor: VisitorRef,
  input: { clientId: string; body: string; page?: string | undefined },
): Promise<ChatAck<SendResult>> {
  return storeVisitorMessage(deps, visitor, input, { rates: [], effects: async () => {} });
}

/**
 * No staff online: the message joins the conversation (staff see it when they
 * come back) and lands in the Messages inbox as a `chat_offline` contact
 * message, whose notification emails staff — all in one transaction.
 */
export async function leaveOfflineMessage(
  deps: Deps,
  visitor: VisitorRef,
  input: { clientId: string; email: string; body: string; page?: string | undefined },
): Promise<ChatAck<SendResult>> {
  return storeVisitorMessage(deps, visitor, input, {
    rates: [[chatRateRules.offlinePerAddress, visitor.ip]],
    effects: async (tx, conversationId, stored) => {
      await repo.setVisitorEmail(tx, conversationId, input.email);
      if (!stored) return;
      await repo.insertOfflineContactMessage(tx, { email: input.email, body: input.body });
      // The notification reads the chat message (and the conversation's email) itself.
      await onChatMessageLeftOffline(tx, deps, { conversationId, messageId: String(stored.id) });
    },
  });
}

/**
 * A visitor's message, online or offline: a resend is answered from the
 * database (no rate spent); otherwise the rates are charged, then in one
 * transaction the conversation is found or opened and locked, the page noted,
 * the message stored, and `effects` run (with the message when it is new).
 */
async function storeVisitorMessage(
  deps: Deps,
  visitor: VisitorRef,
  input: { clientId: string; body: string; page?: string | undefined },
  extra: {
    rates: Array<[RateRule, string]>;
    effects: (tx: Tx, conversationId: string, stored: ChatMessage | null) => Promise<void>;
  },
): Promise<ChatAck<SendResult>> {
  const existing = await repo.findConversationByTokenHash(deps.db, visitor.tokenHash);
  const resent = await findResend(deps, existing?.id, input.clientId);
  if (resent && existing) return { ok: true, message: resent, created: false, conversation: existing };

  const refused = await checkRates(deps, [
    [chatRateRules.perConversation, visitor.tokenHash],
    [chatRateRules.perAddress, visitor.ip],
    ...extra.rates,
  ]);
  if (refused && !refused.ok) return refused;

  return deps.db.transaction(async (tx) => {
    const conversation = await repo.ensureConversation(tx, visitor.tokenHash, input.page ?? null);
    await repo.lockConversation(tx, conversation.id);
    if (input.page) await repo.setCurrentPage(tx, conversation.id, input.page);
    const { message, created } = await repo.insertMessage(tx, {
      conversationId: conversation.id,
      clientId: input.clientId,
      sender: 'visitor',
      staffUserId: null,
      body: input.body,
    });
    await extra.effects(tx, conversation.id, created ? message : null);
    return { ok: true as const, message, created, conversation };
  });
}

export async function sendStaffMessage(
  deps: Deps,
  staffUserId: string,
  input: { conversationId: string; clientId: string; body: string },
): Promise<ChatAck<SendResult>> {
  return deps.db.transaction(async (tx) => {
    const conversation = await repo.findConversationById(tx, input.conversationId);
    if (!conversation) return { ok: false as const, error: chatUnavailableMessage };
    await repo.lockConversation(tx, conversation.id);
    const { message, created } = await repo.insertMessage(tx, {
      conversationId: conversation.id,
      clientId: input.clientId,
      sender: 'staff',
      staffUserId,
      body: input.body,
    });
    // Answering a conversation means staff have read it up to here.
    await repo.markStaffRead(tx, conversation.id, message.id);
    return { ok: true as const, message, created, conversation };
  });
}

/** How much of the conversation a reply email quotes: the most recent messages. */
const replyEmailMessages = 30;

/**
 * A staff reply to a visitor who is not connected: when they left an email
 * address (the offline form promised "We'll reply to <email>"), the reply goes
 * there with the conversation so far. Returns whether an email was queued.
 */
export async function emailReplyToAbsentVisitor(deps: Deps, conversationId: string, replyMessageId: number): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const summary = await repo.conversationSummary(tx, conversationId);
    if (!summary?.visitorEmail) return false;
    const messages = await repo.messagesUpTo(tx, conversationId, replyMessageId, replyEmailMessages);
    await onChatReplyToAbsentVisitor(tx, deps, { to: summary.visitorEmail, replyMessageId, messages });
    return true;
  });
}

export async function staffHistory(
  deps: Deps,
  conversationId: string,
  afterId: number,
): Promise<ChatAck<{ messages: ChatMessage[]; more: boolean }>> {
  const conversation = await repo.findConversationById(deps.db, conversationId);
  if (!conversation) return { ok: false, error: chatUnavailableMessage };
  return { ok: true, ...(await repo.messagesAfter(deps.db, conversationId, afterId, chatReplayLimit)) };
}

export async function markRead(
  deps: Deps,
  conversationId: string,
  upTo: number,
): Promise<ChatAck<{ conversation: ChatConversationSummary }>> {
  await deps.db.transaction(async (tx) => {
    await repo.lockConversation(tx, conversationId);
    await repo.markStaffRead(tx, conversationId, upTo);
  });
  const conversation = await repo.conversationSummary(deps.db, conversationId);
  return conversation ? { ok: true, conversation } : { ok: false, error: chatUnavailableMessage };
}

export function findConversation(deps: Deps, conversationId: string): Promise<repo.ConversationRow | null> {
  return repo.findConversationById(deps.db, conversationId);
}

export function listConversations(deps: Deps): Promise<ChatConversationSummary[]> {
  return repo.listConversations(deps.db, 100);
}

export function conversationSummary(deps: Deps, conversationId: string): Promise<ChatConversationSummary | null> {
  return repo.conversationSummary(deps.db, conversationId);
}
