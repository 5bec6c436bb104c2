import type { Socket } from 'socket.io-client';
import type { ChatAck, ChatConversationSummary, ChatMessage, StaffClientEvents, StaffServerEvents } from '../../../shared/chat.ts';
import { ackTimeoutMs, Store, typingExpiryMs, type ConnectionStatus } from './store.ts';
import { Outbox } from './outbox.ts';
import { emptyThread, failed, lastSeenId, newClientId, nextToSend, queued, replayed, retried, withMessages, type Thread } from './thread.ts';

export type StaffSocket = Socket<StaffServerEvents, StaffClientEvents>;

export interface StaffChatState {
  status: ConnectionStatus;
  error: string | null;
  /** Most recent first. */
  conversations: ChatConversationSummary[];
  loaded: boolean;
  activeId: string | null;
  threads: Record<string, Thread>;
  typing: Record<string, boolean>;
  /** The console's Away switch: signed in but not answering (visitors then see "offline"). */
  away: boolean;
}

const byRecent = (a: ChatConversationSummary, b: ChatConversationSummary) => (b.lastMessageAt ?? '').localeCompare(a.lastMessageAt ?? '');

/**
 * The staff console's side of the protocol: the conversation list with unread
 * counts, the open conversation's history (replayed after the last seen id on
 * every reconnect) and an outbox per conversation, resent until acknowledged.
 */
export class StaffChat {
  readonly store = new Store<StaffChatState>({
    status: 'connecting',
    error: null,
    conversations: [],
    loaded: false,
    activeId: null,
    threads: {},
    typing: {},
    away: false,
  });
  private readonly socket: StaffSocket;
  private generation = 0;
  /** Queued messages of every thread, the first waiting one first. */
  private readonly outbox = new Outbox({
    generation: () => this.generation,
    connected: () => this.socket.connected,
    next: () => {
      const pending = Object.entries(this.store.get().threads)
        .map(([conversationId, thread]) => ({ conversationId, item: nextToSend(thread) }))
        .find((entry) => entry.item);
      return pending?.item ? { conversationId: pending.conversationId, item: pending.item } : null;
    },
    send: ({ conversationId, item }) => this.socket.timeout(ackTimeoutMs).emitWithAck('send', { conversationId, clientId: item.clientId, body: item.body }),
    settle: ({ conversationId, item }, ack) => (ack.ok ? this.receive(conversationId, [ack.message]) : this.updateThread(conversationId, (t) => failed(t, item.clientId, ack.error))),
    restart: () => this.socket.disconnect().connect(),
  });
  private readonly typingTimers = new Map<string, ReturnType<typeof setTimeout>>();
  private typingSentAt = 0;
  /** Away / Available changed while not connected: told again once connected. */
  private awayChangedOffline = false;

  constructor(socket: StaffSocket, options: { away?: boolean } = {}) {
    this.socket = socket;
    this.store.set({ away: options.away ?? false });
    socket.on('connect', () => void this.onConnect());
    socket.on('disconnect', (reason) => {
      // The server cut us off (session ended): do not reconnect in a loop.
      this.store.set({ status: reason === 'io server disconnect' ? 'refused' : 'reconnecting' });
    });
    socket.on('connect_error', (error) => {
      if (!socket.active) this.store.set({ status: 'refused', error: error.message });
    });
    socket.on('message', ({ message, conversation }) => {
      this.upsert(conversation);
      this.receive(message.conversationId, [message]);
      clearTimeout(this.typingTimers.get(message.conversationId));
      if (message.sender === 'visitor') this.setTypingOf(message.conversationId, false);
      if (message.sender === 'visitor' && this.store.get().activeId === message.conversationId) void this.markRead();
    });
    socket.on('conversation', (conversation) => this.upsert(conversation));
    socket.on('typing', ({ conversationId, typing }) => this.setTypingOf(conversationId, typing));
    if (socket.connected) void this.onConnect();
  }

  async open(conversationId: string): Promise<void> {
    this.store.set((s) => ({ activeId: conversationId, threads: { ...s.threads, [conversationId]: s.threads[conversationId] ?? emptyThread } }));
    this.typingSentAt = 0;
    await this.syncActive();
    await this.markRead();
  }

  /** The Chat page closed: no conversation is being read, so new messages count as unread again. */
  leave(): void {
    this.store.set({ activeId: null });
  }

  send(body: string): void {
    const conversationId = this.store.get().activeId;
    if (!conversationId) return;
    this.updateThread(conversationId, (t) => queued(t, { clientId: newClientId(), body, createdAt: new Date().toISOString() }));
    this.setTyping(false);
    void this.flush();
  }

  retry(conversationId: string, clientId: string): void {
    this.updateThread(conversationId, (t) => retried(t, clientId));
    void this.flush();
  }

  setTyping(typing: boolean): void {
    const conversationId = this.store.get().activeId;
    if (!conversationId || !this.socket.connected) return;
    const now = Date.now();
    if (typing && now - this.typingSentAt < 2000) return;
    if (!typing && this.typingSentAt === 0) return;
    this.typingSentAt = typing ? now : 0;
    this.socket.emit('typing', { conversationId, typing });
  }

  async markRead(): Promise<void> {
    const { activeId, threads } = this.store.get();
    if (!activeId || !this.socket.connected) return;
    const upTo = lastSeenId(threads[activeId] ?? emptyThread);
    const summary = this.store.get().conversations.find((c) => c.id === activeId);
    if (summary && summary.unread === 0 && summary.staffReadUpTo >= upTo) return;
    try {
      const ack = await this.socket.timeout(ackTimeoutMs).emitWithAck('read', { conversationId: activeId, upTo });
      if (ack.ok) this.upsert(ack.conversation);
    } catch {
      // Retried with the next message or reconnect.
    }
  }

  /** Available ↔ Away: told to the server now, and carried by the handshake of every reconnection. */
  setAway(away: boolean): void {
    if (this.store.get().away === away) return;
    this.store.set({ away });
    this.socket.auth = { away };
    if (this.socket.connected) this.socket.emit('availability', { away }, () => {});
    else this.awayChangedOffline = true;
  }

  close(): void {
    for (const timer of this.typingTimers.values()) clearTimeout(timer);
    this.socket.disconnect();
  }

  private upsert(conversation: ChatConversationSummary): void {
    this.store.set((s) => ({
      conversations: [conversation, ...s.conversations.filter((c) => c.id !== conversation.id)].sort(byRecent),
    }));
  }

  private updateThread(conversationId: string, update: (thread: Thread) => Thread): void {
    this.store.set((s) => ({ threads: { ...s.threads, [conversationId]: update(s.threads[conversationId] ?? emptyThread) } }));
  }

  private receive(conversationId: string, messages: ChatMessage[]): void {
    // Only conversations already opened keep a thread; the others show in the list.
    if (!this.store.get().threads[conversationId]) return;
    this.updateThread(conversationId, (t) => withMessages(t, messages));
  }

  private setTypingOf(conversationId: string, typing: boolean): void {
    clearTimeout(this.typingTimers.get(conversationId));
    this.store.set((s) => ({ typing: { ...s.typing, [conversationId]: typing } }));
    if (typing) this.typingTimers.set(conversationId, setTimeout(() => this.setTypingOf(conversationId, false), typingExpiryMs));
  }

  private async onConnect(): Promise<void> {
    const generation = ++this.generation;
    this.store.set({ status: 'connected', error: null });
    // A switch made while this handshake was under way may not be in it (a reload's
    // reconnection): the server hears the current choice.
    if (this.awayChangedOffline) {
      this.awayChangedOffline = false;
      this.socket.emit('availability', { away: this.store.get().away }, () => {});
    }
    try {
      const listed = await this.socket.timeout(ackTimeoutMs).emitWithAck('conversations');
      if (generation !== this.generation) return;
      if (!listed.ok) return this.store.set({ error: listed.error });
      this.store.set({ conversations: [...listed.conversations].sort(byRecent), loaded: true });
      await this.syncActive();
      await this.markRead();
    } catch {
      return; // dropped again; the next connect starts over
    }
    await this.flush();
  }

  /** Replays the open conversation after the last message known to be preceded by all others, page by page. */
  private async syncActive(): Promise<void> {
    const conversationId = this.store.get().activeId;
    if (!conversationId || !this.socket.connected) return;
    for (;;) {
      const thread = this.store.get().threads[conversationId] ?? emptyThread;
      let ack: ChatAck<{ messages: ChatMessage[]; more: boolean }>;
      try {
        ack = await this.socket.timeout(ackTimeoutMs).emitWithAck('sync', { conversationId, lastSeenId: thread.replayedTo });
      } catch {
        return;
      }
      if (!ack.ok) return this.store.set({ error: ack.error });
      this.receive(conversationId, ack.messages);
      this.updateThread(conversationId, (t) => replayed(t, ack.messages));
      if (!ack.more) return;
    }
  }

  private flush(): Promise<void> {
    return this.outbox.drain();
  }
}
