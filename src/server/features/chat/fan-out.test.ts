import { EventEmitter } from 'node:events';
import type pg from 'pg';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../logger.ts';
import { createFanOut, type FanOut } from './fan-out.ts';

/**
 * The chat link's reconnection against a database that goes away and comes
 * back (issue 24, finding 8), on fake timers: the Socket.IO adapter's own
 * retry (1–3 s) and our backoff (up to 30 s) run as they would, with the
 * longest random waits.
 */
class FakeClient extends EventEmitter {
  released = false;
  query = vi.fn(async () => ({ rows: [] }));
  release = () => {
    this.released = true;
  };
}

function fakePool() {
  const state = { up: false, attempts: 0 };
  const pool = {
    async connect() {
      state.attempts++;
      if (!state.up) throw new Error('connect ECONNREFUSED');
      return new FakeClient();
    },
    query: async () => ({ rows: [] }),
    end: async () => {},
  };
  return { pool: pool as unknown as pg.Pool, state };
}

describe('chat fan-out: reconnecting after a database outage', () => {
  let fanOut: FanOut | undefined;
  beforeEach(() => {
    vi.useFakeTimers();
    // The longest waits: the adapter's 3 s, our full ceiling.
    vi.spyOn(Math, 'random').mockReturnValue(0.999);
  });
  afterEach(async () => {
    await fanOut?.close();
    fanOut = undefined;
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('reconnects at once when the database is seen answering, not at the end of its backoff', async () => {
    const { pool, state } = fakePool();
    fanOut = createFanOut(pool, createLogger('silent'), { maxBackoffMs: 30_000 });
    // A two-minute outage: the waits between attempts grow to the 30 s cap.
    await vi.advanceTimersByTimeAsync(120_000);
    expect(fanOut.downForMs()).toBeGreaterThanOrEqual(120_000);
    // Nothing has seen the database answer: down, but not stuck.
    expect(fanOut.stuckForMs()).toBe(0);
    const attemptsDuringOutage = state.attempts;
    expect(attemptsDuringOutage).toBeLessThan(20);

    state.up = true;
    fanOut.databaseAnswered(true);
    // At most the adapter's own retry (≤ 3 s) — not up to 30 s more of backoff.
    await vi.advanceTimersByTimeAsync(3_100);
    expect(fanOut.downForMs()).toBe(0);
    expect(fanOut.stuckForMs()).toBe(0);
  });

  it('counts stuck time only while the database answers, and starts again when it fails', async () => {
    const { pool } = fakePool();
    fanOut = createFanOut(pool, createLogger('silent'), { maxBackoffMs: 4_000 });
    await vi.advanceTimersByTimeAsync(70_000);
    expect(fanOut.stuckForMs()).toBe(0);
    // The database answers elsewhere, yet this link cannot connect: the fault is ours.
    fanOut.databaseAnswered(true);
    await vi.advanceTimersByTimeAsync(10_000);
    fanOut.databaseAnswered(true);
    expect(fanOut.stuckForMs()).toBeGreaterThanOrEqual(10_000);
    // The database fails again: an outage, not a stuck link; the clock starts over.
    fanOut.databaseAnswered(false);
    expect(fanOut.stuckForMs()).toBe(0);
    fanOut.databaseAnswered(true);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(fanOut.stuckForMs()).toBeGreaterThanOrEqual(1_000);
    expect(fanOut.stuckForMs()).toBeLessThan(2_000);
  });

  it('caps its backoff at maxBackoffMs', async () => {
    const { pool, state } = fakePool();
    fanOut = createFanOut(pool, createLogger('silent'), { maxBackoffMs: 4_000 });
    await vi.advanceTimersByTimeAsync(60_000);
    const before = state.attempts;
    // Each round: ≤ 3 s of the adapter's, ≤ 4 s of ours.
    await vi.advanceTimersByTimeAsync(70_000);
    expect(state.attempts - before).toBeGreaterThanOrEqual(10);
  });
});

describe('chat fan-out: closing', () => {
  it('gives back a client whose connection finishes after close, so the pool can end (a shutdown during a connect never hangs)', async () => {
    let finishConnect: (client: FakeClient) => void = () => {};
    const client = new FakeClient();
    let ended = false;
    const pool = {
      connect: () => new Promise<FakeClient>((resolve) => (finishConnect = resolve)),
      query: async () => ({ rows: [] }),
      // pg's pool.end() waits until every checked-out client is back.
      end: () =>
        new Promise<void>((resolve) => {
          const check = setInterval(() => {
            if (!client.released) return;
            clearInterval(check);
            ended = true;
            resolve();
          }, 5);
        }),
    };
    const fanOut = createFanOut(pool as unknown as pg.Pool, createLogger('silent'));
    // The adapter's first LISTEN connection is under way when the server shuts down.
    await new Promise((resolve) => setTimeout(resolve, 10));
    const closing = fanOut.close();
    finishConnect(client);
    await closing;
    expect(client.released).toBe(true);
    expect(ended).toBe(true);
  });
});
