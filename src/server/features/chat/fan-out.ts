import { createAdapter } from '@socket.io/postgres-adapter';
import type pg from 'pg';
import type { Logger } from '../../logger.ts';

/**
 * The connection that carries chat between nodes: @socket.io/postgres-adapter
 * checks one client out of the pool it is given, LISTENs on it for as long as
 * it lives, and checks a new one out (re-LISTENing every channel) when that
 * client ends. What the adapter leaves out is ours
 * (docs/decisions/027-bounded-database-waits.md):
 * - an 'error' listener on the LISTEN client — without it, one terminated
 *   backend (a restart, a failover, pg_terminate_backend) ended the process
 *   on every node at once;
 * - giving the dead client back to the pool (the adapter forgets it, which
 *   leaked one pool slot per reconnection);
 * - a heartbeat on the LISTEN client, because a connection whose peer went
 *   silent never ends by itself (TCP keepalive notices after ~11 minutes);
 * - backoff while the database stays away (the adapter retries every ~2 s),
 *   cut short as soon as the database is seen answering again (a request's new
 *   connection, a health probe): after a long outage every node reconnects at
 *   once instead of sitting out its backoff (issue 24, finding 8).
 * The adapter gets its own small pool, so requests never wait behind it and
 * it never waits behind requests. Its broadcasts (`pg_notify`, one per emit
 * that leaves this node) go through one connection of their own, held open,
 * on which they queue: under load they used to wait for a pool slot and time
 * out (issue 31: 860 of 3,343 acknowledged signals lost in one round).
 *
 * Liveness (`/healthz`) asks `stuckForMs`: how long the link has been down
 * *while the database answered* — counted from the first sign, after it went
 * down, that the database answers, and started again whenever the database is
 * seen failing. A link that is merely waiting to reconnect after an outage is
 * not stuck; one that cannot reconnect although the database answers is
 * (docs/decisions/076-liveness-after-an-outage.md).
 */
export interface FanOut {
  adapter: ReturnType<typeof createAdapter>;
  /** Milliseconds the LISTEN connection has been down (0 while it is up). */
  downForMs(): number;
  /** Milliseconds it has been down while the database answered (0 while up, or while the database is away). */
  stuckForMs(): number;
  /**
   * What the rest of the process saw of the database: `true` (a query or a new
   * connection succeeded) ends a pending backoff at once; `false` (it failed)
   * restarts the stuck clock.
   */
  databaseAnswered(answered: boolean): void;
  close(): Promise<void>;
}

export interface FanOutOptions {
  heartbeatMs?: number;
  heartbeatTimeoutMs?: number;
  /** Longest wait between reconnection attempts (default 30 s; LIVENESS_STUCK_SECONDS / 2). */
  maxBackoffMs?: number;
  now?: () => number;
}

export function createFanOut(pool: pg.Pool, log: Logger, options: FanOutOptions = {}): FanOut {
  const heartbeatMs = options.heartbeatMs ?? 10_000;
  const heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? 5_000;
  const maxBackoffMs = options.maxBackoffMs ?? 30_000;
  const now = options.now ?? Date.now;
  let downSince: number | null = now();
  /** While down: since when the database is known to answer (null: not seen answering yet). */
  let answeringSince: number | null = null;
  let failures = 0;
  let closed = false;
  let current: { client: pg.PoolClient; timer: NodeJS.Timeout } | null = null;
  /** Ends the backoff wait in progress, if any. */
  let wake: (() => void) | null = null;

  const markDown = () => {
    downSince ??= now();
  };
  const markUp = () => {
    downSince = null;
    answeringSince = null;
  };

  const watch = (client: pg.PoolClient) => {
    let released = false;
    const release = client.release.bind(client);
    // The adapter releases on close; we release on error or end; whichever comes first wins.
    client.release = ((error?: Error | boolean) => {
      if (released) return;
      released = true;
      clearInterval(timer);
      if (current?.client === client) current = null;
      release(error);
    }) as typeof client.release;
    const lost = (error: Error) => {
      if (released) return;
      markDown();
      log.warn({ err: error }, 'chat: connection between nodes lost; reconnecting');
      client.release(error);
    };
    client.on('error', lost);
    client.on('end', () => lost(new Error('connection ended')));
    const timer = setInterval(() => {
      client
        .query({ text: 'select 1', query_timeout: heartbeatTimeoutMs } as pg.QueryConfig)
        .then(() => {
          if (downSince !== null) log.info('chat: connection between nodes is back');
          markUp();
        })
        .catch((error: Error) => lost(error));
    }, heartbeatMs);
    timer.unref();
    current = { client, timer };
  };

  /** The held connection for NOTIFY; dropped (and made again at the next broadcast) when it fails. */
  let notifier: Promise<pg.PoolClient> | null = null;
  const notifierClient = () => {
    notifier ??= pool.connect().then(
      (client) => {
        if (closed) {
          client.release();
          throw new Error('chat fan-out closed');
        }
        client.on('error', (error: Error) => {
          log.warn({ err: error }, 'chat: broadcast connection lost; making a new one');
          if (notifier) notifier = null;
          client.release(error);
        });
        return client;
      },
      (error: unknown) => {
        notifier = null;
        throw error;
      },
    );
    return notifier;
  };

  let queue: Promise<unknown> = Promise.resolve();

  // What the adapter sees as its pool: connect() hands out watched clients; query() (its NOTIFYs) uses the held one.
  const facade = {
    async connect() {
      if (failures > 0) {
        // 0.5 s doubling to 30 s, half of it random, on top of the adapter's own ~2 s;
        // over at once when the database is seen answering again.
        const ceiling = Math.min(maxBackoffMs, 500 * 2 ** Math.min(failures, 6));
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, ceiling / 2 + (Math.random() * ceiling) / 2);
          timer.unref();
          wake = done;
          function done() {
            clearTimeout(timer);
            wake = null;
            resolve();
          }
        });
      }
      if (closed) throw new Error('chat fan-out closed');
      try {
        const client = await pool.connect();
        if (closed) {
          // Closed while connecting: a client kept now would never be given back, and
          // the pool's end (close below) would wait for it forever.
          client.release();
          throw new Error('chat fan-out closed');
        }
        failures = 0;
        watch(client);
        // LISTEN follows at once on this client; the first heartbeat confirms it.
        markUp();
        return client;
      } catch (error) {
        failures++;
        markDown();
        throw error;
      }
    },
    // One at a time, in order, on the held connection (pg deprecates queueing on a busy client).
    query: (...args: Parameters<pg.Pool['query']>) => {
      const run = queue.then(async () => {
        const client = await notifierClient();
        return (client.query as (...a: unknown[]) => Promise<unknown>)(...args);
      });
      queue = run.catch(() => {});
      return run;
    },
  };

  const adapter = createAdapter(facade as unknown as pg.Pool, {
    errorHandler: (err: Error) => log.warn({ err }, 'chat: socket.io adapter error'),
  });

  return {
    adapter,
    downForMs: () => (downSince === null ? 0 : now() - downSince),
    stuckForMs: () => (downSince === null || answeringSince === null ? 0 : now() - answeringSince),
    databaseAnswered(answered) {
      if (downSince === null) return;
      if (!answered) {
        answeringSince = null;
        return;
      }
      if (answeringSince === null) {
        // The database is back: the next attempt starts from the shortest wait, now.
        answeringSince = now();
        failures = 0;
      }
      wake?.();
    },
    async close() {
      closed = true;
      wake?.();
      if (current) current.client.release();
      const held = notifier;
      notifier = null;
      if (held) await held.then((client) => client.release(), () => {});
      await pool.end().catch(() => {});
    },
  };
}
