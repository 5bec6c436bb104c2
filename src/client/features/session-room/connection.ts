import { io, type Socket } from 'socket.io-client';
import { PeerLink, type PeerHost, type PeerStatus } from './peer-link.ts';
import {
  sessionNamespace,
  type IceServer,
  type RoomPeer,
  type RoomEvent,
  type SessionAccess,
  type SessionChatMessage,
  type SessionClientEvents,
  type SessionRole,
  type SessionServerEvents,
  type SignalPayload,
  sessionErrorCodes,
  type SessionErrorCode,
} from '../../../shared/session.ts';

/**
 * One browser's place in the room: Socket.IO signalling and one PeerLink per
 * other browser (a mesh of up to five: the notary and four remote
 * participants; docs/decisions/030-session-room.md and 122). How each pair
 * connects (who offers, attempts, perfect negotiation) is peer-link.ts's.
 */

export { stuckAfterMs } from './peer-link.ts';

export type ConnectionStatus = 'connecting' | 'waiting' | 'connected' | 'reconnecting' | 'left' | 'closed';

/** Another browser as the room shows it: its video and its connection's state. */
export interface PeerView {
  id: string;
  role: SessionRole | null;
  participantId: string | null;
  status: PeerStatus;
  stream: MediaStream | null;
}

export interface ConnectionState {
  status: ConnectionStatus;
  /** The main video: the notary's for a signer or witness, the customer's for the notary (the recording's). */
  remoteStream: MediaStream | null;
  /** Everyone else in the room, in the order they were met. */
  peers: PeerView[];
  messages: SessionChatMessage[];
  /** Why the server closed the room for us (finished, another window, access lost). */
  closedReason: string | null;
  error: string | null;
}

type RoomSocket = Socket<SessionServerEvents, SessionClientEvents>;
type Listener = () => void;
type EventHandler = (event: RoomEvent & { from: SessionRole }) => void;
/** The socket's own state; 'open' once joined, when the peers' states decide the status. */
type SocketStatus = 'connecting' | 'open' | 'reconnecting' | 'left' | 'closed';

export class RoomConnection {
  state: ConnectionState = { status: 'connecting', remoteStream: null, peers: [], messages: [], closedReason: null, error: null };
  readonly role: SessionRole;
  private readonly socket: RoomSocket;
  private local: MediaStream | null;
  private ice: IceServer[] = [];
  private socketStatus: SocketStatus = 'connecting';
  private readonly links = new Map<string, PeerLink>();
  /** Our side's latest offer attempt, across pairs. */
  private attempts = 0;
  private readonly listeners = new Set<Listener>();
  private readonly eventHandlers = new Map<string, Set<EventHandler>>();
  private readonly updateHandlers = new Set<Listener>();
  private readonly host: PeerHost;

  constructor(access: SessionAccess, role: SessionRole, localStream: MediaStream | null) {
    this.role = role;
    this.local = localStream;
    this.host = {
      role,
      socketId: () => this.socket.id,
      localStream: () => this.local,
      iceServers: () => this.ice,
      send: (to, payload) => {
        if (this.socket.connected) this.socket.emit('signal', { ...payload, to });
      },
      nextAttempt: () => ++this.attempts,
      changed: () => this.refresh(),
    };
    // The token travels in the handshake's auth payload, never in a URL.
    this.socket = io(sessionNamespace, { auth: access }) as RoomSocket;
    const socket = this.socket;
    socket.on('connect', () => this.join());
    socket.on('disconnect', (reason) => {
      if (this.socketStatus === 'left' || this.socketStatus === 'closed') return;
      // The server ended our connection (it said why just before): no automatic reconnect.
      if (reason === 'io server disconnect') {
        this.closeLinks();
        this.setSocket('closed');
      } else this.setSocket('reconnecting');
    });
    socket.on('connect_error', (error) => {
      // The server's code decides (never its wording): access gone for good stops; anything else is retried.
      if (handshakeCode(error) === 'closed') {
        socket.disconnect();
        this.setSocket('closed', { closedReason: error.message });
      } else {
        this.setSocket('reconnecting');
      }
    });
    socket.on('peer:joined', (peer) => this.meet(peer.id, peer));
    socket.on('peer:left', (peer) => {
      const link = this.links.get(peer.id);
      if (!link) return;
      link.close();
      this.links.delete(peer.id);
      this.refresh();
    });
    socket.on('signal', (signal) => void this.onSignal(signal));
    socket.on('chat', (message) => this.addMessages([message]));
    socket.on('room:event', (event) => this.eventHandlers.get(event.type)?.forEach((handler) => handler(event)));
    socket.on('session:updated', () => this.updateHandlers.forEach((handler) => handler()));
    socket.on('session:closed', ({ reason }) => {
      this.closeLinks();
      this.setSocket('closed', { closedReason: reason });
      socket.disconnect();
    });
  }

  // ---- Subscriptions (React reads `state` through useSyncExternalStore) ----

  subscribe = (listener: Listener) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getState = () => this.state;

  /** The peer connection to one peer (diagnostics and the browser tests). */
  peerConnection(peerId: string): RTCPeerConnection | null {
    return this.links.get(peerId)?.pc ?? null;
  }

  /** The main peer's connection (the customer's for the notary, the notary's for the others). */
  get pc(): RTCPeerConnection | null {
    return this.primary()?.pc ?? null;
  }

  /** Room events from the other participants, by type (e.g. 'document:focus'). */
  on(type: string, handler: EventHandler): () => void {
    const set = this.eventHandlers.get(type) ?? new Set();
    set.add(handler);
    this.eventHandlers.set(type, set);
    return () => set.delete(handler);
  }

  /** The server says the session changed: refetch the view. */
  onUpdated(handler: Listener): () => void {
    this.updateHandlers.add(handler);
    return () => this.updateHandlers.delete(handler);
  }

  send(type: string, payload: Record<string, unknown>): void {
    this.socket.emit('room:event', { type, payload });
  }

  async sendChat(body: string): Promise<string | null> {
    const clientId = crypto.randomUUID();
    return new Promise((resolve) => {
      this.socket.timeout(10_000).emit('chat', { clientId, body }, (error: Error | null, result?: Parameters<Parameters<SessionClientEvents['chat']>[1]>[0]) => {
        if (error || !result) return resolve('Your message could not be sent. Check your connection and try again.');
        if (!result.ok) return resolve(result.error);
        this.addMessages([result.message]);
        resolve(null);
      });
    });
  }

  /** Camera or microphone replaced (device picker, a device unplugged): every peer gets the new track without renegotiating. */
  replaceLocalStream(stream: MediaStream | null): void {
    this.local = stream;
    for (const link of this.links.values()) link.replaceLocalStream(stream);
  }

  leave(): void {
    this.socket.emit('leave');
    this.closeLinks();
    this.socket.disconnect();
    this.setSocket('left');
  }

  close(): void {
    this.closeLinks();
    this.socket.disconnect();
  }

  // ---- Internals -----------------------------------------------------------

  private emitState(patch: Partial<ConnectionState>) {
    this.state = { ...this.state, ...patch };
    this.listeners.forEach((listener) => listener());
  }

  private setSocket(status: SocketStatus, patch: Partial<ConnectionState> = {}) {
    this.socketStatus = status;
    this.refresh(patch);
  }

  private primary(): PeerLink | undefined {
    const main = this.role === 'notary' ? 'customer' : 'notary';
    const links = [...this.links.values()];
    return links.find((l) => l.role === main) ?? links.find((l) => l.stream) ?? links[0];
  }

  /** The state from the socket's and every link's. */
  private refresh(patch: Partial<ConnectionState> = {}) {
    const links = [...this.links.values()];
    let status: ConnectionStatus;
    if (this.socketStatus !== 'open') status = this.socketStatus;
    else if (links.length === 0) status = 'waiting';
    else if (links.some((l) => l.status === 'reconnecting')) status = 'reconnecting';
    else status = links.every((l) => l.status === 'connected') ? 'connected' : 'connecting';
    const ended = status === 'closed' || status === 'left';
    this.emitState({
      status,
      remoteStream: ended ? null : (this.primary()?.stream ?? null),
      peers: ended ? [] : links.map((l) => ({ id: l.id, role: l.role, participantId: l.participantId, status: l.status, stream: l.stream })),
      ...patch,
    });
  }

  private closeLinks() {
    for (const link of this.links.values()) link.close();
    this.links.clear();
  }

  private addMessages(messages: SessionChatMessage[]) {
    const byId = new Map(this.state.messages.map((m) => [m.id, m]));
    for (const message of messages) byId.set(message.id, message);
    this.emitState({ messages: [...byId.values()].sort((a, b) => a.id - b.id) });
  }

  private join() {
    this.socket.emit('join', (result) => {
      if (!result.ok) {
        // By the code: access gone for good ends the room; a busy or failing server is asked again shortly.
        if (result.code === 'closed' || result.code === 'invalid') this.setSocket('closed', { closedReason: result.error });
        else {
          this.setSocket('reconnecting');
          setTimeout(() => {
            if (this.socket.connected && this.socketStatus === 'reconnecting') this.join();
          }, 2000);
        }
        return;
      }
      this.ice = result.iceServers;
      this.addMessages(result.messages);
      // The answer's list may predate a `peer:joined` that crossed it: peers met meanwhile stay.
      for (const peer of result.peers) this.meet(peer.id, peer);
      this.setSocket('open');
    });
  }

  /** A link with this peer from our current socket: started unless it already is. */
  private meet(peerId: string, peer: Partial<RoomPeer> = {}): PeerLink {
    let link = this.links.get(peerId);
    if (!link) {
      link = new PeerLink(this.host, peerId, peer);
      this.links.set(peerId, link);
    } else if (peer.role) {
      link.role = peer.role;
      link.participantId = peer.participantId ?? null;
    }
    link.connect();
    return link;
  }

  private async onSignal(signal: SignalPayload & { from: string; to: string }) {
    // Addressed to this socket (an offer may arrive after a reconnection, before our join's answer).
    if (signal.to !== this.socket.id) return;
    // A peer we have not been told about yet (its join crossed ours) is adopted.
    await this.meet(signal.from).onSignal(signal);
  }
}

/** The refusal code the server put on a handshake error (`err.data.code`); undefined for a network failure. */
export function handshakeCode(error: Error): SessionErrorCode | undefined {
  const code = (error as Error & { data?: { code?: unknown } }).data?.code;
  return (sessionErrorCodes as readonly unknown[]).includes(code) ? (code as SessionErrorCode) : undefined;
}
