import type { ChatMessage } from '../../../shared/chat.ts';

/**
 * One conversation as a client holds it: the stored messages (ordered by the
 * server's id, each id once) and the outbox of messages not yet acknowledged.
 * Pure functions, shared by the visitor widget and the staff console.
 */

export interface OutgoingMessage {
  clientId: string;
  body: string;
  /** ISO instant the visitor pressed Send (shown until the stored time replaces it). */
  createdAt: string;
  /** sending: waits for an acknowledgement, resent after a reconnect; failed: refused, needs Retry. */
  status: 'sending' | 'failed';
  error: string | null;
}

export interface Thread {
  messages: ChatMessage[];
  outbox: OutgoingMessage[];
  /**
   * Every message up to this id is in `messages`: advanced only by a replay
   * (`replayed`). A live message or an acknowledgement may arrive while an
   * earlier one was missed during a dropped connection, so the highest id
   * seen is not where the next replay may start.
   */
  replayedTo: number;
}

export const emptyThread: Thread = { messages: [], outbox: [], replayedTo: 0 };

/** Adds messages from a replay, a live event or an acknowledgement — in any order, any number of times. */
export function withMessages(thread: Thread, incoming: ChatMessage[]): Thread {
  if (incoming.length === 0) return thread;
  const byId = new Map(thread.messages.map((message) => [message.id, message]));
  for (const message of incoming) byId.set(message.id, message);
  const messages = [...byId.values()].sort((a, b) => a.id - b.id);
  const stored = new Set(incoming.map((message) => message.clientId));
  return { ...thread, messages, outbox: thread.outbox.filter((item) => !stored.has(item.clientId)) };
}

/** Adds a page of a replay: the server's messages after `replayedTo`, in order and without gaps. */
export function replayed(thread: Thread, page: ChatMessage[]): Thread {
  const next = withMessages(thread, page);
  return { ...next, replayedTo: page.reduce((max, message) => Math.max(max, message.id), thread.replayedTo) };
}

export function queued(thread: Thread, item: { clientId: string; body: string; createdAt: string }): Thread {
  return { ...thread, outbox: [...thread.outbox, { ...item, status: 'sending', error: null }] };
}

export function failed(thread: Thread, clientId: string, error: string): Thread {
  return { ...thread, outbox: thread.outbox.map((item) => (item.clientId === clientId ? { ...item, status: 'failed', error } : item)) };
}

export function retried(thread: Thread, clientId: string): Thread {
  return { ...thread, outbox: thread.outbox.map((item) => (item.clientId === clientId ? { ...item, status: 'sending', error: null } : item)) };
}

export function lastSeenId(thread: Thread): number {
  return thread.messages.at(-1)?.id ?? 0;
}

/** The oldest message still waiting to be sent: the outbox goes out in order, one at a time. */
export function nextToSend(thread: Thread): OutgoingMessage | undefined {
  return thread.outbox.find((item) => item.status === 'sending');
}

/** A UUID even where `crypto.randomUUID` is missing (it needs a secure context; plain-http LAN installs lack one). */
export function newClientId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
