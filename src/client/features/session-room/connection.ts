import { io, type Socket } from 'socket.io-client';
import {
  sessionNamespace,
  type IceServer,
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
 * One participant's link to the room: Socket.IO signalling and one
 * RTCPeerConnection to the other participant (docs/decisions/030-session-room.md).
 *
 * - A peer connection belongs to one pair of sockets, ours and the other
 *   participant's: when either side (re)joins — a reload, a new socket after
 *   a network drop — the pair changes and both sides start a fresh
 *   connection, exactly once each, however the join's answer, the other's
 *   `peer:joined` and its first offer interleave.
 * - The notary's side makes each fresh connection's first offer; the
 *   customer's side only answers it. Both offering at once made the
 *   customer's side roll back an offer whose candidate gathering had begun,
 *   after which Chromium sometimes gathered no candidates at all: a black
 *   video for good. Once connected, either side may renegotiate, with the
 *   "perfect negotiation" pattern
 *   (https://w3c.github.io/webrtc-pc/#perfect-negotiation-example): the
 *   customer is the polite peer.
 * - Every signal names the notary's side's attempt. A connection not up
 *   within `stuckAfterMs` (a signal lost while a socket was replaced, an
 *   ICE agent that never gathered) is abandoned by the notary's side for a
 *   fresh one with the next attempt; the customer's side, seeing an offer of
 *   a later attempt, starts a fresh connection to answer it, and both ignore
 *   signals of an abandoned attempt. An ICE failure on a live connection
 *   restarts ICE first.
 */

/** How long a peer connection may take to come up before the notary's side starts a fresh one. */
export const stuckAfterMs = 10_000;
/** A connection whose ICE checks are under way gets this much longer (a slow machine, a relay). */
const checkingGraceMs = 2 * stuckAfterMs;

export type ConnectionStatus = 'connecting' | 'waiting' | 'connected' | 'reconnecting' | 'left' | 'closed';

export interface ConnectionState {
  status: ConnectionStatus;
  remoteStream: MediaStream | null;
  messages: SessionChatMessage[];
  /** Why the server closed the room for us (finished, another window, access lost). */
  closedReason: string | null;
  error: string | null;
}

type RoomSocket = Socket<SessionServerEvents, SessionClientEvents>;
type Listener = () => void;
type EventHandler = (event: RoomEvent & { from: SessionRole }) => void;

/** Errors the server gives on the handshake that no retry fixes. */

export class RoomConnection {
  state: ConnectionState = { status: 'connecting', remoteStream: null, messages: [], closedReason: null, error: null };
  readonly role: SessionRole;
  /** The peer connection, exposed for diagnostics (and the browser tests). */
  pc: RTCPeerConnection | null = null;
  private readonly socket: RoomSocket;
  private localStream: MediaStream | null;
  private iceServers: IceServer[] = [];
  private peerId: string | null = null;
  /** The sockets `pc` connects, as `ours|theirs`. */
  private pair: string | null = null;
  /** The notary's side's attempt `pc` belongs to (0: a customer's connection not offered to yet). */
  private attempt = 0;
  /** The notary's side's latest attempt, across pairs (a late signal of an older one is ignored). */
  private attempts = 0;
  private watchdog: ReturnType<typeof setTimeout> | undefined;
  private makingOffer = false;
  private ignoreOffer = false;
  private readonly listeners = new Set<Listener>();
  private readonly eventHandlers = new Map<string, Set<EventHandler>>();
  private readonly updateHandlers = new Set<Listener>();

  constructor(access: SessionAccess, role: SessionRole, localStream: MediaStream | null) {
    this.role = role;
    this.localStream = localStream;
    // The token travels in the handshake's auth payload, never in a URL.
    this.socket = io(sessionNamespace, { auth: access }) as RoomSocket;
    const socket = this.socket;
    socket.on('connect', () => this.join());
    socket.on('disconnect', (reason) => {
      if (this.state.status === 'left' || this.state.status === 'closed') return;
      // The server ended our connection (it said why just before): no automatic reconnect.
      if (reason === 'io server disconnect') this.set({ status: 'closed', remoteStream: null });
      else this.set({ status: 'reconnecting' });
    });
    socket.on('connect_error', (error) => {
      // The server's code decides (never its wording): access gone for good stops; anything else is retried.
      if (handshakeCode(error) === 'closed') {
        socket.disconnect();
        this.set({ status: 'closed', closedReason: error.message });
      } else {
        this.set({ status: 'reconnecting' });
      }
    });
    socket.on('peer:joined', (peer) => this.connectTo(peer.id));
    socket.on('peer:left', (peer) => {
      if (peer.id !== this.peerId) return;
      this.peerId = null;
      this.closePeerConnection();
      this.set({ status: 'waiting', remoteStream: null });
    });
    socket.on('signal', (signal) => void this.onSignal(signal));
    socket.on('chat', (message) => this.addMessages([message]));
    socket.on('room:event', (event) => this.eventHandlers.get(event.type)?.forEach((handler) => handler(event)));
    socket.on('session:updated', () => this.updateHandlers.forEach((handler) => handler()));
    socket.on('session:closed', ({ reason }) => {
      this.closePeerConnection();
      this.set({ status: 'closed', closedReason: reason, remoteStream: null });
      socket.disconnect();
    });
  }

  // ---- Subscriptions (React reads `state` through useSyncExternalStore) ----

  subscribe = (listener: Listener) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getState = () => this.state;

  /** Room events from the other participant, by type (e.g. 'document:focus'). */
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

  /** Camera or microphone replaced (device picker): the other side gets the new track without renegotiating. */
  replaceLocalStream(stream: MediaStream | null): void {
    this.localStream = stream;
    if (!this.pc || !stream) return;
    for (const sender of this.pc.getSenders()) {
      const next = stream.getTracks().find((track) => track.kind === sender.track?.kind);
      if (next) void sender.replaceTrack(next);
    }
  }

  leave(): void {
    this.socket.emit('leave');
    this.closePeerConnection();
    this.socket.disconnect();
    this.set({ status: 'left', remoteStream: null });
  }

  close(): void {
    this.closePeerConnection();
    this.socket.disconnect();
  }

  // ---- Internals -----------------------------------------------------------

  private set(patch: Partial<ConnectionState>) {
    this.state = { ...this.state, ...patch };
    this.listeners.forEach((listener) => listener());
  }

  private addMessages(messages: SessionChatMessage[]) {
    const byId = new Map(this.state.messages.map((m) => [m.id, m]));
    for (const message of messages) byId.set(message.id, message);
    this.set({ messages: [...byId.values()].sort((a, b) => a.id - b.id) });
  }

  private join() {
    this.socket.emit('join', (result) => {
      if (!result.ok) {
        // By the code: access gone for good ends the room; a busy or failing server is asked again shortly.
        if (result.code === 'closed' || result.code === 'invalid') this.set({ status: 'closed', closedReason: result.error });
        else {
          this.set({ status: 'reconnecting' });
          setTimeout(() => {
            if (this.socket.connected && this.state.status === 'reconnecting') this.join();
          }, 2000);
        }
        return;
      }
      this.iceServers = result.iceServers;
      this.addMessages(result.messages);
      // The answer's list of peers may predate a `peer:joined` that crossed it: keep that peer.
      if (result.peerId) this.connectTo(result.peerId);
      else if (!this.peerId) this.set({ status: 'waiting', remoteStream: null });
    });
  }

  /** A connection with this peer from our current socket: started unless it already is. */
  private connectTo(peerId: string) {
    this.peerId = peerId;
    const pair = `${this.socket.id}|${peerId}`;
    if (this.pc && this.pair === pair) return;
    this.startPeerConnection(pair, this.role === 'notary' ? ++this.attempts : 0);
  }

  private rtcIceServers(): RTCIceServer[] {
    return this.iceServers.map((s) => ({ urls: s.urls, username: s.username, credential: s.credential }));
  }

  /** The notary's side starts a fresh connection (the next attempt) while this one is not up. */
  private watch(pc: RTCPeerConnection, pair: string) {
    clearTimeout(this.watchdog);
    if (this.role !== 'notary') return;
    const started = Date.now();
    const check = () => {
      if (pc !== this.pc) return;
      // Up, or briefly down (ICE restarts it), or still checking: give it time.
      const state = pc.connectionState;
      const checking = state === 'connecting' && Date.now() - started < stuckAfterMs + checkingGraceMs;
      if (state === 'connected' || state === 'disconnected' || checking) {
        this.watchdog = setTimeout(check, stuckAfterMs);
        return;
      }
      this.startPeerConnection(pair, ++this.attempts);
    };
    this.watchdog = setTimeout(check, stuckAfterMs);
  }

  private closePeerConnection() {
    clearTimeout(this.watchdog);
    if (!this.pc) return;
    const pc = this.pc;
    this.pc = null;
    this.pair = null;
    pc.onicecandidate = pc.ontrack = pc.onnegotiationneeded = pc.oniceconnectionstatechange = pc.onconnectionstatechange = null;
    pc.close();
  }

  /** A fresh connection for this pair of sockets and attempt, replacing ours. */
  private startPeerConnection(pair: string, attempt: number) {
    this.closePeerConnection();
    this.makingOffer = false;
    this.ignoreOffer = false;
    this.pair = pair;
    this.attempt = attempt;
    const pc = new RTCPeerConnection({ iceServers: this.rtcIceServers() });
    this.pc = pc;
    this.watch(pc, pair);
    this.set({ status: 'connecting', remoteStream: null });
    if (this.localStream) for (const track of this.localStream.getTracks()) pc.addTrack(track, this.localStream);
    // Receive both kinds even with no camera or microphone of our own.
    const kinds = new Set(this.localStream?.getTracks().map((t) => t.kind) ?? []);
    for (const kind of ['audio', 'video'] as const) if (!kinds.has(kind)) pc.addTransceiver(kind, { direction: 'recvonly' });

    pc.ontrack = (event) => {
      const stream = event.streams[0] ?? new MediaStream([event.track]);
      if (this.state.remoteStream !== stream) this.set({ remoteStream: stream });
    };
    pc.onicecandidate = ({ candidate }) => this.signal({ candidate: candidate ? { candidate: candidate.candidate, sdpMid: candidate.sdpMid, sdpMLineIndex: candidate.sdpMLineIndex, usernameFragment: candidate.usernameFragment } : null });
    pc.onnegotiationneeded = async () => {
      // The customer's side answers a fresh connection's first offer rather than making one.
      if (this.role === 'customer' && !pc.remoteDescription) return;
      try {
        this.makingOffer = true;
        await pc.setLocalDescription();
        if (pc.localDescription) this.signal({ description: { type: pc.localDescription.type, sdp: pc.localDescription.sdp } });
      } catch (error) {
        console.warn('session: offer failed', error);
      } finally {
        this.makingOffer = false;
      }
    };
    pc.oniceconnectionstatechange = () => {
      // A network change broke the path: look for a new one without dropping the call.
      if (pc.iceConnectionState === 'failed') pc.restartIce();
    };
    pc.onconnectionstatechange = () => {
      if (pc !== this.pc) return;
      if (pc.connectionState === 'connected') this.set({ status: 'connected' });
      else if (pc.connectionState === 'disconnected' || pc.connectionState === 'failed') this.set({ status: 'reconnecting' });
    };
  }

  private signal(payload: Omit<SignalPayload, 'attempt'>) {
    if (!this.peerId || !this.socket.connected || this.attempt === 0) return;
    this.socket.emit('signal', { ...payload, attempt: this.attempt, to: this.peerId });
  }

  private async onSignal(signal: SignalPayload & { from: string; to: string }) {
    // Addressed to this socket (an offer may arrive after a reconnection, before our join's answer).
    if (signal.to !== this.socket.id) return;
    if (this.peerId && signal.from !== this.peerId) return;
    // A peer we have not been told about yet (its join crossed ours) is adopted.
    this.connectTo(signal.from);
    if (!this.adoptAttempt(signal)) return;
    const pc = this.pc;
    if (!pc) return;
    const polite = this.role === 'customer';
    try {
      if (signal.description) {
        const description = signal.description as RTCSessionDescriptionInit;
        const collision = description.type === 'offer' && (this.makingOffer || pc.signalingState !== 'stable');
        this.ignoreOffer = !polite && collision;
        if (this.ignoreOffer) return;
        await pc.setRemoteDescription(description);
        if (description.type === 'offer') {
          await pc.setLocalDescription();
          if (pc.localDescription) this.signal({ description: { type: pc.localDescription.type, sdp: pc.localDescription.sdp } });
        }
      } else if (signal.candidate !== undefined) {
        try {
          await pc.addIceCandidate(signal.candidate ?? undefined);
        } catch (error) {
          if (!this.ignoreOffer) throw error;
        }
      }
    } catch (error) {
      console.warn('session: signalling failed', error);
    }
  }

  /**
   * Whether a signal belongs to our connection's attempt. On the customer's
   * side an offer of a later attempt starts a fresh connection to answer it
   * (a connection not offered to yet takes it as it is).
   */
  private adoptAttempt(signal: SignalPayload): boolean {
    if (signal.attempt === this.attempt) return true;
    if (!this.pair) return false;
    const later = this.role === 'customer' && signal.description?.type === 'offer' && signal.attempt > this.attempt;
    if (!later) return false;
    if (this.attempt === 0) {
      this.attempt = signal.attempt;
    } else {
      this.startPeerConnection(this.pair, signal.attempt);
    }
    return true;
  }
}

/** The refusal code the server put on a handshake error (`err.data.code`); undefined for a network failure. */
export function handshakeCode(error: Error): SessionErrorCode | undefined {
  const code = (error as Error & { data?: { code?: unknown } }).data?.code;
  return (sessionErrorCodes as readonly unknown[]).includes(code) ? (code as SessionErrorCode) : undefined;
}
