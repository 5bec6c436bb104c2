/**
 * The built server as the bench runs it: its own process group (ended on every
 * path, scripts/bench/processes.ts), with scripts/bench/record-sql.ts preloaded.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '../../tests/helpers/server.ts';
import { rss, sampleRss } from './load.ts';
import { spawnTracked, stopTracked } from './processes.ts';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * How long a start may take before the bench gives up (and ends the server):
 * a first start on PGlite (initdb, migrations) took ~6 s on an idle 2-core
 * machine and several times that while other builds and test suites ran on it.
 */
export const defaultStartDeadlineMs = 180_000;

/** The server as production runs it, with limits that would refuse a benchmark lifted (see the report). */
export const serverEnv = {
  LOG_LEVEL: 'warn',
  TRUST_PROXY: '1',
  BOOKING_SLOT_CAPACITY: '1000000',
};

export interface BenchServer {
  url: string;
  pid: number;
  /** Milliseconds from spawn to the first 200 from /healthz. */
  startMs: number;
  /** Highest RSS during start-up (VmHWM at healthy). */
  startPeakBytes: number | null;
  /** Highest memory during start-up with each page counted once (when asked for: `residentPeak`). */
  startPeakOnceBytes: number | null;
  sqlRecordFile: string;
  stop(): Promise<void>;
}

/**
 * The V8 flags `npm run serve` starts the server with (decision 054: the young
 * generation's size), so the bench measures the process users run.
 */
function serveNodeFlags(): string[] {
  const scripts = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  return (scripts.serve ?? '').split(/\s+/).filter((word) => word.startsWith('--') && !word.startsWith('--env-file'));
}

export interface StartOptions {
  /** Also sample the start's peak with each page counted once (a sampler process of its own). */
  residentPeak?: boolean;
  deadlineMs?: number;
  /** The server's entry (tests start a stand-in that never becomes healthy). */
  entry?: string;
}

/**
 * Turns Node's compile cache on before the TypeScript preload below, as
 * src/server/start.mjs does for the server: otherwise the preload alone would
 * load the TypeScript stripper that the server's start no longer needs.
 */
const compileCacheFirst = 'data:text/javascript,import{enableCompileCache}from"node:module";enableCompileCache()';

/**
 * Starts the built server and waits for /healthz. A server that exits or misses
 * the deadline is ended (its whole process group) before this throws.
 */
export async function startBenchServer(env: Record<string, string>, dataDir: string, options: StartOptions = {}): Promise<BenchServer> {
  const port = await freePort();
  const sqlRecordFile = path.join(dataDir, 'sql-record.jsonl');
  writeFileSync(sqlRecordFile, '');
  let output = '';
  const started = performance.now();
  const child: ChildProcess = spawnTracked(
    process.execPath,
    [...serveNodeFlags(), '--import', compileCacheFirst, '--import', path.join(root, 'scripts/bench/record-sql.ts'), options.entry ?? 'src/server/start.mjs'],
    {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SESSION_COOKIE_SECURE: 'false', BENCH_SQL_RECORD: sqlRecordFile, ...serverEnv, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  // Start-up's peak over the server and its children: a first start's initdb
  // runs in a process that has exited by healthy (decision 054).
  const startSampler = sampleRss(child.pid!);
  const onceSampler = options.residentPeak ? startResidentSampler(child.pid!) : undefined;
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  const deadlineMs = options.deadlineMs ?? defaultStartDeadlineMs;
  const deadline = Date.now() + deadlineMs;
  try {
    while (true) {
      if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output}`);
      try {
        if ((await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5_000) })).ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`server not healthy within ${deadlineMs / 1000} s (ended):\n${output}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  } catch (error) {
    startSampler.stop();
    await onceSampler?.stop();
    await stopTracked(child, 2_000);
    throw error;
  }
  const startMs = performance.now() - started;
  return {
    url,
    pid: child.pid!,
    startMs,
    startPeakBytes: Math.max(startSampler.stop() ?? 0, rss(child.pid!, 'VmHWM') ?? 0) || null,
    startPeakOnceBytes: (await onceSampler?.stop()) ?? null,
    sqlRecordFile,
    stop: () => stopTracked(child),
  };
}

/** scripts/bench/resident-sampler.ts on `pid`'s tree; stop() resolves its highest figure. */
function startResidentSampler(pid: number): { stop(): Promise<number | null> } {
  const sampler = spawnTracked(process.execPath, [path.join(import.meta.dirname, 'resident-sampler.ts'), String(pid)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  sampler.stdout!.on('data', (chunk) => (out += chunk));
  const read = new Promise((resolve) => sampler.stdout!.once('close', resolve));
  return {
    async stop() {
      await stopTracked(sampler);
      await read;
      return JSON.parse(out.trim() || 'null') as number | null;
    },
  };
}
