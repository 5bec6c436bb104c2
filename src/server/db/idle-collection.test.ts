import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { idleCollection } from './idle-collection.ts';

describe('idle collection (the embedded database process)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('collects once after a quiet period, not while messages keep coming, and again only after new activity', () => {
    const collect = vi.fn();
    const idle = idleCollection(2000, collect);
    for (let i = 0; i < 10; i++) {
      idle.activity();
      vi.advanceTimersByTime(1500);
    }
    expect(collect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(500);
    expect(collect).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(60_000);
    expect(collect).toHaveBeenCalledTimes(1);
    idle.activity();
    vi.advanceTimersByTime(2000);
    expect(collect).toHaveBeenCalledTimes(2);
    idle.activity();
    idle.stop();
    vi.advanceTimersByTime(5000);
    expect(collect).toHaveBeenCalledTimes(2);
  });

  it('does nothing where the collector is not exposed', () => {
    const idle = idleCollection(2000, undefined);
    idle.activity();
    expect(vi.getTimerCount()).toBe(0);
  });
});
