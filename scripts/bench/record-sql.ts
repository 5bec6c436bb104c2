/**
 * Preloaded into the server by the bench (`node --import`) to learn which SQL
 * statements an endpoint issues, so the SQL floor can replay exactly those.
 * Off until the process receives SIGUSR2; each SIGUSR2 toggles recording and
 * writes a marker line, so the bench knows the toggle took effect. Never part
 * of the product: only the bench passes this file to Node.
 */
import { appendFileSync } from 'node:fs';
import pg from 'pg';

const file = process.env.BENCH_SQL_RECORD;
if (file) {
  let recording = false;
  let toggles = 0;
  process.on('SIGUSR2', () => {
    recording = !recording;
    toggles++;
    appendFileSync(file, `${JSON.stringify({ marker: toggles, recording })}\n`);
  });
  const clientIds = new WeakMap<object, number>();
  let nextClient = 0;
  const original = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: object, ...args: unknown[]) {
    if (recording) {
      const [first, second] = args;
      // query(text, values) or query(config) or query(config, values) — Drizzle's driver sends the last.
      const config = typeof first === 'string' ? { text: first } : (first as { name?: string; text?: string; values?: unknown[] });
      const values = Array.isArray(second) ? second : (config?.values ?? []);
      if (typeof config?.text === 'string') {
        if (!clientIds.has(this)) clientIds.set(this, ++nextClient);
        // A named (prepared) statement is replayed as one too: parsed and planned once per connection.
        const name = 'name' in config && typeof config.name === 'string' ? config.name : undefined;
        appendFileSync(file, `${JSON.stringify({ client: clientIds.get(this), name, text: config.text, values })}\n`);
      }
    }
    return original.apply(this, args);
  } as never;
}
