import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { copyMigratedDataDir } from './db.ts';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  process: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

/** A production server process's environment on 127.0.0.1:`port` with `dataDir`; `env` wins. */
export function serverEnv(port: number, dataDir: string, env: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    SESSION_COOKIE_SECURE: 'false',
    ...env,
  };
}

/**
 * Starts the built production server (`npm run build` first) as its own
 * process, on a free port with a fresh DATA_DIR, and waits for /healthz.
 * `stop()` removes the data folder it made, or the caller's with `removeDataDir`
 * (a temporary folder the caller seeded).
 */
export async function startServer(env: Record<string, string> = {}, { removeDataDir = !env.DATA_DIR }: { removeDataDir?: boolean } = {}): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = env.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'notary-e2e-'));
  // A fresh embedded database starts as a copy of a migrated one (the first start's initdb and migrations are tested elsewhere).
  if (!env.DATABASE_URL && !existsSync(path.join(dataDir, 'pglite'))) await copyMigratedDataDir(path.join(dataDir, 'pglite'));
  let output = '';
  const child = spawn(process.execPath, ['src/server/start.mjs'], {
    cwd: process.cwd(),
    env: serverEnv(port, dataDir, env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  // A loaded 2-core machine (several suites at once) can take most of a minute to migrate and listen.
  const deadline = Date.now() + 240_000;
  while (true) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      // Not left running behind the failed test.
      child.kill('SIGKILL');
      throw new Error(`server did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    port,
    dataDir,
    process: child,
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      if (removeDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
