import type { ChatAck, ChatMessage } from '../../../shared/chat.ts';

export type SendAck = ChatAck<{ message: ChatMessage }>;

/** What a chat client gives its outbox: its connection, its queue, and how to send and settle one message. */
export interface OutboxLink<Item> {
  /** Bumped on every connect by the client: a drain from an older connection stops. */
  generation(): number;
  connected(): boolean;
  /** The next queued message; none when nothing is waiting. */
  next(): Item | null | undefined;
  /** Emits it and resolves with the server's acknowledgement (rejects when none comes in time). */
  send(item: Item): Promise<SendAck>;
  settle(item: Item, ack: SendAck): void;
  /** Drops and reopens the connection. */
  restart(): void;
}

/**
 * Sends the visitor's or staff member's queued messages in order, one awaiting
 * its acknowledgement at a time, for as long as the same connection is up
 * (docs/decisions/013-chat-protocol.md). No acknowledgement: the message stays
 * queued and the connection is restarted, so it goes again on the next one.
 * One drain per connection: a second call while one runs does nothing.
 */
export class Outbox<Item> {
  private drainingGeneration = -1;
  private readonly link: OutboxLink<Item>;
  constructor(link: OutboxLink<Item>) {
    this.link = link;
  }

  async drain(): Promise<void> {
    const { link } = this;
    const generation = link.generation();
    if (!link.connected() || this.drainingGeneration === generation) return;
    this.drainingGeneration = generation;
    const live = () => link.connected() && generation === link.generation();
    try {
      while (live()) {
        const item = link.next();
        if (!item) return;
        let ack: SendAck;
        try {
          ack = await link.send(item);
        } catch {
          if (live()) link.restart();
          return;
        }
        link.settle(item, ack);
      }
    } finally {
      if (this.drainingGeneration === generation) this.drainingGeneration = -1;
    }
  }
}
