import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { createTestDatabase, dbKinds } from '../../../tests/helpers/db.ts';
import { DataDirLockedError, openPglite, queryRows } from './client.ts';
import { createPgliteDataDir } from './pglite-data-dir.ts';

/** Running (an exited process nobody has reaped yet counts as gone). */
function isAlive(pid: number) {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe.each(dbKinds)('database on %s', (kind) => {
  it('applies every migration and answers queries', async () => {
    const database = await createTestDatabase(kind);
    try {
      const [row] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from bookings`);
      expect(row!.n).toBe(0);
    } finally {
      await database.close();
    }
  });
});

describe('embedded data folder', () => {
  it('is created (initdb) in a process of its own before anything opens it, under the lock', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pglite-create-'));
    try {
      const { writeFileSync } = await import('node:fs');
      // A live process (our parent) holds the folder: nothing is created.
      writeFileSync(path.join(dir, 'server.lock'), String(process.ppid));
      await expect(createPgliteDataDir(dir)).rejects.toBeInstanceOf(DataDirLockedError);
      expect(existsSync(path.join(dir, 'PG_VERSION'))).toBe(false);
      rmSync(path.join(dir, 'server.lock'));
      await createPgliteDataDir(dir);
      expect(existsSync(path.join(dir, 'PG_VERSION'))).toBe(true);
      expect(existsSync(path.join(dir, 'server.lock'))).toBe(false);
      // Then it opens without initdb, and migrates.
      const database = await openPglite(dir);
      const [row] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from bookings`);
      expect(row!.n).toBe(0);
      await database.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('refuses a second opener while the first holds the folder, and frees it on close', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pglite-lock-'));
    try {
      const first = await openPglite(dir);
      // Simulate another live process holding the lock (our own parent's pid).
      const { writeFileSync } = await import('node:fs');
      writeFileSync(path.join(dir, 'server.lock'), String(process.ppid));
      await expect(openPglite(dir)).rejects.toBeInstanceOf(DataDirLockedError);
      await first.close();
      writeFileSync(path.join(dir, 'server.lock'), '999999999');
      const again = await openPglite(dir); // stale lock of a dead process is taken over
      await again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Resident memory of a process, in MB. */
function residentMb(pid: number) {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}

describe('embedded database process', () => {
  it('collects its garbage once quiet, so a burst of messages grows it less (idle-collection.ts)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pglite-idle-'));
    const database = await openPglite(dir);
    try {
      const pid = database.databaseProcess!.pid!;
      // Quiet after the migrations (over the process's 2 s): it collects what they left.
      // Seen as its resident memory falling; a loaded machine runs the timer and the
      // collection late, so this waits for the fall (up to 15 s) rather than a fixed time.
      let highest = residentMb(pid);
      for (const started = Date.now(); Date.now() - started < 15_000; ) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        const now = residentMb(pid);
        highest = Math.max(highest, now);
        if (Date.now() - started > 2_000 && now < highest - 5) break;
      }
      // The collection's own pages are given back over a few more moments.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const before = residentMb(pid);
      // 8,000 small queries from 10 connections. Measured growth: 20–30 MB with the
      // collection, 48–50 MB without (the migrations' garbage is still there and the
      // burst's own lands on new pages).
      let n = 0;
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          while (n++ < 8000) await queryRows(database.db, sql`select ${n}::int as n, now() as t`);
        }),
      );
      expect(residentMb(pid) - before).toBeLessThan(40);
    } finally {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps the event loop turning while a long query runs, and serves other work in arrival order', async () => {
    const database = await openPglite(null);
    try {
      // A query that keeps the database busy for a while (its length is not asserted).
      const heavy = queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from generate_series(1, 2000000)`);
      const queued = queryRows<{ n: number }>(database.db, sql`select 1 as n`);
      const order: string[] = [];
      void heavy.then(() => order.push('heavy'));
      void queued.then(() => order.push('queued'));
      // Turns of the event loop counted while the query runs: on the event loop's
      // own thread the query would leave no turn until it finished.
      let turns = 0;
      let done = false;
      void heavy.finally(() => (done = true));
      while (!done) {
        await new Promise((resolve) => setImmediate(resolve));
        turns++;
      }
      expect((await heavy)[0]!.n).toBe(2_000_000);
      expect(turns).toBeGreaterThan(100);
      await queued;
      expect(order).toEqual(['heavy', 'queued']);
    } finally {
      await database.close();
    }
  });

  it('vacuums and analyses its tables when quiet, never inside a transaction, and answers what arrives meanwhile (decision 138)', async () => {
    const database = await openPglite(null, { maintenance: { everyMs: 0, quietMs: 100 } });
    const lastVacuum = async () => (await queryRows<{ at: Date | null }>(database.db, sql`select last_vacuum as at from pg_stat_user_tables where relname = 'moves'`))[0]?.at ?? null;
    try {
      await database.db.execute(sql`create table moves (id int primary key, slot int not null)`);
      await database.db.execute(sql`insert into moves select g, 0 from generate_series(1, 500) g`);
      // An open transaction keeps the session: no vacuum however long it stays quiet.
      await database.db.transaction(async (tx) => {
        await tx.execute(sql`update moves set slot = slot + 1`);
        await new Promise((resolve) => setTimeout(resolve, 600));
        expect((await queryRows<{ at: Date | null }>(tx, sql`select last_vacuum as at from pg_stat_user_tables where relname = 'moves'`))[0]!.at).toBeNull();
      });
      // Asked every 300 ms: the session must stay quiet for 100 ms before a pass starts.
      for (const deadline = Date.now() + 10_000; (await lastVacuum()) === null; ) {
        if (Date.now() > deadline) throw new Error('never vacuumed');
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      // Its statistics are the table's now (an ANALYZE ran with the vacuum).
      const [stats] = await queryRows<{ live: number; analysed: Date | null }>(database.db, sql`select n_live_tup::int as live, last_analyze as analysed from pg_stat_user_tables where relname = 'moves'`);
      expect(stats!.analysed).not.toBeNull();
      expect(stats!.live).toBe(500);
      // Passes go on while queries keep coming: every one is answered.
      const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => queryRows<{ n: number }>(database.db, sql`select count(*)::int + ${i} as n from moves`)));
      expect(answers.map((rows) => rows[0]!.n)).toEqual(Array.from({ length: 200 }, (_, i) => 500 + i));
    } finally {
      await database.close();
    }
  });

  it('runs concurrent transactions one after another, each whole', async () => {
    const database = await openPglite(null);
    try {
      await database.db.execute(sql`create table counter (n int not null)`);
      await database.db.execute(sql`insert into counter values (0)`);
      // Each reads, yields to the event loop, then writes: interleaved, increments would be lost.
      await Promise.all(
        Array.from({ length: 10 }, () =>
          database.db.transaction(async (tx) => {
            const [row] = await queryRows<{ n: number }>(tx, sql`select n from counter`);
            await new Promise((resolve) => setImmediate(resolve));
            await tx.execute(sql`update counter set n = ${row!.n + 1}`);
          }),
        ),
      );
      const [row] = await queryRows<{ n: number }>(database.db, sql`select n from counter`);
      expect(row!.n).toBe(10);
    } finally {
      await database.close();
    }
  });

  it('fails queries at once and tells its owner when the process dies, instead of hanging', async () => {
    let fatal: Error | undefined;
    const database = await openPglite(null, { onFatal: (error) => (fatal = error) });
    try {
      const exited = new Promise((resolve) => database.databaseProcess!.once('exit', resolve));
      database.databaseProcess!.kill('SIGKILL');
      await exited;
      await expect(queryRows(database.db, sql`select 1`)).rejects.toThrow();
      expect(fatal?.message).toMatch(/embedded database process stopped/);
    } finally {
      await database.close();
    }
  });

  it('dies with a server killed by SIGKILL, leaving no socket folder or lock, and the data survives', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pglite-orphan-'));
    try {
      // A server stand-in: opens the folder, writes a row, reports, then waits to be killed.
      const script = `
        import { sql } from 'drizzle-orm';
        import { openPglite } from ${JSON.stringify(new URL('./client.ts', import.meta.url).pathname)};
        const database = await openPglite(${JSON.stringify(dir)});
        await database.db.execute(sql\`create table kept (n int)\`);
        await database.db.execute(sql\`insert into kept values (42)\`);
        const { socketPath } = JSON.parse(database.databaseProcess.spawnargs.at(-1));
        process.stdout.write(JSON.stringify({ pid: database.databaseProcess.pid, socketPath }) + '\\n');
        setInterval(() => {}, 1000);
      `;
      const server = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] });
      const line = await new Promise<string>((resolve, reject) => {
        let output = '';
        server.stdout!.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('\n')) resolve(output.split('\n')[0]!);
        });
        server.once('exit', (code) => reject(new Error(`the stand-in exited (${code})`)));
      });
      const { pid, socketPath } = JSON.parse(line) as { pid: number; socketPath: string };
      expect(isAlive(pid)).toBe(true);
      expect(existsSync(socketPath)).toBe(true);
      const killed = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGKILL');
      await killed;
      // Opening at once waits for the orphaned database process to close the folder.
      const again = await openPglite(dir);
      try {
        // It removed the lock last, then exits.
        await vi.waitFor(() => expect(isAlive(pid)).toBe(false));
        expect(existsSync(path.dirname(socketPath))).toBe(false);
        const [row] = await queryRows<{ n: number }>(again.db, sql`select n from kept`);
        expect(row!.n).toBe(42);
      } finally {
        await again.close();
      }
      expect(existsSync(path.join(dir, 'server.lock'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
