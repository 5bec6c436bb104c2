import type { IncomingMessage, Server as HttpServer } from 'node:http';
import { parseCookie, stringifySetCookie } from 'cookie';
import type pg from 'pg';
import { Server, type Namespace, type Socket } from 'socket.io';
import type { z } from 'zod';
import type { Deps } from '../../deps.ts';
import { staffFromCookieHeader, type StaffIdentity } from '../staff/session.ts';
import { consolePages } from '../../../shared/staff.ts';
import { tooManyRequestsMessage } from '../../rate-limit.ts';
import {
  chatNamespaces,
  chatVisitorCookie,
  staffAvailabilityInput,
  staffReadInput,
  staffSendInput,
  staffSyncInput,
  staffTypingInput,
  visitorOfflineInput,
  visitorPageInput,
  visitorSendInput,
  visitorSyncInput,
  visitorTypingInput,
  type ChatAck,
  type StaffClientEvents,
  type StaffServerEvents,
  type VisitorClientEvents,
  type VisitorServerEvents,
} from '../../../shared/chat.ts';
import * as chat from './service.ts';
import { createFanOut, type FanOut } from './fan-out.ts';
import { hashToken } from '../../tokens.ts';

/**
 * Live chat over Socket.IO (protocol: docs/decisions/013-chat-protocol.md).
 * `/chat` serves visitors, identified by the HttpOnly `chat_visitor` cookie;
 * `/staff` serves signed-in staff. On PostgreSQL the nodes share events
 * through LISTEN/NOTIFY (@socket.io/postgres-adapter), so a visitor on one
 * node and staff on another talk live.
 */

interface VisitorData {
  tokenHash: string;
  ip: string;
  /** Known once the visitor has written; typing and page updates go to staff only then. */
  conversationId: string | null;
}
interface StaffData {
  staff: StaffIdentity;
  /** The console's Away switch: signed in but not answering, so visitors see "offline". */
  away: boolean;
}
type VisitorNamespace = Namespace<VisitorClientEvents, VisitorServerEvents, Record<string, never>, VisitorData>;
type StaffNamespace = Namespace<StaffClientEvents, StaffServerEvents, Record<string, never>, StaffData>;
type VisitorSocket = Socket<VisitorClientEvents, VisitorServerEvents, Record<string, never>, VisitorData>;
type StaffSocket = Socket<StaffClientEvents, StaffServerEvents, Record<string, never>, StaffData>;

export interface ChatServer {
  io: Server;
  /** PostgreSQL only: the connection carrying chat between nodes (watched by /healthz). */
  fanOut?: FanOut;
  close(): Promise<void>;
}

/** Visitor cookie lifetime: long enough to come back to a conversation next week. */
const visitorCookieMaxAgeSeconds = 90 * 24 * 60 * 60;
/** How often each node re-checks staff sessions and re-announces presence to its own visitors. */
const sweepIntervalMs = 30_000;
const visitorRoom = (tokenHash: string) => `visitor:${tokenHash}`;
/** The handshake request carries the token issued on it until the browser sends the cookie back. */
const issuedToken = Symbol('chatVisitorToken');
type HandshakeRequest = IncomingMessage & { [issuedToken]?: string };

export async function attachChat(httpServer: HttpServer, deps: Deps): Promise<ChatServer> {
  const pool = deps.database.driver === 'postgres' ? deps.database.queryPool : undefined;
  if (pool) await ensureAdapterTable(pool);
  const fanOut = deps.database.newPool ? createFanOut(deps.database.newPool({ max: 3, name: 'notary-online chat' }), deps.log, { maxBackoffMs: deps.config.LIVENESS_STUCK_SECONDS * 500 }) : undefined;

  const io = new Server(httpServer, {
    serveClient: false,
    // Other upgrade listeners (Vite's HMR in development) handle their own paths.
    destroyUpgrade: false,
    // Messages are at most 2,000 characters; nothing legitimate comes near this.
    maxHttpBufferSize: 64 * 1024,
    allowRequest: (req, callback) => callback(null, originAllowed(req, deps.config.publicUrl)),
    ...(fanOut ? { adapter: fanOut.adapter } : {}),
  });

  // The visitor cookie is issued on the Socket.IO handshake response itself, so
  // opening the widget costs no extra request. Only the widget asks (?chat=visitor):
  // staff connections never get one.
  io.engine.on('initial_headers', (headers: Record<string, string | string[]>, req: HandshakeRequest) => {
    if (new URL(req.url ?? '/', 'http://localhost').searchParams.get('chat') !== 'visitor') return;
    if (chat.isVisitorToken(visitorCookieOf(req))) return;
    const token = chat.newVisitorToken();
    req[issuedToken] = token;
    const cookie = stringifySetCookie({
      name: chatVisitorCookie,
      value: token,
      httpOnly: true,
      sameSite: 'lax',
      secure: deps.config.SESSION_COOKIE_SECURE,
      path: '/',
      maxAge: visitorCookieMaxAgeSeconds,
    });
    const previous = headers['set-cookie'];
    headers['set-cookie'] = previous ? [...(Array.isArray(previous) ? previous : [previous]), cookie] : [cookie];
  });

  // One Server carries both namespaces; each has its own event types.
  const visitors = io.of(chatNamespaces.visitor) as unknown as VisitorNamespace;
  const staff = io.of(chatNamespaces.staff) as unknown as StaffNamespace;
  const presence = new Presence(staff, visitors, deps);

  visitors.use((socket, next) => {
    const req = socket.request as HandshakeRequest;
    const token = req[issuedToken] ?? visitorCookieOf(req);
    if (!chat.isVisitorToken(token)) return next(new Error('No chat session. Reload the page and try again.'));
    socket.data.tokenHash = hashToken(token);
    socket.data.ip = clientAddress(req, deps.config.TRUST_PROXY);
    socket.data.conversationId = null;
    next();
  });

  staff.use(async (socket, next) => {
    try {
      const identity = await chatStaff(deps, socket.request.headers.cookie);
      if (!identity) return next(new Error('unauthorized'));
      socket.data.staff = identity;
      socket.data.away = (socket.handshake.auth as { away?: unknown } | undefined)?.away === true;
      next();
    } catch (error) {
      deps.log.error({ err: error }, 'chat: staff handshake failed');
      next(new Error('unavailable'));
    }
  });

  visitors.on('connection', (socket: VisitorSocket) => {
    void socket.join(visitorRoom(socket.data.tokenHash));
    const handle = handler(deps, socket.id);

    socket.on(
      'sync',
      handle(visitorSyncInput, async (input) => {
        const history = await chat.visitorHistory(deps, socket.data, input.lastSeenId);
        socket.data.conversationId = history.conversationId;
        if (input.page && history.conversationId) await updatePage(socket, input.page);
        return { ok: true, ...history, staffOnline: await presence.online() };
      }),
    );

    /** A visitor's message was taken (or refused): remember the conversation, tell staff of a new one, answer the ack. */
    const acknowledge = async (result: Awaited<ReturnType<typeof chat.sendVisitorMessage>>) => {
      if (!result.ok) return result;
      socket.data.conversationId = result.conversation.id;
      if (result.created) await broadcastMessage(result);
      return { ok: true as const, message: result.message };
    };

    socket.on(
      'send',
      handle(visitorSendInput, async (input) => acknowledge(await chat.sendVisitorMessage(deps, socket.data, input))),
    );

    socket.on(
      'offline',
      handle(visitorOfflineInput, async (input) => acknowledge(await chat.leaveOfflineMessage(deps, socket.data, input))),
    );

    const typingBudget = eventBudget(chatEventRates.typing);
    const pageBudget = eventBudget(chatEventRates.page);

    socket.on(
      'typing',
      handle(visitorTypingInput, async (input) => {
        if (!typingBudget()) return tooMany;
        const conversationId = socket.data.conversationId;
        if (conversationId) staff.emit('typing', { conversationId, typing: input.typing });
        return null;
      }),
    );

    socket.on(
      'page',
      handle(visitorPageInput, async (input) => {
        // Each page event writes a row and notifies every console: bounded per socket.
        if (!pageBudget()) return tooMany;
        await updatePage(socket, input.page);
        return null;
      }),
    );
  });

  staff.on('connection', (socket: StaffSocket) => {
    presence.changed();
    socket.on('disconnect', () => presence.changed());
    const handle = handler(deps, socket.id);
    // Every event re-checks the session and the role, so a logout, a deactivation or
    // a move to the notary role cuts an open console off at its next action (and the
    // sweep within 30 s otherwise).
    const authorised = async () => {
      const identity = await chatStaff(deps, socket.request.headers.cookie);
      if (!identity) {
        socket.disconnect(true);
        return false;
      }
      return true;
    };
    const signedOut = { ok: false as const, error: 'Your session has ended. Please sign in again.' };

    socket.on('conversations', async (ack) => {
      if (typeof ack !== 'function') return;
      try {
        if (!(await authorised())) return ack(signedOut);
        ack({ ok: true, conversations: await chat.listConversations(deps) });
      } catch (error) {
        deps.log.error({ err: error, socketId: socket.id }, 'chat: conversations failed');
        ack({ ok: false, error: unexpectedError });
      }
    });

    socket.on(
      'sync',
      handle(staffSyncInput, async (input) => {
        if (!(await authorised())) return signedOut;
        return chat.staffHistory(deps, input.conversationId, input.lastSeenId);
      }),
    );

    socket.on(
      'send',
      handle(staffSendInput, async (input) => {
        if (!(await authorised())) return signedOut;
        const result = await chat.sendStaffMessage(deps, socket.data.staff.user.id, input);
        if (!result.ok) return result;
        if (result.created) {
          await broadcastMessage(result);
          if (!(await visitorConnected(result.conversation.visitorTokenHash))) {
            await chat.emailReplyToAbsentVisitor(deps, result.conversation.id, result.message.id);
          }
        }
        return { ok: true, message: result.message };
      }),
    );

    const staffTypingBudget = eventBudget(chatEventRates.typing);
    socket.on(
      'typing',
      handle(staffTypingInput, async (input) => {
        if (!staffTypingBudget()) return tooMany;
        if (!(await authorised())) return signedOut;
        const conversation = await chat.findConversation(deps, input.conversationId);
        if (conversation) visitors.to(visitorRoom(conversation.visitorTokenHash)).emit('typing', { typing: input.typing });
        return null;
      }),
    );

    socket.on(
      'availability',
      handle(staffAvailabilityInput, async (input) => {
        socket.data.away = input.away;
        presence.changed();
        return { ok: true };
      }),
    );

    socket.on(
      'read',
      handle(staffReadInput, async (input) => {
        if (!(await authorised())) return signedOut;
        const result = await chat.markRead(deps, input.conversationId, input.upTo);
        // Other staff consoles update their unread counts too.
        if (result.ok) staff.emit('conversation', result.conversation);
        return result;
      }),
    );
  });

  async function broadcastMessage(result: chat.SendResult) {
    visitors.to(visitorRoom(result.conversation.visitorTokenHash)).emit('message', result.message);
    const conversation = await chat.conversationSummary(deps, result.conversation.id);
    if (conversation) staff.emit('message', { message: result.message, conversation });
  }

  /** Whether the visitor has the site open on any node (a reply is then seen live, not emailed). */
  async function visitorConnected(tokenHash: string): Promise<boolean> {
    try {
      return (await visitors.in(visitorRoom(tokenHash)).fetchSockets()).length > 0;
    } catch (error) {
      // Unsure (a node did not answer): email rather than let the reply go unseen.
      deps.log.warn({ err: error }, 'chat: visitor presence lookup failed');
      return false;
    }
  }

  async function updatePage(socket: VisitorSocket, page: string) {
    const conversationId = await chat.setVisitorPage(deps, socket.data, page);
    if (!conversationId) return;
    socket.data.conversationId = conversationId;
    const conversation = await chat.conversationSummary(deps, conversationId);
    if (conversation) staff.emit('conversation', conversation);
  }

  const sweep = setInterval(() => {
    void (async () => {
      for (const socket of staff.sockets.values()) {
        const identity = await chatStaff(deps, socket.request.headers.cookie).catch(() => null);
        if (!identity) socket.disconnect(true);
      }
      visitors.local.emit('presence', { staffOnline: await presence.online() });
    })().catch((error: unknown) => deps.log.warn({ err: error }, 'chat: sweep failed'));
  }, sweepIntervalMs);
  sweep.unref();

  return {
    io,
    fanOut,
    async close() {
      clearInterval(sweep);
      presence.stop();
      // Like io.close(), but leaves the HTTP server to its owner (serve.ts closes it).
      for (const nsp of [visitors, staff, io.of('/')] as unknown as Namespace[]) {
        nsp.disconnectSockets(true);
        await Promise.resolve(nsp.adapter.close()).catch(() => {});
      }
      io.engine.close();
      await fanOut?.close();
    },
  };
}

/** Whether any staff console is connected, on any node; changes are pushed to every visitor. */
class Presence {
  private pending: Promise<void> = Promise.resolve();
  private stopped = false;
  private readonly staff: StaffNamespace;
  private readonly visitors: VisitorNamespace;
  private readonly deps: Deps;

  constructor(staff: StaffNamespace, visitors: VisitorNamespace, deps: Deps) {
    this.staff = staff;
    this.visitors = visitors;
    this.deps = deps;
  }

  /** A console signed in and switched to Available, on any node, in any tab (not only the Chat page). */
  async online(): Promise<boolean> {
    for (const socket of this.staff.sockets.values()) if (!socket.data.away) return true;
    try {
      // Asks every node through the adapter (answers locally when single-node).
      return (await this.staff.fetchSockets()).some((socket) => !socket.data.away);
    } catch (error) {
      // A node that vanished without saying goodbye times the request out until
      // its heartbeat expires; report what this node knows meanwhile.
      this.deps.log.warn({ err: error }, 'chat: presence lookup failed');
      return false;
    }
  }

  /** A staff socket came or went here: tell every visitor on every node. Serialised, so answers go out in order. */
  changed(): void {
    this.pending = this.pending.then(async () => {
      if (this.stopped) return;
      const staffOnline = await this.online();
      this.visitors.emit('presence', { staffOnline });
    });
  }

  stop(): void {
    this.stopped = true;
  }
}

const unexpectedError = 'Something went wrong. Please try again.';
const tooMany = { ok: false as const, error: tooManyRequestsMessage };

/**
 * Events that carry no message but cost a write or a fan-out to every console.
 * A person types and changes pages far below these; a script looping on them
 * is dropped. Per socket, in memory: a socket lives on one node.
 */
export const chatEventRates = {
  typing: { limit: 20, windowMs: 10_000 },
  page: { limit: 10, windowMs: 10_000 },
} as const;

/** A fixed-window budget: true while the socket may still send this event in the current window. */
function eventBudget(rule: { limit: number; windowMs: number }, now: () => number = Date.now): () => boolean {
  let windowStart = 0;
  let used = 0;
  return () => {
    const t = now();
    if (t - windowStart >= rule.windowMs) {
      windowStart = t;
      used = 0;
    }
    used++;
    return used <= rule.limit;
  };
}

/**
 * The signed-in staff member if their role may use the chat — the console's own
 * rule (`consolePages.chat`: admin and staff; a notary sees neither visitors'
 * conversations nor their emails) — else null.
 */
async function chatStaff(deps: Deps, cookieHeader: string | undefined): Promise<StaffIdentity | null> {
  const identity = await staffFromCookieHeader(deps, cookieHeader);
  return identity && (consolePages.chat as readonly string[]).includes(identity.user.role) ? identity : null;
}

/**
 * Wraps an event handler: parses the payload with its schema, answers through
 * the acknowledgement (when the client asked for one), and turns a thrown
 * error into a logged failure instead of an unhandled rejection.
 */
function handler(deps: Deps, socketId: string) {
  return <S extends z.ZodType, R extends ChatAck<object> | null>(schema: S, run: (input: z.output<S>) => Promise<R>) =>
    async (raw: unknown, ack?: unknown) => {
      const reply = typeof ack === 'function' ? (ack as (result: unknown) => void) : () => {};
      const parsed = schema.safeParse(raw);
      if (!parsed.success) return reply({ ok: false, error: parsed.error.issues[0]?.message ?? 'Invalid request' });
      try {
        const result = await run(parsed.data);
        if (result) reply(result);
      } catch (error) {
        deps.log.error({ err: error, socketId }, 'chat: event failed');
        reply({ ok: false, error: unexpectedError });
      }
    };
}

function visitorCookieOf(req: IncomingMessage): string | undefined {
  const header = req.headers.cookie;
  return header ? parseCookie(header)[chatVisitorCookie] : undefined;
}

/**
 * Browsers always send Origin on WebSocket and cross-origin requests, but not on
 * a same-origin GET (the polling handshake): absent is allowed, a foreign one is
 * refused. Same origin means the configured public URL or the Host asked for.
 * Clients without either header (scripts) carry no browser's ambient cookies.
 */
export function originAllowed(req: IncomingMessage, publicUrl: string): boolean {
  // Fetch Metadata first, as for HTTP (decision 012): a browser says when a request is cross-site.
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return false;
  }
  return host === new URL(publicUrl).host || host === req.headers.host;
}

/** The client's address, trusting `trustProxy` hops of X-Forwarded-For exactly like Express's `trust proxy` number. */
export function clientAddress(req: IncomingMessage, trustProxy: number): string {
  const direct = req.socket.remoteAddress ?? 'unknown';
  if (trustProxy <= 0) return direct;
  const forwarded = String(req.headers['x-forwarded-for'] ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .reverse();
  const chain = [direct, ...forwarded];
  return chain[Math.min(trustProxy, chain.length - 1)]!;
}

/**
 * The adapter keeps payloads over 8 kB (large fetchSockets answers) in this
 * table and deletes them after 30 s. It is the adapter's own, outside our
 * schema: created here, idempotently, under an advisory lock so two nodes
 * starting together do not race.
 */
async function ensureAdapterTable(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query(`select pg_advisory_xact_lock(hashtext('socket_io_attachments'))`);
    await client.query(
      'create table if not exists socket_io_attachments (id bigserial unique, created_at timestamptz default now(), payload bytea)',
    );
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

