import { createServer, type Server } from 'node:http';
import { Server as SocketServer } from 'socket.io';

export interface CapturedResponse {
  status: number;
  contentType: string;
  body: Buffer;
}

export interface Baseline {
  url: string;
  close(): Promise<void>;
}

/**
 * The floor for an endpoint: a bare node:http server that answers every request
 * with the bytes the real endpoint answered (same status, type and body), after
 * reading the request body. The ratio app/baseline is what our code costs.
 */
export async function startHttpBaseline(response: CapturedResponse): Promise<Baseline> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(response.status, { 'Content-Type': response.contentType, 'Content-Length': response.body.length });
      res.end(response.body);
    });
  });
  return listen(server);
}

/** The chat floor: a bare Socket.IO server whose `/chat` namespace acknowledges `send` with the app's answer. */
export async function startSocketBaseline(ack: unknown): Promise<Baseline> {
  const server = createServer();
  const io = new SocketServer(server, { serveClient: false });
  io.of('/chat').on('connection', (socket) => {
    socket.on('send', (_input: unknown, callback: (answer: unknown) => void) => callback(ack));
  });
  const baseline = await listen(server);
  return {
    url: baseline.url,
    async close() {
      io.close();
      await baseline.close();
    },
  };
}

async function listen(server: Server): Promise<Baseline> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
