import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort, serverEnv } from '../helpers/server.ts';

/**
 * What the fault suite shares: a fresh PostgreSQL database per file, server
 * nodes as real processes (the built production server), a TCP proxy that can
 * swallow the database's traffic, and bounded waits. The suite needs
 * TEST_DATABASE_URL and `npm run build`; without them it is skipped with a message.
 */
export const adminUrl = process.env.TEST_DATABASE_URL;
export const built = existsSync('dist/server/entry-server.js');
export const faultsEnabled = !!adminUrl && built;
export function explainSkip(file: string): void {
  if (!adminUrl) console.warn(`${file}: fault suite skipped — set TEST_DATABASE_URL (a PostgreSQL server) to run it`);
  else if (!built) console.warn(`${file}: fault suite skipped — run \`npm run build\` first (the nodes run the built server)`);
}

export interface TestDatabase {
  name: string;
  url: string;
  /** The test's own connection (assertions, pg_terminate_backend). */
  admin: pg.Client;
  drop(): Promise<void>;
}

export async function createDatabase(): Promise<TestDatabase> {
  const name = `t_faults_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl!);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    admin,
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      await admin.end();
    },
  };
}

/** Ends every backend of the database (a restart, a failover, a proxy reset) but the test's own. */
export async function terminateBackends(database: TestDatabase): Promise<number> {
  const { rows } = await database.admin.query(
    'select count(*)::int as n from (select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()) t',
    [database.name],
  );
  return rows[0].n as number;
}

export interface Node {
  url: string;
  port: number;
  dataDir: string;
  process: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  alive(): boolean;
  /** SIGTERM and wait; resolves with the exit code. */
  stop(): Promise<number | null>;
  kill9(): Promise<void>;
}

/**
 * The built server as its own process. `wrap` prefixes the command (e.g. to
 * start it in its own mount namespace); the node's own command follows.
 */
export async function startNode(env: Record<string, string>, options: { wrap?: (command: string[]) => string[]; port?: number } = {}): Promise<Node> {
  const port = options.port ?? (await freePort());
  const dataDir = env.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'notary-faults-'));
  const command = [process.execPath, 'src/server/start.mjs'];
  const [file, ...args] = options.wrap ? options.wrap(command) : command;
  let output = '';
  const child = spawn(file!, args, {
    cwd: process.cwd(),
    env: serverEnv(port, dataDir, { TRUST_PROXY: '1', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`node exited (${child.exitCode}):\n${output}`);
      return (await fetch(`${url}/healthz`).catch(() => null))?.ok === true;
    },
    { timeoutMs: 40_000, what: `node on ${url} to start`, detail: () => output },
  );
  return {
    url,
    port,
    dataDir,
    process: child,
    output: () => output,
    exited,
    alive: () => child.exitCode === null && child.signalCode === null,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return (await exited).code;
    },
    async kill9() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

export function removeDataDir(node: Node | undefined): void {
  if (node) rmSync(node.dataDir, { recursive: true, force: true });
}

/** Polls `check` until it is true; fails after `timeoutMs` naming what was awaited. */
export async function waitFor(
  check: () => Promise<boolean> | boolean,
  { timeoutMs = 15_000, intervalMs = 100, what = 'condition', detail }: { timeoutMs?: number; intervalMs?: number; what?: string; detail?: () => string } = {},
): Promise<number> {
  const started = Date.now();
  let lastError: unknown;
  while (Date.now() - started < timeoutMs) {
    try {
      if (await check()) return Date.now() - started;
    } catch (error) {
      lastError = error;
      if (error instanceof Error && error.message.startsWith('node exited')) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (last error: ${String(lastError)})` : ''}${detail ? `\n${detail()}` : ''}`);
}

/** fetch with a hard bound: resolves to the response or to the error, never hangs. */
export async function boundedFetch(url: string, init: RequestInit = {}, timeoutMs = 15_000): Promise<{ status: number; body: unknown; ms: number } | { error: string; ms: number }> {
  const started = Date.now();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: res.status, body, ms: Date.now() - started };
  } catch (error) {
    return { error: String((error as Error).cause ?? error), ms: Date.now() - started };
  }
}

/**
 * A TCP proxy in front of PostgreSQL. `blackhole()` makes the database a peer
 * that accepts connections and never answers: new connections are accepted
 * and swallowed, traffic on open ones stops in both directions (as when a
 * network path drops every packet). `heal()` lets it all flow again.
 */
export interface DatabaseProxy {
  url: string;
  blackhole(): void;
  heal(): void;
  close(): Promise<void>;
}

export async function startDatabaseProxy(databaseUrl: string): Promise<DatabaseProxy> {
  const target = new URL(databaseUrl);
  const pairs = new Set<[Socket, Socket]>();
  const held = new Set<Socket>();
  let dark = false;
  const server: Server = createServer((client) => {
    client.on('error', () => {});
    if (dark) {
      // Accepted, read and never answered.
      held.add(client);
      client.on('data', () => {});
      client.once('close', () => held.delete(client));
      return;
    }
    const upstream = connect(Number(target.port || 5432), target.hostname);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const forward = (from: Socket, to: Socket) =>
      from.on('data', (chunk) => {
        // While dark the bytes are dropped, as a dead path drops packets.
        if (!dark) to.write(chunk);
      });
    forward(client, upstream);
    forward(upstream, client);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.once('close', end);
    upstream.once('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    blackhole() {
      dark = true;
    },
    heal() {
      dark = false;
      // Connections accepted while dark never reached the database: the peer resets them now.
      for (const socket of held) socket.destroy();
      held.clear();
    },
    async close() {
      for (const [a, b] of pairs) {
        a.destroy();
        b.destroy();
      }
      for (const socket of held) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
