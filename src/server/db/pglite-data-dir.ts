/**
 * The embedded database's data folder, before anything opens it: the lock that
 * keeps a second server out, and the first start's initdb in a short-lived
 * process. Node built-ins only, so main.ts can create the folder before the
 * server's modules load and the two peaks do not add up
 * (docs/decisions/054-embedded-database-memory.md).
 */
import { spawn } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

export const pgliteProcessScript = new URL('./pglite-process.ts', import.meta.url);

/**
 * The database process's own V8 flags (docs/decisions/054-embedded-database-memory.md):
 * WebAssembly compiled by the baseline compiler only (optimising PostgreSQL's
 * large functions peaked at ~500 MB and kept ~60 MB of code), and small young
 * generation semi-spaces (its JavaScript is framing only). Not the parent's
 * flags (a preloaded module, --watch). Two malloc arenas: it has two threads of note.
 * `--expose-gc`: it collects its garbage once quiet (idle-collection.ts).
 */
export const pgliteProcessFlags = ['--liftoff-only', '--max-semi-space-size=1', '--expose-gc'];
export const pgliteProcessEnv = () => ({ ...process.env, MALLOC_ARENA_MAX: '2' });

export async function initPglite(dataDir: string, lock: DataDirLock | undefined): Promise<void> {
  const child = spawn(process.execPath, [...pgliteProcessFlags, fileURLToPath(pgliteProcessScript), JSON.stringify({ dataDir, socketPath: '', lockPath: null, image: null }), '--init'], {
    env: pgliteProcessEnv(),
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  if (child.pid) lock?.addHolder(child.pid);
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.on('message', (message: { type: string; message?: string }) => {
    if (message.type === 'failed') output += message.message ?? '';
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`The embedded database could not be created in ${dataDir} (exit code ${code}).\n${output}`);
}

export class DataDirLockedError extends Error {}

export interface DataDirLock {
  path: string;
  /** Adds a process (the database's) to the pids the lock names. */
  addHolder(pid: number): void;
  release(): void;
}

/** How long a new server waits for a dead server's database process to finish closing. */
const orphanCloseWaitMs = 15_000;

export async function acquireDataDirLock(dataDir: string): Promise<DataDirLock> {
  const lockPath = path.join(dataDir, 'server.lock');
  const deadline = Date.now() + orphanCloseWaitMs;
  for (let attempt = 0; ; attempt++) {
    try {
      // Written whole under a temporary name, then linked into place (fails if it exists):
      // a full disk or a kill never leaves a lock file without its pid.
      const temporary = `${lockPath}.${process.pid}.tmp`;
      writeFileSync(temporary, String(process.pid), { flush: true });
      try {
        linkSync(temporary, lockPath);
      } finally {
        rmSync(temporary, { force: true });
      }
      return {
        path: lockPath,
        addHolder(pid) {
          // Replaced whole (rename), never seen half-written.
          writeFileSync(temporary, `${process.pid} ${pid}`, { flush: true });
          renameSync(temporary, lockPath);
        },
        release: () => rmSync(lockPath, { force: true }),
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // "server pid" or "server pid database pid".
      const [holder, databaseHolder] = readFileSync(lockPath, 'utf8').split(' ').map((pid) => Number.parseInt(pid, 10));
      const live = (pid: number | undefined) => pid !== undefined && Number.isInteger(pid) && pid !== process.pid && isAlive(pid);
      if (live(holder)) {
        throw new DataDirLockedError(
          `The embedded database in ${path.resolve(dataDir)} is already in use by process ${holder}. ` +
            'Stop that server first, or give this one its own DATA_DIR (or a DATABASE_URL).',
        );
      }
      if (live(databaseHolder)) {
        // A server that was killed: its database process is closing the folder
        // (pglite-process.ts) and removes the lock when done.
        if (Date.now() > deadline) {
          throw new DataDirLockedError(`The embedded database in ${path.resolve(dataDir)} is still being closed by process ${databaseHolder}.`);
        }
        await sleep(100);
        continue;
      }
      if (attempt > 2) throw new DataDirLockedError(`Could not lock ${lockPath}.`);
      // The previous holder died without cleaning up: the lock is stale.
      rmSync(lockPath, { force: true });
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A process that has exited but was not reaped yet (a zombie: an orphaned
  // database process whose new parent does not reap) holds nothing.
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}


/**
 * A first start: creates the database in `dataDir` (initdb, in a process of
 * its own), under the lock; nothing when it exists already.
 */
export async function createPgliteDataDir(dataDir: string): Promise<void> {
  if (existsSync(path.join(dataDir, 'PG_VERSION'))) return;
  mkdirSync(dataDir, { recursive: true });
  const lock = await acquireDataDirLock(dataDir);
  try {
    if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await initPglite(dataDir, lock);
  } finally {
    lock.release();
  }
}
