import type { Namespace, Server, Socket } from 'socket.io';
import { z } from 'zod';
import type { Deps } from '../../deps.ts';
import { DomainError } from '../../errors.ts';
import { consumeRate, type RateRule } from '../../rate-limit.ts';
import {
  roomEventInput,
  sessionAccessInput,
  sessionChatInput,
  sessionNamespace,
  signalInput,
  type SessionAccess,
  type SessionAck,
  type SessionClientEvents,
  type SessionErrorCode,
  type SessionRole,
  type SessionServerEvents,
} from '../../../shared/session.ts';
import { iceServersFor } from './ice.ts';
import { registerSessionNotifier } from './notifier-service.ts';
import { markJoined, resolveParticipant, type Participant } from './room-service.ts';
import { chatHistory, postChat } from './chat-service.ts';

/**
 * Signalling and live events of the session room, on the chat's Socket.IO
 * server (namespace `/session`; on PostgreSQL every node shares rooms through
 * the adapter). Protocol: docs/decisions/030-session-room.md.
 *
 * The handshake names the room: `auth: { token }` for the customer (the manage
 * token, never in the URL), `auth: { bookingId }` plus the staff cookie for the
 * assigned notary. Access (the access policy's 'join_room', and the room being
 * open) is checked once at the handshake and again only when it may have
 * changed: the booking was cancelled, reassigned or finished (a session update
 * of kind 'access', on every node), or `accessTtlMs` has passed (a signed-out
 * console, a clock crossing the room's end). Not per signal: an ICE candidate
 * costs no query (issue 31; docs/decisions/068). Each socket has an event budget.
 * Refusals carry a `code` (SessionErrorCode) the client branches on.
 */

interface SessionData {
  access: SessionAccess;
  bookingId: string;
  role: SessionRole;
  /** A co-signer's or witness's row id (role 'participant'); null otherwise. */
  participantId: string | null;
  joined: boolean;
  /** When access was last checked, and the booking's access epoch then. */
  checkedAt: number;
  epoch: number;
  /** Token bucket: events left, refilled over time. */
  budget: number;
  budgetAt: number;
}
type SessionNamespace = Namespace<SessionClientEvents, SessionServerEvents, Record<string, never>, SessionData>;
type SessionSocket = Socket<SessionClientEvents, SessionServerEvents, Record<string, never>, SessionData>;

/** New room connections per address: a page load or a reconnect each take one. */
export const sessionConnectRate: RateRule = { name: 'session-connect', limit: 60, windowSeconds: 600 };
/** Events per socket: ICE candidates come in bursts of a few dozen; chat is slower. */
const burst = 120;
const refillPerSecond = 20;

const roomOf = (bookingId: string) => `session:${bookingId}`;
/** A closed participant gets the reason first, then the connection ends (a disconnect sent at once could overtake it). */
const closeGraceMs = 2000;
const fetchSocketsTimeoutMs = 3000;

function closeSocket(socket: { emit: (event: 'session:closed', info: { reason: string }) => unknown; disconnect: (close: boolean) => unknown }, reason: string) {
  socket.emit('session:closed', { reason });
  setTimeout(() => socket.disconnect(true), closeGraceMs).unref();
}
const signalTarget = z.object({ to: z.string().min(1).max(64) });

/** How long a socket's access check stands when nothing says it changed. */
export const accessTtlMs = 15_000;

/** A refusal's code for the client, from the service's error code. */
export function sessionErrorCode(error: unknown): SessionErrorCode {
  if (!(error instanceof DomainError)) return 'unavailable';
  if (error.code === 'TOO_MANY_REQUESTS') return 'busy';
  if (error.code === 'BAD_REQUEST') return 'invalid';
  if (error.code === 'SERVICE_UNAVAILABLE' || error.code === 'INSUFFICIENT_STORAGE' || error.code === 'TIMEOUT') return 'unavailable';
  return 'closed';
}

/** A handshake refusal: Socket.IO hands `data` to the client's connect_error. */
function handshakeError(message: string, code: SessionErrorCode): Error {
  return Object.assign(new Error(message), { data: { code } });
}

/** The client's address, trusting `trustProxy` hops of X-Forwarded-For like Express's `trust proxy` number. */
function handshakeAddress(direct: string | undefined, forwardedFor: string | string[] | undefined, trustProxy: number): string {
  const chain = [direct ?? 'unknown', ...String(forwardedFor ?? '').split(',').map((p) => p.trim()).filter(Boolean).reverse()];
  return trustProxy <= 0 ? chain[0]! : chain[Math.min(trustProxy, chain.length - 1)]!;
}

export interface SessionRoomServer {
  close(): Promise<void>;
}

export function attachSessionRoom(io: Server, deps: Deps): SessionRoomServer {
  const nsp = io.of(sessionNamespace) as unknown as SessionNamespace;

  /** Per booking: bumped when its access may have changed; a socket with an older epoch re-checks at its next event. */
  const epochs = new Map<string, number>();
  /** This node's sockets' own access re-checks, by socket id. */
  const rechecks = new Map<string, () => Promise<unknown>>();
  const invalidate = (bookingId: string) => {
    epochs.set(bookingId, (epochs.get(bookingId) ?? 0) + 1);
    if (epochs.size > 10_000) epochs.delete(epochs.keys().next().value!);
    // Sockets in the room re-check now, not at their next event: a removed participant who sends
    // nothing more is told and closed at once (issue 29).
    for (const id of nsp.adapter.rooms.get(roomOf(bookingId)) ?? []) void rechecks.get(id)?.().catch(() => undefined);
  };
  // Other nodes' sockets hear it through the adapter (PostgreSQL); alone, there is no one else to tell.
  const clustered = Boolean(deps.database.newPool);
  (nsp as unknown as { on(event: 'access:changed', listener: (bookingId: string) => void): void }).on('access:changed', (bookingId) => invalidate(String(bookingId)));
  const accessChanged = (bookingId: string) => {
    invalidate(bookingId);
    if (clustered) nsp.serverSideEmit('access:changed' as never, bookingId as never);
  };

  registerSessionNotifier(deps, {
    updated: (bookingId) => void nsp.to(roomOf(bookingId)).emit('session:updated'),
    accessChanged,
    closed: (bookingId, reason) => {
      accessChanged(bookingId);
      nsp.to(roomOf(bookingId)).emit('session:closed', { reason });
      // Out of the room at once; the connections close once the reason has reached the browsers.
      nsp.in(roomOf(bookingId)).socketsLeave(roomOf(bookingId));
      const room = roomOf(bookingId);
      setTimeout(() => nsp.in(room).disconnectSockets(true), closeGraceMs).unref();
    },
  });

  /**
   * The room's sockets on every node. Bounded: when the connection between
   * nodes is down the answer would wait for the adapter; this node's own are
   * better than a join that never answers.
   */
  async function roomSockets(room: string) {
    let timer: NodeJS.Timeout | undefined;
    const fallback = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), fetchSocketsTimeoutMs);
    });
    try {
      const all = await Promise.race([nsp.in(room).fetchSockets().catch(() => null), fallback]);
      if (all) return all;
      deps.log.warn({ room: 'session' }, 'session: other nodes did not answer; using this node’s sockets');
      return nsp.in(room).local.fetchSockets();
    } finally {
      clearTimeout(timer);
    }
  }

  nsp.use(async (socket, next) => {
    try {
      const parsed = sessionAccessInput.safeParse(socket.handshake.auth ?? {});
      if (!parsed.success) return next(handshakeError('Invalid session link.', 'closed'));
      const address = handshakeAddress(socket.request.socket.remoteAddress, socket.request.headers['x-forwarded-for'], deps.config.TRUST_PROXY);
      const rate = await consumeRate(deps, sessionConnectRate, address);
      if (!rate.allowed) return next(handshakeError('Too many requests. Please wait a moment and try again.', 'busy'));
      const { participant } = await resolveParticipant(deps, parsed.data, socket.request.headers.cookie);
      socket.data.access = parsed.data;
      socket.data.bookingId = participant.bookingId;
      socket.data.role = participant.role;
      socket.data.participantId = participant.participantId;
      socket.data.joined = false;
      socket.data.budget = burst;
      socket.data.budgetAt = Date.now();
      socket.data.checkedAt = Date.now();
      socket.data.epoch = epochs.get(participant.bookingId) ?? 0;
      next();
    } catch (error) {
      if (error instanceof DomainError) return next(handshakeError(error.message, sessionErrorCode(error)));
      deps.log.error({ err: error }, 'session: handshake failed');
      next(handshakeError('The session is not available just now. Please try again.', 'unavailable'));
    }
  });

  nsp.on('connection', (socket: SessionSocket) => {
    const room = roomOf(socket.data.bookingId);

    /** Spends one event from the budget; false when the socket is over it. */
    const spend = () => {
      const now = Date.now();
      socket.data.budget = Math.min(burst, socket.data.budget + ((now - socket.data.budgetAt) / 1000) * refillPerSecond);
      socket.data.budgetAt = now;
      if (socket.data.budget < 1) return false;
      socket.data.budget -= 1;
      return true;
    };

    /** The participant as checked at the handshake (or the last re-check). */
    let participant: Participant | null = null;
    /**
     * Access for this event: the last check, unless the booking's access may
     * have changed since (epoch) or it is older than accessTtlMs; then checked
     * again. A refused participant is told why and disconnected.
     */
    const authorised = async () => {
      const epoch = epochs.get(socket.data.bookingId) ?? 0;
      if (participant && socket.data.epoch === epoch && Date.now() - socket.data.checkedAt < accessTtlMs) return participant;
      try {
        participant = (await resolveParticipant(deps, socket.data.access, socket.request.headers.cookie)).participant;
        socket.data.checkedAt = Date.now();
        socket.data.epoch = epoch;
        return participant;
      } catch (error) {
        participant = null;
        if (!(error instanceof DomainError)) throw error;
        if (socket.data.joined) socket.to(room).emit('peer:left', { id: socket.id, role: socket.data.role });
        socket.data.joined = false;
        void socket.leave(room);
        closeSocket(socket, error.message);
        return null;
      }
    };

    rechecks.set(socket.id, authorised);

    /** An event's handler: budget, input, access, then `run`; `afterReply` runs once the answer is sent. */
    const handle =
      <S extends z.ZodType, R extends SessionAck | void>(
        schema: S | null,
        run: (input: z.output<S>, participant: Participant) => Promise<R>,
        afterReply?: (participant: Participant) => void,
      ) =>
      async (...args: unknown[]) => {
        const ackArg = args.findLast((a) => typeof a === 'function') as ((result: unknown) => void) | undefined;
        const reply = ackArg ?? (() => {});
        if (!spend()) return reply({ ok: false, error: 'Too many requests. Please wait a moment and try again.', code: 'busy' });
        let input: unknown = undefined;
        if (schema) {
          // A refusal names the rule, never echoes the input (a chat message with a NUL is not logged either).
          const parsed = schema.safeParse(args[0]);
          if (!parsed.success) return reply({ ok: false, error: parsed.error.issues[0]?.message ?? 'Invalid request', code: 'invalid' });
          input = parsed.data;
        }
        try {
          const participant = await authorised();
          if (!participant) return;
          const result = await run(input as z.output<S>, participant);
          if (result) reply(result);
          afterReply?.(participant);
        } catch (error) {
          if (error instanceof DomainError) return reply({ ok: false, error: error.message, code: sessionErrorCode(error) });
          deps.log.error({ err: error, socketId: socket.id }, 'session: event failed');
          reply({ ok: false, error: 'Something went wrong. Please try again.', code: 'unavailable' });
        }
      };

    socket.on(
      'join',
      handle(
        null,
        async (_input, participant) => {
          // Another tab of the same person takes over: one video per person (per role, per co-signer or witness).
          for (const other of await roomSockets(room)) {
            if (other.id !== socket.id && other.data.role === participant.role && other.data.participantId === participant.participantId && other.data.joined) {
              other.leave(room);
              closeSocket(other, 'You joined this session from another window.');
            }
          }
          await socket.join(room);
          socket.data.joined = true;
          // A mesh (docs/decisions/122): the joiner connects to everyone already here.
          const peers = (await roomSockets(room)).filter((s) => s.id !== socket.id && s.data.joined);
          await markJoined(deps, participant);
          return {
            ok: true as const,
            role: participant.role,
            peers: peers.map((s) => ({ id: s.id, role: s.data.role, participantId: s.data.participantId ?? null })),
            iceServers: iceServersFor(deps.config, `${participant.role}-${participant.bookingId.slice(0, 8)}`, deps.now()),
            messages: await chatHistory(deps, participant.bookingId),
          };
        },
        // Announced once the joiner has its answer (ICE servers, peer): the other side's first
        // offer, which the announcement prompts, then always reaches a joiner ready for it.
        (participant) => {
          if (socket.data.joined) socket.to(room).emit('peer:joined', { id: socket.id, role: participant.role, participantId: participant.participantId });
        },
      ),
    );

    socket.on(
      'signal',
      handle(signalInput.and(signalTarget), async (input) => {
        if (!socket.data.joined) return { ok: false as const, error: 'Join the session first.', code: 'invalid' as const };
        // To the addressee alone when it is on this node and in this room (no other participant sees the SDP and its addresses);
        // otherwise to the room (on any node), where only the addressee keeps it.
        const target = nsp.sockets.get(input.to);
        if (target) {
          if (target.data.bookingId === socket.data.bookingId && target.data.joined) target.emit('signal', { ...input, from: socket.id });
        } else socket.to(room).emit('signal', { ...input, from: socket.id });
        return { ok: true as const };
      }),
    );

    socket.on(
      'chat',
      handle(sessionChatInput, async (input, participant) => {
        const { message, created } = await postChat(deps, participant, input);
        if (created) nsp.to(room).emit('chat', message);
        return { ok: true as const, message };
      }),
    );

    socket.on(
      'room:event',
      handle(roomEventInput, async (input, participant) => {
        socket.to(room).emit('room:event', { ...input, from: participant.role });
        return { ok: true as const };
      }),
    );

    socket.on('leave', () => {
      if (!socket.data.joined) return;
      socket.data.joined = false;
      socket.to(room).emit('peer:left', { id: socket.id, role: socket.data.role });
      void socket.leave(room);
    });

    socket.on('disconnect', () => {
      rechecks.delete(socket.id);
      if (socket.data.joined) nsp.to(room).emit('peer:left', { id: socket.id, role: socket.data.role });
    });
  });

  return {
    async close() {
      nsp.disconnectSockets(true);
      await Promise.resolve(nsp.adapter.close()).catch(() => {});
    },
  };
}
