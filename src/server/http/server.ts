import { createServer, type RequestListener, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { maxUploadMinutes } from '../features/documents/service.ts';

/**
 * How long a client may take (docs/decisions/025-request-bounds.md). The
 * largest thing anyone sends is a 10 MB document, which the upload handler
 * allows `maxUploadMinutes` (15; ~90 kbit/s) and then refuses with its own
 * message; the server's limit sits one minute above, as the backstop for
 * everything else. Headers must arrive within 20 s (a slowloris client sends them a byte
 * at a time and never finishes), and a connection that sends nothing for 60 s
 * is closed (honest uploads send all the time; Socket.IO pings every 25 s).
 */
export interface ServerBounds {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  idleTimeoutMs: number;
  /** Open connections one client address may hold; 0 = no cap (behind a proxy every client has the proxy's address). */
  maxConnectionsPerAddress: number;
  /**
   * Whether the cap also counts loopback clients. Off by default: on this host they are a
   * reverse proxy in front (carrying every visitor), probes, or the test suite's browsers.
   */
  capLoopback: boolean;
  /** How often Node checks the header and request deadlines. */
  checkIntervalMs: number;
}

export const defaultServerBounds: ServerBounds = {
  headersTimeoutMs: 20_000,
  requestTimeoutMs: (maxUploadMinutes + 1) * 60_000,
  keepAliveTimeoutMs: 5_000,
  idleTimeoutMs: 60_000,
  maxConnectionsPerAddress: 64,
  capLoopback: false,
  checkIntervalMs: 2_000,
};

/** The HTTP server with those bounds; `trustProxy` > 0 turns the per-address cap off (the proxy must apply it). */
export function createBoundedServer(app: RequestListener, options: { trustProxy: number; bounds?: Partial<ServerBounds> }): Server {
  const bounds = { ...defaultServerBounds, ...options.bounds };
  const server = createServer(
    {
      headersTimeout: bounds.headersTimeoutMs,
      requestTimeout: bounds.requestTimeoutMs,
      keepAliveTimeout: bounds.keepAliveTimeoutMs,
      connectionsCheckingInterval: bounds.checkIntervalMs,
    },
    app,
  );
  server.timeout = bounds.idleTimeoutMs;
  const cap = options.trustProxy > 0 ? 0 : bounds.maxConnectionsPerAddress;
  if (cap > 0) {
    const open = new Map<string, number>();
    server.on('connection', (socket: Socket) => {
      const address = socket.remoteAddress ?? 'unknown';
      if (!bounds.capLoopback && isLoopbackAddress(address)) return;
      const count = (open.get(address) ?? 0) + 1;
      if (count > cap) {
        socket.destroy();
        return;
      }
      open.set(address, count);
      socket.once('close', () => {
        const left = (open.get(address) ?? 1) - 1;
        if (left <= 0) open.delete(address);
        else open.set(address, left);
      });
    });
  }
  return server;
}

function isLoopbackAddress(address: string): boolean {
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}
