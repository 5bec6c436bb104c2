import type { IceServer, RoomPeer, SessionRole, SignalPayload } from '../../../shared/session.ts';

/**
 * One RTCPeerConnection to one other browser of the room (a mesh: the room
 * holds one link per peer; docs/decisions/030 and 122).
 *
 * - A link belongs to one pair of sockets, ours and the peer's: when either
 *   side (re)joins — a reload, a new socket after a network drop — the pair
 *   changes and both sides start a fresh connection, exactly once each.
 * - One side of each pair makes a fresh connection's first offer: the notary's
 *   when the notary is one of the two, otherwise the side with the smaller
 *   socket id; the other side only answers it. Both offering at once made the
 *   answering side roll back an offer whose candidate gathering had begun,
 *   after which Chromium sometimes gathered no candidates at all. Once
 *   connected either side may renegotiate with perfect negotiation
 *   (https://w3c.github.io/webrtc-pc/#perfect-negotiation-example): the
 *   answering side is the polite peer.
 * - Every signal names the offering side's attempt. A connection not up within
 *   `stuckAfterMs` is abandoned by the offering side for a fresh one with the
 *   next attempt; the answering side, seeing an offer of a later attempt,
 *   starts a fresh connection to answer it; both ignore an abandoned attempt's
 *   signals. An ICE failure on a live connection restarts ICE first.
 */

/** How long a peer connection may take to come up before the offering side starts a fresh one. */
export const stuckAfterMs = 10_000;
/** A connection whose ICE checks are under way gets this much longer (a slow machine, a relay). */
const checkingGraceMs = 2 * stuckAfterMs;

export type PeerStatus = 'connecting' | 'connected' | 'reconnecting';

/** What a link needs of its room: our side, the media, the way out, the attempt counter. */
export interface PeerHost {
  readonly role: SessionRole;
  socketId(): string | undefined;
  localStream(): MediaStream | null;
  iceServers(): IceServer[];
  send(to: string, payload: SignalPayload): void;
  /** The next attempt number of our side's offers (one counter for the room: a late signal of an older one is ignored). */
  nextAttempt(): number;
  changed(): void;
}

/** Whether our side makes this pair's first offer. A peer of unknown role (adopted from its signal) offers, unless we are the notary. */
export function weOffer(ourRole: SessionRole, ourId: string, peer: { id: string; role: SessionRole | null }): boolean {
  if (ourRole === 'notary') return true;
  if (peer.role === 'notary' || peer.role === null) return false;
  return ourId < peer.id;
}

export class PeerLink {
  pc: RTCPeerConnection | null = null;
  stream: MediaStream | null = null;
  status: PeerStatus = 'connecting';
  role: SessionRole | null;
  participantId: string | null;
  /** The sockets `pc` connects, as `ours|theirs`. */
  private pair: string | null = null;
  /** The offering side's attempt `pc` belongs to (0: an answering connection not offered to yet). */
  private attempt = 0;
  private offerer = false;
  private watchdog: ReturnType<typeof setTimeout> | undefined;
  private makingOffer = false;
  private ignoreOffer = false;

  private readonly host: PeerHost;
  readonly id: string;

  constructor(host: PeerHost, id: string, peer: Partial<Pick<RoomPeer, 'role' | 'participantId'>> = {}) {
    this.host = host;
    this.id = id;
    this.role = peer.role ?? null;
    this.participantId = peer.participantId ?? null;
  }

  /** A connection from our current socket: started unless it already is. */
  connect(): void {
    const ours = this.host.socketId();
    if (!ours) return;
    const pair = `${ours}|${this.id}`;
    if (this.pc && this.pair === pair) return;
    this.offerer = weOffer(this.host.role, ours, { id: this.id, role: this.role });
    this.start(pair, this.offerer ? this.host.nextAttempt() : 0);
  }

  /** Camera or microphone replaced: the peer gets the new track without renegotiating. */
  replaceLocalStream(stream: MediaStream | null): void {
    if (!this.pc || !stream) return;
    for (const sender of this.pc.getSenders()) {
      const next = stream.getTracks().find((track) => track.kind === sender.track?.kind);
      if (next) void sender.replaceTrack(next);
    }
  }

  close(): void {
    clearTimeout(this.watchdog);
    if (!this.pc) return;
    const pc = this.pc;
    this.pc = null;
    this.pair = null;
    pc.onicecandidate = pc.ontrack = pc.onnegotiationneeded = pc.oniceconnectionstatechange = pc.onconnectionstatechange = null;
    pc.close();
  }

  async onSignal(signal: SignalPayload): Promise<void> {
    this.connect();
    if (!this.adoptAttempt(signal)) return;
    const pc = this.pc;
    if (!pc) return;
    const polite = !this.offerer;
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

  private set(patch: Partial<Pick<PeerLink, 'status' | 'stream'>>) {
    Object.assign(this, patch);
    this.host.changed();
  }

  private signal(payload: Omit<SignalPayload, 'attempt'>) {
    if (this.attempt === 0) return;
    this.host.send(this.id, { ...payload, attempt: this.attempt });
  }

  /** The offering side starts a fresh connection (the next attempt) while this one is not up. */
  private watch(pc: RTCPeerConnection, pair: string) {
    clearTimeout(this.watchdog);
    if (!this.offerer) return;
    const started = Date.now();
    const check = () => {
      if (pc !== this.pc) return;
      const state = pc.connectionState;
      const checking = state === 'connecting' && Date.now() - started < stuckAfterMs + checkingGraceMs;
      if (state === 'connected' || state === 'disconnected' || checking) {
        this.watchdog = setTimeout(check, stuckAfterMs);
        return;
      }
      this.start(pair, this.host.nextAttempt());
    };
    this.watchdog = setTimeout(check, stuckAfterMs);
  }

  /** A fresh connection for this pair of sockets and attempt, replacing ours. */
  private start(pair: string, attempt: number) {
    this.close();
    this.makingOffer = false;
    this.ignoreOffer = false;
    this.pair = pair;
    this.attempt = attempt;
    const pc = new RTCPeerConnection({ iceServers: this.host.iceServers().map((s) => ({ urls: s.urls, username: s.username, credential: s.credential })) });
    this.pc = pc;
    this.watch(pc, pair);
    this.set({ status: 'connecting', stream: null });
    const local = this.host.localStream();
    if (local) for (const track of local.getTracks()) pc.addTrack(track, local);
    // Receive both kinds even with no camera or microphone of our own.
    const kinds = new Set(local?.getTracks().map((t) => t.kind) ?? []);
    for (const kind of ['audio', 'video'] as const) if (!kinds.has(kind)) pc.addTransceiver(kind, { direction: 'recvonly' });

    pc.ontrack = (event) => {
      const stream = event.streams[0] ?? new MediaStream([event.track]);
      if (this.stream !== stream) this.set({ stream });
    };
    pc.onicecandidate = ({ candidate }) => this.signal({ candidate: candidate ? { candidate: candidate.candidate, sdpMid: candidate.sdpMid, sdpMLineIndex: candidate.sdpMLineIndex, usernameFragment: candidate.usernameFragment } : null });
    pc.onnegotiationneeded = async () => {
      // The answering side answers a fresh connection's first offer rather than making one.
      if (!this.offerer && !pc.remoteDescription) return;
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
      if (pc.iceConnectionState === 'failed') pc.restartIce();
    };
    pc.onconnectionstatechange = () => {
      if (pc !== this.pc) return;
      if (pc.connectionState === 'connected') this.set({ status: 'connected' });
      else if (pc.connectionState === 'disconnected' || pc.connectionState === 'failed') this.set({ status: 'reconnecting' });
    };
  }

  /**
   * Whether a signal belongs to our connection's attempt. On the answering
   * side an offer of a later attempt starts a fresh connection to answer it
   * (a connection not offered to yet takes it as it is).
   */
  private adoptAttempt(signal: SignalPayload): boolean {
    if (signal.attempt === this.attempt) return true;
    if (!this.pair) return false;
    const later = !this.offerer && signal.description?.type === 'offer' && signal.attempt > this.attempt;
    if (!later) return false;
    if (this.attempt === 0) this.attempt = signal.attempt;
    else this.start(this.pair, signal.attempt);
    return true;
  }
}
