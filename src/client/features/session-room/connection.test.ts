import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * RoomConnection's signalling against a scripted socket and a recording
 * RTCPeerConnection: which events start a fresh peer connection and where
 * offers go, for the orders in which a join's answer, the other side's
 * `peer:joined` and its first offer can arrive.
 */

type Handler = (...args: unknown[]) => void;

class FakeSocket {
  id = 'customer-1';
  connected = true;
  readonly handlers = new Map<string, Handler[]>();
  readonly sent: { event: string; args: unknown[] }[] = [];
  on(event: string, handler: Handler) {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), handler]);
    return this;
  }
  emit(event: string, ...args: unknown[]) {
    this.sent.push({ event, args });
    return this;
  }
  disconnect() {
    this.connected = false;
    return this;
  }
  /** The server sends an event to this socket. */
  receive(event: string, ...args: unknown[]) {
    for (const handler of this.handlers.get(event) ?? []) handler(...args);
  }
  /** The answer to the latest `join` this socket sent. */
  answerJoin(peerId: string | null) {
    const join = this.sent.findLast((s) => s.event === 'join');
    (join!.args[0] as Handler)({ ok: true, role: 'customer', peerId, iceServers: [{ urls: ['turn:127.0.0.1:3478'], username: 'u', credential: 'c' }], messages: [] });
  }
  signalsTo(peerId: string) {
    return this.sent.filter((s) => s.event === 'signal' && (s.args[0] as { to: string }).to === peerId).map((s) => s.args[0] as { description?: { type: string; sdp: string } });
  }
}

const sockets: FakeSocket[] = [];
vi.mock('socket.io-client', () => ({
  io: () => {
    const socket = new FakeSocket();
    sockets.push(socket);
    return socket;
  },
}));

class FakePeerConnection {
  static created: FakePeerConnection[] = [];
  signalingState: RTCSignalingState = 'stable';
  localDescription: { type: string; sdp: string } | null = null;
  remoteDescription: { type: string; sdp: string } | null = null;
  closed = false;
  connectionState: RTCPeerConnectionState = 'new';
  configuration: RTCConfiguration;
  iceRestarts = 0;
  onnegotiationneeded: (() => Promise<void>) | null = null;
  onicecandidate: unknown = null;
  ontrack: unknown = null;
  oniceconnectionstatechange: unknown = null;
  onconnectionstatechange: unknown = null;
  readonly id = FakePeerConnection.created.length + 1;
  constructor(configuration: RTCConfiguration) {
    this.configuration = configuration;
    FakePeerConnection.created.push(this);
  }
  getConfiguration() {
    return this.configuration;
  }
  setConfiguration(configuration: RTCConfiguration) {
    this.configuration = configuration;
  }
  restartIce() {
    this.iceRestarts++;
  }
  addTrack() {}
  addTransceiver() {}
  getSenders() {
    return [];
  }
  close() {
    this.closed = true;
  }
  async setLocalDescription(description?: { type: string }) {
    if (description?.type === 'rollback') {
      this.localDescription = null;
      this.signalingState = 'stable';
      return;
    }
    const type = this.signalingState === 'have-remote-offer' ? 'answer' : 'offer';
    this.localDescription = { type, sdp: `${type} from pc ${this.id}` };
    this.signalingState = type === 'offer' ? 'have-local-offer' : 'stable';
  }
  async setRemoteDescription(description: { type: string; sdp: string }) {
    this.remoteDescription = description;
    this.signalingState = description.type === 'offer' ? 'have-remote-offer' : 'stable';
  }
  async addIceCandidate() {}
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
const live = () => FakePeerConnection.created.filter((pc) => !pc.closed);

async function connect(role: 'customer' | 'notary' = 'customer') {
  const { RoomConnection } = await import('./connection.ts');
  const room = new RoomConnection({ token: 't'.repeat(43) } as never, role, null);
  const socket = sockets.at(-1)!;
  socket.receive('connect');
  return { room, socket };
}

describe('session room signalling (connection.ts)', () => {
  beforeEach(() => {
    FakePeerConnection.created = [];
    sockets.length = 0;
    vi.stubGlobal('RTCPeerConnection', FakePeerConnection);
    vi.stubGlobal('MediaStream', class {});
  });
  afterEach(() => vi.unstubAllGlobals());

  it('starts one peer connection when the join’s answer and the other’s peer:joined name the same peer, in either order', async () => {
    for (const peerJoinedFirst of [true, false]) {
      FakePeerConnection.created = [];
      const { room, socket } = await connect();
      if (peerJoinedFirst) socket.receive('peer:joined', { id: 'notary-1', role: 'notary' });
      socket.answerJoin('notary-1');
      if (!peerJoinedFirst) socket.receive('peer:joined', { id: 'notary-1', role: 'notary' });
      expect(FakePeerConnection.created).toHaveLength(1);
      // Its offer reaches the notary.
      await FakePeerConnection.created[0]!.onnegotiationneeded!();
      expect(socket.signalsTo('notary-1').map((s) => s.description?.sdp)).toEqual(['offer from pc 1']);
      room.close();
    }
  });

  it('keeps the peer a crossing peer:joined announced when the join’s answer predates it', async () => {
    const { room, socket } = await connect();
    socket.receive('peer:joined', { id: 'notary-1', role: 'notary' });
    socket.answerJoin(null);
    expect(room.state.status).toBe('connecting');
    await FakePeerConnection.created[0]!.onnegotiationneeded!();
    expect(socket.signalsTo('notary-1')).toHaveLength(1);
    room.close();
  });

  it('answers an offer that arrives on a new socket before its join’s answer, from a fresh connection, and keeps it', async () => {
    const { room, socket } = await connect();
    socket.answerJoin('notary-1');
    expect(live()).toHaveLength(1);
    // The network drops; the socket comes back with a new id. The notary, told of it, offers first.
    socket.receive('disconnect', 'transport close');
    socket.id = 'customer-2';
    socket.receive('connect');
    socket.receive('signal', { from: 'notary-1', to: 'customer-2', description: { type: 'offer', sdp: 'offer from the notary' } });
    await flush();
    expect(live()).toHaveLength(1);
    const fresh = live()[0]!;
    expect(fresh.id).toBe(2);
    expect(fresh.remoteDescription?.sdp).toBe('offer from the notary');
    expect(socket.signalsTo('notary-1').at(-1)?.description).toEqual({ type: 'answer', sdp: 'answer from pc 2' });
    // The join's answer, late, names the same notary: the connection that answered stays, and
    // gets the ICE servers it was started without.
    expect(fresh.configuration.iceServers).toHaveLength(1);
    socket.answerJoin('notary-1');
    expect(FakePeerConnection.created).toHaveLength(2);
    expect(fresh.closed).toBe(false);
    expect(fresh.configuration.iceServers).toEqual([{ urls: ['turn:127.0.0.1:3478'], username: 'u', credential: 'c' }]);
    room.close();
  });

  it('starts afresh when the other side rejoins with a new socket, and ignores signals for another socket or from a stranger', async () => {
    const { room, socket } = await connect();
    socket.answerJoin('notary-1');
    socket.receive('signal', { from: 'notary-1', to: 'customer-old', description: { type: 'offer', sdp: 'stale' } });
    socket.receive('signal', { from: 'someone-else', to: 'customer-1', description: { type: 'offer', sdp: 'stranger' } });
    await flush();
    expect(FakePeerConnection.created[0]!.remoteDescription).toBeNull();
    // The notary reloads.
    socket.receive('peer:left', { id: 'notary-1', role: 'notary' });
    expect(room.state.status).toBe('waiting');
    socket.receive('peer:joined', { id: 'notary-2', role: 'notary' });
    expect(FakePeerConnection.created).toHaveLength(2);
    expect(live().map((pc) => pc.id)).toEqual([2]);
    room.close();
  });

  it('on the notary’s side, negotiates again while the connection is not up: the unanswered offer rolled back, ICE restarted', async () => {
    vi.useFakeTimers();
    try {
      const { stuckAfterMs } = await import('./connection.ts');
      const { room, socket } = await connect('notary');
      socket.answerJoin('customer-1');
      const pc = FakePeerConnection.created[0]!;
      await pc.onnegotiationneeded!();
      expect(pc.signalingState).toBe('have-local-offer');
      // The customer never answers (its copy of the offer was lost).
      await vi.advanceTimersByTimeAsync(stuckAfterMs);
      expect(pc.signalingState).toBe('stable');
      expect(pc.iceRestarts).toBe(1);
      // Once connected, nothing more.
      pc.connectionState = 'connected';
      await vi.advanceTimersByTimeAsync(stuckAfterMs * 3);
      expect(pc.iceRestarts).toBe(1);
      room.close();
      // The customer's side (polite) leaves it to the notary's.
      const customer = await connect('customer');
      customer.socket.answerJoin('notary-1');
      await vi.advanceTimersByTimeAsync(stuckAfterMs * 2);
      expect(FakePeerConnection.created.at(-1)!.iceRestarts).toBe(0);
      customer.room.close();
    } finally {
      vi.useRealTimers();
    }
  });
});
