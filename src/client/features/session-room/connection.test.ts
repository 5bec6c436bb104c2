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
  answerJoin(peerId: string | null, role = 'notary', more: { id: string; role: string; participantId?: string | null }[] = []) {
    const join = this.sent.findLast((s) => s.event === 'join');
    const peers = [...(peerId ? [{ id: peerId, role: peerId.startsWith('customer') ? 'customer' : role, participantId: null }] : []), ...more.map((p) => ({ participantId: null, ...p }))];
    (join!.args[0] as Handler)({ ok: true, role: 'customer', peers, iceServers: [{ urls: ['turn:127.0.0.1:3478'], username: 'u', credential: 'c' }], messages: [] });
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
  onnegotiationneeded: (() => Promise<void>) | null = null;
  onicecandidate: unknown = null;
  ontrack: unknown = null;
  oniceconnectionstatechange: unknown = null;
  onconnectionstatechange: unknown = null;
  readonly id = FakePeerConnection.created.length + 1;
  constructor() {
    FakePeerConnection.created.push(this);
  }
  restartIce() {}
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

async function connect(role: 'customer' | 'notary' | 'participant' = 'customer', id = `${role}-1`) {
  const { RoomConnection } = await import('./connection.ts');
  const room = new RoomConnection({ token: 't'.repeat(43) } as never, role, null);
  const socket = sockets.at(-1)!;
  socket.id = id;
  socket.receive('connect');
  return { room, socket };
}

const offer = (from: string, to: string, attempt: number, sdp = `offer ${attempt}`) => ({ from, to, attempt, description: { type: 'offer', sdp } });

describe('session room signalling (connection.ts)', () => {
  beforeEach(() => {
    FakePeerConnection.created = [];
    sockets.length = 0;
    vi.stubGlobal('RTCPeerConnection', FakePeerConnection);
    vi.stubGlobal('MediaStream', class {});
  });
  afterEach(() => vi.unstubAllGlobals());

  it('starts one peer connection when the join’s answer and the other’s peer:joined name the same peer, in either order, and answers the notary’s offer from it', async () => {
    for (const peerJoinedFirst of [true, false]) {
      FakePeerConnection.created = [];
      const { room, socket } = await connect();
      if (peerJoinedFirst) socket.receive('peer:joined', { id: 'notary-1', role: 'notary' });
      socket.answerJoin('notary-1');
      if (!peerJoinedFirst) socket.receive('peer:joined', { id: 'notary-1', role: 'notary' });
      expect(FakePeerConnection.created).toHaveLength(1);
      socket.receive('signal', offer('notary-1', 'customer-1', 1));
      await flush();
      expect(socket.signalsTo('notary-1')).toEqual([{ to: 'notary-1', attempt: 1, description: { type: 'answer', sdp: 'answer from pc 1' } }]);
      room.close();
    }
  });

  it('leaves a fresh connection’s first offer to the notary’s side; once connected the customer’s side may offer (an ICE restart)', async () => {
    const { room, socket } = await connect();
    socket.answerJoin('notary-1');
    const pc = FakePeerConnection.created[0]!;
    // Both sides offering at once made the customer's side roll back mid-gathering (decision 030).
    await pc.onnegotiationneeded!();
    expect(pc.signalingState).toBe('stable');
    expect(socket.signalsTo('notary-1')).toEqual([]);
    socket.receive('signal', offer('notary-1', 'customer-1', 1));
    await flush();
    await pc.onnegotiationneeded!();
    expect(socket.signalsTo('notary-1').map((s) => s.description?.type)).toEqual(['answer', 'offer']);
    room.close();

    const notary = await connect('notary');
    notary.socket.answerJoin('customer-1');
    await FakePeerConnection.created.at(-1)!.onnegotiationneeded!();
    expect(notary.socket.signalsTo('customer-1')).toEqual([{ to: 'customer-1', attempt: 1, description: { type: 'offer', sdp: `offer from pc ${FakePeerConnection.created.length}` } }]);
    notary.room.close();
  });

  it('keeps the peer a crossing peer:joined announced when the join’s answer predates it', async () => {
    const { room, socket } = await connect();
    socket.receive('peer:joined', { id: 'notary-1', role: 'notary' });
    socket.answerJoin(null);
    expect(room.state.status).toBe('connecting');
    socket.receive('signal', offer('notary-1', 'customer-1', 1));
    await flush();
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
    socket.receive('signal', offer('notary-1', 'customer-2', 2));
    await flush();
    expect(live()).toHaveLength(1);
    const fresh = live()[0]!;
    expect(fresh.id).toBe(2);
    expect(fresh.remoteDescription?.sdp).toBe('offer 2');
    expect(socket.signalsTo('notary-1').at(-1)).toEqual({ to: 'notary-1', attempt: 2, description: { type: 'answer', sdp: 'answer from pc 2' } });
    // The join's answer, late, names the same notary: the connection that answered stays.
    socket.answerJoin('notary-1');
    expect(FakePeerConnection.created).toHaveLength(2);
    expect(fresh.closed).toBe(false);
    room.close();
  });

  it('starts afresh when the other side rejoins with a new socket, and ignores signals for another socket; one from a peer not yet announced gets a link of its own', async () => {
    const { room, socket } = await connect();
    socket.answerJoin('notary-1');
    socket.receive('signal', offer('notary-1', 'customer-old', 1, 'stale'));
    await flush();
    expect(FakePeerConnection.created).toHaveLength(1);
    socket.receive('signal', offer('someone-else', 'customer-1', 1, 'crossing'));
    await flush();
    // The notary's connection is untouched; the newcomer (the server admits only this room's sockets) has its own.
    expect(FakePeerConnection.created[0]!.remoteDescription).toBeNull();
    expect(FakePeerConnection.created[1]!.remoteDescription?.sdp).toBe('crossing');
    socket.receive('peer:left', { id: 'someone-else', role: 'participant' });
    // The notary reloads.
    socket.receive('peer:left', { id: 'notary-1', role: 'notary' });
    expect(room.state.status).toBe('waiting');
    socket.receive('peer:joined', { id: 'notary-2', role: 'notary', participantId: null });
    expect(FakePeerConnection.created).toHaveLength(3);
    expect(live().map((pc) => pc.id)).toEqual([3]);
    room.close();
  });

  it('joins a mesh: one connection per peer; the notary offers to everyone, between the others the smaller socket id offers', async () => {
    const { weOffer } = await import('./peer-link.ts');
    expect(weOffer('notary', 'z', { id: 'a', role: 'participant' })).toBe(true);
    expect(weOffer('customer', 'a', { id: 'z', role: 'notary' })).toBe(false);
    expect(weOffer('customer', 'a', { id: 'b', role: 'participant' })).toBe(true);
    expect(weOffer('participant', 'b', { id: 'a', role: 'customer' })).toBe(false);
    // Unknown (adopted from its signal): it offered, we answer.
    expect(weOffer('participant', 'a', { id: 'b', role: null })).toBe(false);

    const { room, socket } = await connect('participant', 'p-b');
    socket.answerJoin('notary-1', 'notary', [
      { id: 'customer-1', role: 'customer' },
      { id: 'p-c', role: 'participant', participantId: 'witness-row' },
    ]);
    expect(live()).toHaveLength(3);
    expect(room.state.peers.map((p) => [p.id, p.role, p.status])).toEqual([
      ['notary-1', 'notary', 'connecting'],
      ['customer-1', 'customer', 'connecting'],
      ['p-c', 'participant', 'connecting'],
    ]);
    const [toNotary, toCustomer, toWitness] = live();
    // We answer the notary and 'customer-1' (smaller ids offer first)… but make the first offer to 'p-c'.
    await toNotary!.onnegotiationneeded!();
    await toCustomer!.onnegotiationneeded!();
    await toWitness!.onnegotiationneeded!();
    expect(socket.signalsTo('notary-1')).toEqual([]);
    expect(socket.signalsTo('customer-1')).toEqual([]);
    expect(socket.signalsTo('p-c')).toEqual([{ to: 'p-c', attempt: 1, description: { type: 'offer', sdp: `offer from pc ${toWitness!.id}` } }]);
    // Each answer goes to its own peer, from its own connection.
    socket.receive('signal', offer('customer-1', 'p-b', 4));
    await flush();
    expect(toCustomer!.remoteDescription?.sdp).toBe('offer 4');
    expect(toNotary!.remoteDescription).toBeNull();
    expect(socket.signalsTo('customer-1')).toEqual([{ to: 'customer-1', attempt: 4, description: { type: 'answer', sdp: `answer from pc ${toCustomer!.id}` } }]);
    // The main video is the notary's; the room is connected only when every peer is.
    toNotary!.connectionState = 'connected';
    (toNotary!.onconnectionstatechange as () => void)();
    expect(room.state.status).toBe('connecting');
    for (const pc of [toCustomer!, toWitness!]) {
      pc.connectionState = 'connected';
      (pc.onconnectionstatechange as () => void)();
    }
    expect(room.state.status).toBe('connected');
    // One leaves: its connection closes, the others stay.
    socket.receive('peer:left', { id: 'p-c', role: 'participant' });
    expect(toWitness!.closed).toBe(true);
    expect(room.state.peers.map((p) => p.id)).toEqual(['notary-1', 'customer-1']);
    expect(room.state.status).toBe('connected');
    room.close();
    expect(live()).toHaveLength(0);
  });

  it('abandons a connection not up in time for a fresh one (the next attempt), which the customer’s side answers from a fresh connection of its own', async () => {
    vi.useFakeTimers();
    try {
      const { stuckAfterMs } = await import('./connection.ts');
      const notary = await connect('notary');
      const customer = await connect('customer');
      notary.socket.answerJoin('customer-1');
      customer.socket.answerJoin('notary-1');
      const [first, customerFirst] = FakePeerConnection.created;
      // Attempt 1: offered and answered, but its ICE never gets anywhere (no candidates gathered).
      await first!.onnegotiationneeded!();
      customer.socket.receive('signal', { ...notary.socket.signalsTo('customer-1')[0]!, from: 'notary-1' });
      await vi.advanceTimersByTimeAsync(0);
      expect(customerFirst!.remoteDescription?.sdp).toBe(`offer from pc ${first!.id}`);

      await vi.advanceTimersByTimeAsync(stuckAfterMs);
      expect(first!.closed).toBe(true);
      const second = live().find((pc) => pc.id > customerFirst!.id)!;
      await second.onnegotiationneeded!();
      const offer2 = notary.socket.signalsTo('customer-1').at(-1)!;
      expect(offer2).toMatchObject({ attempt: 2, description: { type: 'offer' } });
      // The customer's side drops its connection of attempt 1 and answers from a fresh one.
      customer.socket.receive('signal', { ...offer2, from: 'notary-1' });
      await vi.advanceTimersByTimeAsync(0);
      expect(customerFirst!.closed).toBe(true);
      const customerSecond = FakePeerConnection.created.at(-1)!;
      expect(customerSecond.remoteDescription?.sdp).toBe(offer2.description!.sdp);
      expect(customer.socket.signalsTo('notary-1').at(-1)).toMatchObject({ attempt: 2, description: { type: 'answer' } });
      // A late signal of attempt 1 is ignored by both.
      customer.socket.receive('signal', offer('notary-1', 'customer-1', 1, 'late'));
      notary.socket.receive('signal', { from: 'customer-1', to: 'notary-1', attempt: 1, description: { type: 'answer', sdp: 'late answer' } });
      await vi.advanceTimersByTimeAsync(0);
      expect(customerSecond.remoteDescription?.sdp).toBe(offer2.description!.sdp);
      expect(second.remoteDescription).toBeNull();

      // ICE checks under way get longer; connected, nothing more happens.
      second.connectionState = 'connecting';
      await vi.advanceTimersByTimeAsync(stuckAfterMs * 2);
      expect(second.closed).toBe(false);
      second.connectionState = 'connected';
      await vi.advanceTimersByTimeAsync(stuckAfterMs * 5);
      expect(second.closed).toBe(false);
      // The customer's side never abandons a connection by itself.
      expect(customerSecond.closed).toBe(false);
      notary.room.close();
      customer.room.close();
    } finally {
      vi.useRealTimers();
    }
  });
});
