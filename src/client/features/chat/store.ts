/** A tiny external store for `useSyncExternalStore`: immutable snapshots, synchronous notifications. */
export class Store<S> {
  private state: S;
  private readonly listeners = new Set<() => void>();

  constructor(initial: S) {
    this.state = initial;
  }

  get = (): S => this.state;

  set(update: Partial<S> | ((state: S) => Partial<S>)): void {
    const patch = typeof update === 'function' ? update(this.state) : update;
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}

export type ConnectionStatus = 'connecting' | 'connected' | 'reconnecting' | 'refused';

/** How long an acknowledgement may take before the message waits for the next connection. */
export const ackTimeoutMs = 10_000;
/** A typing indicator whose "stopped" got lost clears itself after this. */
export const typingExpiryMs = 6_000;
