import type { Socket } from 'socket.io-client';
import type { ChatAck, ChatMessage, VisitorClientEvents, VisitorServerEvents } from '../../../shared/chat.ts';
import { ackTimeoutMs, Store, typingExpiryMs, type ConnectionStatus } from './store.ts';
import { Outbox } from './outbox.ts';
import { emptyThread, failed, newClientId, nextToSend, queued, replayed, retried, withMessages, type Thread } from './thread.ts';

export type VisitorSocket = Socket<VisitorServerEvents, VisitorClientEvents>;

export interface VisitorChatState {
  status: ConnectionStatus;
  /** Null until the server has said. */
  staffOnline: boolean | null;
  staffTyping: boolean;
  thread: Thread;
  /** Staff messages that arrived while the widget was closed. */
  unread: number;
  error: string | null;
}

/**
 * The visitor's side of the protocol (docs/decisions/013-chat-protocol.md):
 * on every (re)connect it replays what it missed after its last seen id,
 * then sends its outbox, oldest first, until each message is acknowledged.
 * Nothing is lost or duplicated across a dropped connection because the
 * server stores each clientId once.
 */
export class VisitorChat {
  readonly store = new Store<VisitorChatState>({
    status: 'connecting',
    staffOnline: null,
    staffTyping: false,
    thread: emptyThread,
    unread: 0,
    error: null,
  });
  private readonly socket: VisitorSocket;
  private page: string;
  private visible = true;
  /** Bumped on every connect: a send loop from an older connection stops. */
  private generation = 0;
  private readonly outbox = new Outbox({
    generation: () => this.generation,
    connected: () => this.socket.connected,
    next: () => nextToSend(this.store.get().thread),
    send: (next) => this.socket.timeout(ackTimeoutMs).emitWithAck('send', { clientId: next.clientId, body: next.body, page: this.page }),
    settle: (next, ack) => (ack.ok ? this.receive([ack.message]) : this.store.set((s) => ({ thread: failed(s.thread, next.clientId, ack.error) }))),
    restart: () => this.socket.disconnect().connect(),
  });
  private typingTimer: ReturnType<typeof setTimeout> | undefined;
  private typingSentAt = 0;

  constructor(socket: VisitorSocket, page: string) {
    this.socket = socket;
    this.page = page;
    socket.on('connect', () => void this.onConnect());
    socket.on('disconnect', () => this.store.set({ status: 'reconnecting' }));
    socket.on('connect_error', (error) => {
      // The server refused the handshake (no cookie, foreign origin): Socket.IO will not retry by itself.
      if (!socket.active) this.store.set({ status: 'refused', error: error.message });
    });
    socket.on('message', (message) => this.receive([message]));
    socket.on('presence', ({ staffOnline }) => this.store.set({ staffOnline }));
    socket.on('typing', ({ typing }) => {
      clearTimeout(this.typingTimer);
      this.store.set({ staffTyping: typing });
      if (typing) this.typingTimer = setTimeout(() => this.store.set({ staffTyping: false }), typingExpiryMs);
    });
    if (socket.connected) void this.onConnect();
  }

  /** The widget is open (staff messages count as read) or closed (they count as unread). */
  setVisible(visible: boolean): void {
    this.visible = visible;
    if (visible) this.store.set({ unread: 0 });
  }

  send(body: string): void {
    this.store.set((s) => ({ thread: queued(s.thread, { clientId: newClientId(), body, createdAt: new Date().toISOString() }) }));
    this.setTyping(false);
    void this.flush();
  }

  retry(clientId: string): void {
    this.store.set((s) => ({ thread: retried(s.thread, clientId) }));
    void this.flush();
  }

  /** Sent at most every 2 s while typing; "stopped" always goes out. */
  setTyping(typing: boolean): void {
    if (!this.socket.connected) return;
    const now = Date.now();
    if (typing && now - this.typingSentAt < 2000) return;
    if (!typing && this.typingSentAt === 0) return;
    this.typingSentAt = typing ? now : 0;
    this.socket.emit('typing', { typing });
  }

  setPage(page: string): void {
    if (page === this.page) return;
    this.page = page;
    if (this.socket.connected) this.socket.emit('page', { page });
  }

  /** No staff online: the message and an email address, stored and emailed to staff. */
  async leaveMessage(email: string, body: string): Promise<ChatAck<{ message: ChatMessage }>> {
    const clientId = newClientId();
    // One clientId for every attempt: a retry after a lost acknowledgement is not a second email.
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const ack = await this.socket.timeout(ackTimeoutMs).emitWithAck('offline', { clientId, email, body, page: this.page });
        if (ack.ok) this.receive([ack.message]);
        return ack;
      } catch {
        // Not connected or no answer: try again once the connection is back.
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
    return { ok: false, error: 'We could not reach the server. Check your connection and try again.' };
  }

  close(): void {
    clearTimeout(this.typingTimer);
    this.socket.disconnect();
  }

  private receive(messages: ChatMessage[]): void {
    this.store.set((s) => {
      const known = new Set(s.thread.messages.map((m) => m.id));
      const newFromStaff = messages.filter((m) => m.sender === 'staff' && !known.has(m.id)).length;
      return {
        thread: withMessages(s.thread, messages),
        unread: this.visible ? 0 : s.unread + newFromStaff,
        staffTyping: newFromStaff > 0 ? false : s.staffTyping,
      };
    });
  }

  private async onConnect(): Promise<void> {
    const generation = ++this.generation;
    this.store.set({ status: 'connected', error: null });
    try {
      // Replay everything after the last message known to be preceded by all others, page by page.
      for (;;) {
        const ack = await this.socket
          .timeout(ackTimeoutMs)
          .emitWithAck('sync', { lastSeenId: this.store.get().thread.replayedTo, page: this.page });
        if (generation !== this.generation) return;
        if (!ack.ok) {
          this.store.set({ error: ack.error });
          return;
        }
        this.store.set({ staffOnline: ack.staffOnline });
        this.receive(ack.messages);
        this.store.set((s) => ({ thread: replayed(s.thread, ack.messages) }));
        if (!ack.more) break;
      }
    } catch {
      return; // the connection dropped again; the next connect replays
    }
    await this.flush();
  }

  private flush(): Promise<void> {
    return this.outbox.drain();
  }
}
