/**
 * Preloaded into the server by the bench (`node --import`) to learn which SQL
 * statements an endpoint issues, so the SQL floor can replay exactly those.
 * Off until the process receives SIGUSR2; each SIGUSR2 toggles recording and
 * writes a marker line, so the bench knows the toggle took effect. Never part
 * of the product: only the bench passes this file to Node.
 *
 * Only the statements of HTTP requests that arrived after recording began are
 * kept: every request runs in an AsyncLocalStorage context numbered in arrival
 * order, and a statement outside one (the mail outbox's poll, a sweep) or from
 * an earlier request's continuation (a timer a request set) is left out — the
 * outbox worker's statement once slipped into `slots.list`'s floor (issue 31).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { appendFileSync } from 'node:fs';
import http from 'node:http';
import pg from 'pg';

export interface SqlRecorder {
  /** Starts or stops recording; writes a marker line either way. */
  toggle(): void;
}

/** Wraps `pg.Client.prototype.query` and `http.Server`'s request event; records to `file` while on. */
export function installSqlRecorder(file: string): SqlRecorder {
  const requests = new AsyncLocalStorage<number>();
  let arrived = 0;
  /** Requests numbered above this arrived while recording. */
  let recordingFrom: number | null = null;
  let toggles = 0;

  const emit = http.Server.prototype.emit as (this: http.Server, event: string, ...args: unknown[]) => boolean;
  http.Server.prototype.emit = function (this: http.Server, event: string, ...args: unknown[]) {
    // Off, a request runs as it would without the recorder: the load the bench
    // measures pays for no context of the recorder's (issue 31, decision 132).
    // A request that arrived before recording began has no number: it is left out either way.
    if (event !== 'request' || recordingFrom === null) return emit.call(this, event, ...args);
    const request = ++arrived;
    // The body's events ('data', 'end') come from the socket, outside the request's
    // context: a POST's handler (a hold) runs from them, so they enter it too.
    const req = args[0] as http.IncomingMessage;
    const reqEmit = req.emit;
    req.emit = function (this: http.IncomingMessage, ...reqArgs: Parameters<typeof reqEmit>) {
      return requests.run(request, () => reqEmit.apply(this, reqArgs));
    } as typeof reqEmit;
    return requests.run(request, () => emit.call(this, event, ...args));
  } as never;

  const clientIds = new WeakMap<object, number>();
  let nextClient = 0;
  const original = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: object, ...args: unknown[]) {
    if (recordingFrom === null) return original.apply(this, args);
    const request = requests.getStore();
    if (request !== undefined && request > recordingFrom) {
      const [first, second] = args;
      // query(text, values) or query(config) or query(config, values) — Drizzle's driver sends the last.
      const config = typeof first === 'string' ? { text: first } : (first as { name?: string; text?: string; values?: unknown[] });
      const values = Array.isArray(second) ? second : (config?.values ?? []);
      if (typeof config?.text === 'string') {
        if (!clientIds.has(this)) clientIds.set(this, ++nextClient);
        // A named (prepared) statement is replayed as one too: parsed and planned once per connection.
        const name = 'name' in config && typeof config.name === 'string' ? config.name : undefined;
        appendFileSync(file, `${JSON.stringify({ client: clientIds.get(this), request, name, text: config.text, values })}\n`);
      }
    }
    return original.apply(this, args);
  } as never;

  return {
    toggle() {
      recordingFrom = recordingFrom === null ? arrived : null;
      toggles++;
      appendFileSync(file, `${JSON.stringify({ marker: toggles, recording: recordingFrom !== null })}\n`);
    },
  };
}

const file = process.env.BENCH_SQL_RECORD;
if (file) {
  const recorder = installSqlRecorder(file);
  process.on('SIGUSR2', () => recorder.toggle());
}
