import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';

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
 * - close a connection only after it has had nothing in progress for
 *   `quietMs` since the signal: a request the client sent before the signal has
 *   been read and answered by then.
 */
export interface Drain {
  /** Starts draining; resolves true when every connection has closed, false at the deadline. */
  start(deadlineMs: number): Promise<boolean>;
  /** Requests still in progress (uploads at the deadline). */
  active(): number;
  /** Waits up to `ms` for requests in progress to end. */
  settle(ms: number): Promise<void>;
  /** Closes whatever is left. */
  destroyAll(): void;
}

interface ConnectionState {
  active: number;
  quietSince: number;
}

export function trackConnections(server: Server, options: { quietMs?: number } = {}): Drain {
  const quietMs = options.quietMs ?? 500;
  const connections = new Map<Socket, ConnectionState>();
  const responses = new Set<ServerResponse>();
  let draining = false;
  let drainStartedAt = 0;
  let onChange = () => {};

  server.on('connection', (socket: Socket) => {
    connections.set(socket, { active: 0, quietSince: Date.now() });
    socket.once('close', () => {
      connections.delete(socket);
      onChange();
    });
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
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

  const closeQuiet = () => {
    const now = Date.now();
    for (const [socket, state] of connections) {
      if (state.active === 0 && now - Math.max(state.quietSince, drainStartedAt) >= quietMs) socket.end();
    }
  };

  return {
    start(deadlineMs) {
      draining = true;
      drainStartedAt = Date.now();
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
        const sweep = setInterval(closeQuiet, Math.min(100, quietMs));
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
    destroyAll() {
      for (const socket of connections.keys()) socket.destroy();
    },
  };
}
