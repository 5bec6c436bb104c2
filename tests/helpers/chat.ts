import { createServer } from 'node:http';
import { io, type Socket } from 'socket.io-client';
import { createApp } from '../../src/server/app.ts';
import { openPostgres } from '../../src/server/db/client.ts';
import { buildDeps } from '../../src/server/deps.ts';
import { createLogger } from '../../src/server/logger.ts';
import { attachChat, type ChatServer } from '../../src/server/features/chat/socket.ts';
import type {
  StaffClientEvents,
  StaffServerEvents,
  VisitorClientEvents,
  VisitorServerEvents,
} from '../../src/shared/chat.ts';
import { startTestApp, type TestServer } from './app.ts';
import type { DbKind } from './db.ts';

export type VisitorClient = Socket<VisitorServerEvents, VisitorClientEvents>;
export type StaffClient = Socket<StaffServerEvents, StaffClientEvents>;

export interface ChatTestApp extends TestServer {
  chat: ChatServer;
}

/** The test app with the chat attached to its HTTP server, as serve.ts does. */
export async function startChatApp(kind: DbKind, env: Record<string, string> = {}): Promise<ChatTestApp> {
  const app = await startTestApp(kind, env);
  const chat = await attachChat(app.server, app.deps);
  return {
    ...app,
    chat,
    async close() {
      await chat.close();
      await app.close();
    },
  };
}

/**
 * A second node of the same deployment: its own process state (app, Socket.IO
 * server, pool) on the first node's PostgreSQL database.
 */
export async function startSecondNode(first: ChatTestApp): Promise<{ url: string; close(): Promise<void> }> {
  const databaseUrl = (first.deps.database as { url?: string }).url;
  if (!databaseUrl) throw new Error('the first node is not on PostgreSQL');
  const database = await openPostgres(databaseUrl, { max: 10 });
  const deps = await buildDeps(first.deps.config, database, createLogger('silent'));
  const { app, close } = await createApp(deps, { pages: false });
  const server = createServer(app);
  const chat = await attachChat(server, deps);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      await chat.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await close();
      await database.close();
    },
  };
}

/**
 * A new visitor: the Socket.IO handshake (polling, as a browser's first request)
 * answers with the `chat_visitor` cookie. Returns the Cookie header value.
 */
export async function newVisitorCookie(url: string): Promise<string> {
  const res = await fetch(`${url}/socket.io/?EIO=4&transport=polling&chat=visitor`);
  await res.text();
  const cookie = res.headers.getSetCookie().find((line) => line.startsWith('chat_visitor='));
  if (!cookie) throw new Error(`no chat_visitor cookie (status ${res.status})`);
  return cookie.split(';')[0]!;
}

const sockets: Socket[] = [];

export function connectVisitor(url: string, cookie: string, options: { origin?: string } = {}): VisitorClient {
  const socket: VisitorClient = io(`${url}/chat`, {
    transports: ['websocket'],
    forceNew: true,
    reconnectionDelay: 50,
    reconnectionDelayMax: 200,
    query: { chat: 'visitor' },
    extraHeaders: { cookie, ...(options.origin ? { origin: options.origin } : {}) },
  });
  sockets.push(socket);
  return socket;
}

export function connectStaff(url: string, cookie: string | null, auth: { away?: boolean } = {}): StaffClient {
  const socket: StaffClient = io(`${url}/staff`, {
    auth,
    transports: ['websocket'],
    forceNew: true,
    reconnectionDelay: 50,
    reconnectionDelayMax: 200,
    extraHeaders: cookie ? { cookie } : {},
  });
  sockets.push(socket);
  return socket;
}

/** Every socket opened by this file's helpers; call in afterEach. */
export function closeSockets(): void {
  for (const socket of sockets.splice(0)) socket.disconnect();
}

/** Resolves on connect, rejects with the server's refusal. */
export function connected(socket: Socket): Promise<void> {
  if (socket.connected) return Promise.resolve();
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (error) => reject(error));
  });
}

/** The next `event` on `socket` (optionally the first that matches). */
export function nextEvent<T>(socket: Socket, event: string, match: (payload: T) => boolean = () => true, timeoutMs = 5000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(event, listener);
      reject(new Error(`timed out waiting for ${event}`));
    }, timeoutMs);
    const listener = (payload: T) => {
      if (!match(payload)) return;
      clearTimeout(timer);
      socket.off(event, listener);
      resolve(payload);
    };
    socket.on(event, listener);
  });
}
