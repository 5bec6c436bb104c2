import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';

/** What a request still running at the shutdown deadline is answered (503, JSON `{error}`). */
export const serverRestartingMessage = 'The server is restarting and could not finish this request. Please try again in a moment.';

/**
 * The end of SHUTDOWN_TIMEOUT_SECONDS kept for closing (docs/decisions/075-shutdown-by-the-deadline.md): the
 * requests' deadline comes this long before it, so the answers to what is cut
 * short, the outbox, the retention job and the pool all fit inside the
 * deadline — the process exits by then whatever the database does.
 */
export function closingReserveMs(shutdownTimeoutMs: number): number {
  return Math.min(2_000, Math.floor(shutdownTimeoutMs / 4));
}

/**
 * Graceful shutdown for the HTTP server (docs/decisions/028-shutdown-and-atomic-writes.md).
 *
 * Node's `server.close()` also closes every keep-alive connection that has no
 * response in progress — including those whose next request has already been
 * sent but not yet read off the socket, which the client then sees as a reset
 * (1–18 requests per SIGTERM under load). Instead:
 * - stop listening (no new connections), without touching open ones;
 * - answer every request that arrives on an open connection, with
 *   `Connection: close`, so the client opens its next one elsewhere;
 * - close an idle keep-alive connection only when it has been idle for the
 *   server's keep-alive timeout, as Node does outside a shutdown: a client may
 *   reuse a connection until then (the `Keep-Alive: timeout=5` it was told), so
 *   closing it sooner — the old 500 ms after the signal — reset a request sent
 *   at that moment (issue 24, finding 10);
 * - at the deadline, answer whatever is still running 503 with a message
 *   (`cutShort`): a request received before the signal is never left without
 *   an HTTP answer, however long its database takes (finding 9).
 */
export interface Drain {
  /** Starts draining; resolves true when every connection has closed, false at the deadline. */
  start(deadlineMs: number): Promise<boolean>;
  /** Requests still in progress (uploads at the deadline). */
  active(): number;
  /** Waits up to `ms` for requests in progress to end. */
  settle(ms: number): Promise<void>;
  /**
   * Answers every request still in progress 503 `serverRestartingMessage`
   * (one whose answer has begun is ended), then waits up to `flushMs` for the
   * answers to be written and their connections to close.
   */
  cutShort(flushMs: number): Promise<void>;
  /** Closes whatever is left. */
  destroyAll(): void;
}

interface ConnectionState {
  active: number;
  quietSince: number;
}

export function trackConnections(server: Server, options: { quietMs?: number } = {}): Drain {
  // Read at the signal: the server's keep-alive timeout, unless the caller names one.
  const quietMsOf = () => options.quietMs ?? server.keepAliveTimeout;
  const connections = new Map<Socket, ConnectionState>();
  const responses = new Set<ServerResponse>();
  let draining = false;
  let onChange = () => {};

  server.on('connection', (socket: Socket) => {
    connections.set(socket, { active: 0, quietSince: Date.now() });
    socket.once('close', () => {
      connections.delete(socket);
      onChange();
    });
  });
  // Before the app's own listener: a handler that answers at once (/healthz) must already see draining.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const state = connections.get(req.socket);
    if (state) state.active++;
    responses.add(res);
    if (draining) res.shouldKeepAlive = false;
    res.once('close', () => {
      responses.delete(res);
      if (state) {
        state.active--;
        state.quietSince = Date.now();
      }
      onChange();
    });
  });

  const closeQuiet = (quietMs: number) => {
    const now = Date.now();
    for (const [socket, state] of connections) {
      if (state.active === 0 && now - state.quietSince >= quietMs) socket.end();
    }
  };

  return {
    start(deadlineMs) {
      draining = true;
      const quietMs = quietMsOf();
      // Responses not yet begun close their connection when done.
      for (const res of responses) if (!res.headersSent) res.shouldKeepAlive = false;
      // net.Server's close: stop accepting, leave open connections alone (http.Server's would close idle ones).
      NetServer.prototype.close.call(server);
      return new Promise<boolean>((resolve) => {
        const finish = (done: boolean) => {
          clearInterval(sweep);
          clearTimeout(deadline);
          onChange = () => {};
          resolve(done);
        };
        const sweep = setInterval(() => closeQuiet(quietMs), Math.min(100, quietMs));
        const deadline = setTimeout(() => finish(false), deadlineMs);
        onChange = () => {
          if (connections.size === 0) finish(true);
        };
        onChange();
      });
    },
    active: () => responses.size,
    settle(ms) {
      return new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        const poll = setInterval(() => {
          if (responses.size === 0) done();
        }, 20);
        function done() {
          clearTimeout(timer);
          clearInterval(poll);
          resolve();
        }
      });
    },
    async cutShort(flushMs) {
      for (const res of responses) {
        if (res.headersSent) {
          // Half an answer cannot become another one: end it, the client sees it incomplete.
          res.destroy();
          continue;
        }
        const body = JSON.stringify({ error: serverRestartingMessage });
        res.shouldKeepAlive = false;
        res.writeHead(503, {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(body),
          'retry-after': '5',
          connection: 'close',
        });
        res.end(body);
        // The handler is still waiting (on a silent database): its own answer, if it
        // ever comes, is dropped rather than thrown as "headers already sent".
        res.setHeader = () => res;
        res.writeHead = () => res;
        res.write = () => true;
        res.end = () => res;
      }
      await this.settle(flushMs);
    },
    destroyAll() {
      for (const socket of connections.keys()) socket.destroy();
    },
  };
}
