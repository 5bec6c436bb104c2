import { isMailSafeEmail } from './fields.ts';
import { z } from 'zod';

/**
 * The live-chat protocol, shared by the Socket.IO server and both clients
 * (see docs/decisions/013-chat-protocol.md). Every payload that crosses the
 * socket is parsed with one of these schemas on the server.
 */

export const chatMessageMaxLength = 2000;
/** How many messages one replay answers with at most; the client asks again from the last id. */
export const chatReplayLimit = 200;

export const chatVisitorCookie = 'chat_visitor';
export const chatNamespaces = { visitor: '/chat', staff: '/staff' } as const;

export const chatMessageBody = z
  .string()
  .trim()
  .min(1, 'Please type a message.')
  .max(chatMessageMaxLength, `Messages can be at most ${chatMessageMaxLength} characters.`);

/** A path on this site, e.g. "/schedule" (never a full URL: it is shown to staff). */
export const chatPagePath = z
  .string()
  .max(300)
  .regex(/^\/[^\s]*$/, 'A site path')
  .transform((path) => path.split('#')[0]!.split('?')[0]!);

const lastSeenId = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

export const visitorSyncInput = z.object({ lastSeenId, page: chatPagePath.optional() });
export const visitorSendInput = z.object({ clientId: z.uuid(), body: chatMessageBody, page: chatPagePath.optional() });
export const visitorTypingInput = z.object({ typing: z.boolean() });
export const visitorPageInput = z.object({ page: chatPagePath });
export const visitorOfflineInput = z.object({
  clientId: z.uuid(),
  email: z.email('Please enter a valid email address.').max(254).refine(isMailSafeEmail, 'Please enter a valid email address.'),
  body: chatMessageBody,
  page: chatPagePath.optional(),
});

export const staffSyncInput = z.object({ conversationId: z.uuid(), lastSeenId });
export const staffSendInput = z.object({ conversationId: z.uuid(), clientId: z.uuid(), body: chatMessageBody });
export const staffTypingInput = z.object({ conversationId: z.uuid(), typing: z.boolean() });
export const staffReadInput = z.object({ conversationId: z.uuid(), upTo: lastSeenId });
/** The console's Available / Away switch. */
export const staffAvailabilityInput = z.object({ away: z.boolean() });

export type ChatSender = 'visitor' | 'staff' | 'system';

/** One stored message, as both sides see it. `id` orders a conversation. */
export interface ChatMessage {
  id: number;
  conversationId: string;
  clientId: string;
  sender: ChatSender;
  /** The staff member's name on staff messages, otherwise null. */
  senderName: string | null;
  body: string;
  /** ISO instant. */
  createdAt: string;
}

/** A conversation in the staff list. */
export interface ChatConversationSummary {
  id: string;
  visitorEmail: string | null;
  currentPage: string | null;
  lastMessageAt: string | null;
  lastMessage: { body: string; sender: ChatSender } | null;
  unread: number;
  staffReadUpTo: number;
}

/** Acknowledgement of every request: the stored result, or a message to show. */
export type ChatAck<T> = ({ ok: true } & T) | { ok: false; error: string; retryAfterSeconds?: number };

export interface VisitorSyncResult {
  conversationId: string | null;
  staffOnline: boolean;
  messages: ChatMessage[];
  /** More messages after the last one returned: ask again. */
  more: boolean;
}

/** Server → visitor events. */
export interface VisitorServerEvents {
  message: (message: ChatMessage) => void;
  typing: (event: { typing: boolean }) => void;
  presence: (event: { staffOnline: boolean }) => void;
}

/** Visitor → server events; each answers through the Socket.IO acknowledgement. */
export interface VisitorClientEvents {
  sync: (input: z.input<typeof visitorSyncInput>, ack: (result: ChatAck<VisitorSyncResult>) => void) => void;
  send: (input: z.input<typeof visitorSendInput>, ack: (result: ChatAck<{ message: ChatMessage }>) => void) => void;
  typing: (input: z.input<typeof visitorTypingInput>) => void;
  page: (input: z.input<typeof visitorPageInput>) => void;
  offline: (input: z.input<typeof visitorOfflineInput>, ack: (result: ChatAck<{ message: ChatMessage }>) => void) => void;
}

/** Server → staff events. */
export interface StaffServerEvents {
  message: (event: { message: ChatMessage; conversation: ChatConversationSummary }) => void;
  conversation: (conversation: ChatConversationSummary) => void;
  typing: (event: { conversationId: string; typing: boolean }) => void;
}

/** Staff → server events. */
export interface StaffClientEvents {
  conversations: (ack: (result: ChatAck<{ conversations: ChatConversationSummary[] }>) => void) => void;
  sync: (
    input: z.input<typeof staffSyncInput>,
    ack: (result: ChatAck<{ messages: ChatMessage[]; more: boolean }>) => void,
  ) => void;
  send: (input: z.input<typeof staffSendInput>, ack: (result: ChatAck<{ message: ChatMessage }>) => void) => void;
  typing: (input: z.input<typeof staffTypingInput>) => void;
  read: (input: z.input<typeof staffReadInput>, ack: (result: ChatAck<{ conversation: ChatConversationSummary }>) => void) => void;
  availability: (input: z.input<typeof staffAvailabilityInput>, ack: (result: ChatAck<object>) => void) => void;
}
