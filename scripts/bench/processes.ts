import { chmodSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import path from 'node:path';
/**
 * Every process the bench starts, ended on every path (issue 31: a server that
 * missed its start-up deadline was found alive 40 minutes later).
 *
 * Each child is the leader of its own process group (`detached`), so ending it
 * ends what it started too (the server's embedded database process, a floor's
 * workers). `stop` sends SIGTERM to the group, waits, then SIGKILLs it; a
 * bench that ends in any way — done, thrown, Ctrl-C, SIGTERM — SIGKILLs every
 * group still running (`exit` handlers run synchronously: a signal is all
 * that can be sent from there, and all that is needed).
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

/** Leaders of the process groups still running. */
const running = new Set<number>();

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is gone already
  }
}

let installed = false;
function installExitHandlers(): void {
  if (installed) return;
  installed = true;
  process.on('exit', () => {
    for (const pid of running) killGroup(pid, 'SIGKILL');
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      process.stderr.write(`[bench] ${signal}: ending ${running.size} process group(s)\n`);
      process.exit(130);
    });
  }
}

/** A child in a process group of its own, ended with the bench whatever happens. */
export function spawnTracked(command: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  installExitHandlers();
  const child = spawn(command, args, { ...options, detached: true });
  const pid = child.pid;
  if (pid !== undefined) {
    running.add(pid);
    // Not unref'd: the bench waits for what it started. Forgotten once it exits.
    child.once('exit', () => running.delete(pid));
  }
  return child;
}

/**
 * A process group another library started (chrome-launcher's Chromium leads its
 * own): killed with the bench's other groups if the bench ends first. Returns
 * the function that forgets it once the library has ended it.
 */
export function adoptGroup(pid: number): () => void {
  installExitHandlers();
  running.add(pid);
  return () => running.delete(pid);
}

/** SIGTERM to the child's group; SIGKILL after `graceMs` if it has not exited. Resolves once it has. */
export async function stopTracked(child: ChildProcess, graceMs = 15_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  killGroup(child.pid, 'SIGTERM');
  const timer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
  // What the leader left behind in its group (an orphaned worker) goes too.
  killGroup(child.pid, 'SIGKILL');
}

/** How many started processes have not exited (for the bench's own tests). */
export function trackedCount(): number {
  return running.size;
}

/**
 * The first line the child writes to stdout (a floor's URL, the SQL floor's
 * figures). A child that exits first, or stays silent past `timeoutMs`, is
 * ended and the promise rejects.
 */
export function firstLine(child: ChildProcess, what: string, timeoutMs: number): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      void stopTracked(child, 2_000);
      reject(new Error(`${what}: no answer within ${timeoutMs / 1000} s (ended)`));
    }, timeoutMs);
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const end = out.indexOf('\n');
      if (end >= 0) {
        clearTimeout(timer);
        resolve(out.slice(0, end));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code}) before answering`));
    });
  });
}

/** CPU seconds of a process and all its descendants (Linux /proc). */
export function treeCpuSeconds(root: number): number {
  const tick = 100; // USER_HZ
  const stats = new Map<number, { ppid: number; cpu: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      stats.set(Number(entry), { ppid: Number(fields[1]), cpu: (Number(fields[11]) + Number(fields[12])) / tick });
    } catch {
      // Gone meanwhile.
    }
  }
  let total = 0;
  const queue = [root];
  while (queue.length) {
    const pid = queue.pop()!;
    total += stats.get(pid)?.cpu ?? 0;
    for (const [child, s] of stats) if (s.ppid === pid) queue.push(child);
  }
  return total;
}

/**
 * A Chromium started through `nice -n 19`: every process it forks inherits the
 * lowest priority, so the browser a bench measures gets the machine first (the
 * others behave as if they ran elsewhere).
 */
export function niceChromium(executablePath: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'notary-nice-'));
  const file = path.join(dir, 'chromium');
  writeFileSync(file, `#!/bin/sh\nexec nice -n 19 ${executablePath} "$@"\n`);
  chmodSync(file, 0o755);
  return file;
}

/** Every thread of a running process to the lowest priority (on Linux, niceness is per thread). */
export function niceProcess(pid: number): void {
  for (const task of readdirSync(`/proc/${pid}/task`)) setPriority(Number(task), 19);
}
