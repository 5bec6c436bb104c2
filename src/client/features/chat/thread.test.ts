import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../shared/chat.ts';
import { emptyThread, lastSeenId, replayed, withMessages } from './thread.ts';

const message = (id: number): ChatMessage => ({
  id,
  conversationId: 'conversation',
  clientId: `c${id}`,
  sender: 'visitor',
  senderName: null,
  body: `m${id}`,
  createdAt: new Date(0).toISOString(),
});

describe('where a replay starts', () => {
  it('is not moved by a live message that arrives after a gap (a message missed while disconnected)', () => {
    // Replayed 1–2; the connection dropped while 3 was sent; 4 arrives live after the reconnection.
    const thread = withMessages(replayed(emptyThread, [message(1), message(2)]), [message(4)]);
    expect(lastSeenId(thread)).toBe(4);
    expect(thread.replayedTo).toBe(2);
    // The replay from 2 brings 3 (and 4 again, kept once).
    const after = replayed(thread, [message(3), message(4)]);
    expect(after.messages.map((m) => m.id)).toEqual([1, 2, 3, 4]);
    expect(after.replayedTo).toBe(4);
  });

  it('stays where it was after an empty replay page', () => {
    expect(replayed(replayed(emptyThread, [message(1)]), []).replayedTo).toBe(1);
  });
});
