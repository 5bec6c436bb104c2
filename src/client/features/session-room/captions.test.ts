import { describe, expect, it } from 'vitest';
import type { SessionChatMessage } from '../../../shared/session.ts';
import { captionFadeMs, captionShowMs, captionsAt, nextCaptionChange } from './captions.ts';

const message = (id: number, sender: 'customer' | 'notary'): SessionChatMessage => ({ id, clientId: `c${id}`, sender, participantId: null, body: `line ${id}`, createdAt: new Date(0) });

describe('chat captions on the video', () => {
  const messages = [message(1, 'notary'), message(2, 'customer'), message(3, 'notary'), message(4, 'notary')];
  const arrivals = new Map([
    [1, 0],
    [3, 1_000],
    [4, 2_000],
  ]);

  it('shows the other side’s last two lines, then fades each out and drops it a few seconds after it arrived', () => {
    expect(captionsAt(messages, 'customer', arrivals, 2_000).map((c) => [c.message.id, c.fading])).toEqual([
      [3, false],
      [4, false],
    ]);
    // Line 3's last second: fading.
    expect(captionsAt(messages, 'customer', arrivals, 1_000 + captionShowMs - captionFadeMs).map((c) => [c.message.id, c.fading])).toEqual([
      [3, true],
      [4, false],
    ]);
    expect(captionsAt(messages, 'customer', arrivals, 1_000 + captionShowMs).map((c) => c.message.id)).toEqual([4]);
    expect(captionsAt(messages, 'customer', arrivals, 2_000 + captionShowMs)).toEqual([]);
    // Own lines are never captions.
    expect(captionsAt(messages, 'notary', new Map([[2, 0]]), 0).map((c) => c.message.id)).toEqual([2]);
    expect(captionShowMs).toBeLessThanOrEqual(10_000);
  });

  it('knows when the captions next change, and that nothing changes once all have gone', () => {
    expect(nextCaptionChange(arrivals, 2_000)).toBe(captionShowMs - captionFadeMs);
    expect(nextCaptionChange(arrivals, captionShowMs - captionFadeMs)).toBe(captionShowMs);
    expect(nextCaptionChange(arrivals, 2_000 + captionShowMs)).toBeNull();
  });
});
