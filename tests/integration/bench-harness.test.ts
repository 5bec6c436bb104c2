import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { repeat, replayMovesEveryHold, startFloorServer } from '../../scripts/bench/load.ts';
import { installSqlRecorder } from '../../scripts/bench/record-sql.ts';
import { spawnTracked, stopTracked, trackedCount } from '../../scripts/bench/processes.ts';
import { startBenchServer } from '../../scripts/bench/server.ts';
import { runSignallingBench, signallingRatio } from '../../scripts/bench/signalling.ts';
import { until } from '../helpers/async.ts';

/** The bench's own machinery (issue 31): what it records, and that nothing it starts outlives it. */

/** Gone, or a zombie nobody reaped yet (it runs nothing). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe('bench harness', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-harness-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("records only the statements of requests made while recording, not background work's", async () => {
    const file = path.join(dir, 'record.jsonl');
    // No database: the recorder wraps whatever query() is there when installed.
    const sent: string[] = [];
    const realQuery = pg.Client.prototype.query;
    pg.Client.prototype.query = function (text: string) {
      sent.push(text);
      return Promise.resolve({ rows: [] });
    } as never;
    let server: Server | undefined;
    let poll: NodeJS.Timeout | undefined;
    try {
      const recorder = installSqlRecorder(file);
      const client = new pg.Client();
      // A request before recording whose work goes on afterwards (a timer it set).
      let late: () => void = () => {};
      server = createServer((req, res) => {
        if (req.url === '/early') {
          late = () => void client.query('select early_continuation');
          res.end('ok');
        } else if (req.method === 'POST') {
          // A handler that runs once the body has arrived (the body's events come from the socket).
          req.resume();
          req.on('end', () => {
            void client.query('select hold');
            res.end('ok');
          });
        } else {
          void client.query('select $1::text as slot', ['2027-03-12']);
          res.end('ok');
        }
      });
      await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      await (await fetch(`${url}/early`)).text();
      // Background work with no request (the outbox worker's poll).
      poll = setInterval(() => void client.query('select outbox_poll'), 1);

      recorder.toggle();
      await (await fetch(`${url}/slots`)).text();
      await (await fetch(`${url}/hold`, { method: 'POST', body: 'x'.repeat(100_000) })).text();
      await until(() => sent.filter((t) => t === 'select outbox_poll').length >= 3);
      late();
      recorder.toggle();

      const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines.map((l) => l.text ?? `marker ${l.marker}`)).toEqual(['marker 1', 'select $1::text as slot', 'select hold', 'marker 2']);
      expect(lines[1]).toMatchObject({ values: ['2027-03-12'] });
    } finally {
      clearInterval(poll);
      server?.close();
      pg.Client.prototype.query = realQuery;
    }
  });

  it('leaves requests untouched while it is not recording (the measured load pays nothing for it)', async () => {
    const recorder = installSqlRecorder(path.join(dir, 'idle.jsonl'));
    const wrapped: boolean[] = [];
    const server = createServer((req, res) => {
      // Recording gives each request a context and wraps its events; off, neither.
      wrapped.push(Object.hasOwn(req, 'emit'));
      res.end('ok');
    });
    try {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      await (await fetch(url)).text();
      recorder.toggle();
      await (await fetch(url)).text();
      recorder.toggle();
      await (await fetch(url)).text();
      expect(wrapped).toEqual([false, true, false]);
    } finally {
      server.close();
    }
  });

  it("settles the database before every measurement, the app's and each floor's (decision 137)", async () => {
    const calls: string[] = [];
    const measure = (name: string) => async () => {
      calls.push(name);
      return { rps: 1, p50: 1, p99: 1, errors: 0 };
    };
    const settle = async () => {
      calls.push('settle');
    };
    const result = await repeat({ runs: 2, settle }, measure('app'), measure('sql'), null);
    expect(calls).toEqual(['settle', 'app', 'settle', 'sql', 'settle', 'app', 'settle', 'sql']);
    expect(result.floors.map((f) => f.length)).toEqual([2, 0]);
  });

  it('gives the hold floor statements that, replayed round and round, each move a hold as the app does (decision 137)', () => {
    const bookings = Array.from({ length: 200 }, (_, i) => `booking-${i}`);
    const slots = Array.from({ length: 210 }, (_, i) => new Date(Date.UTC(2026, 0, 5) + i * 1_800_000));
    // The bench's order: the n-th hold moves booking n mod 200 to slot 7n mod the slots.
    const holds = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => ({ bookingId: bookings[(from + i) % 200]!, startsAt: slots[((from + i) * 7) % slots.length]! }));
    // One hold per booking (or fewer): replayed again, each puts its booking back where it already is.
    expect(replayMovesEveryHold(holds(201, 20))).toBe(false);
    expect(replayMovesEveryHold(holds(201, 200))).toBe(false);
    // Two rounds: each booking alternates between two slots.
    expect(replayMovesEveryHold(holds(201, 400))).toBe(true);
    // Unless the second round holds each booking in the slot of the first (were there 200 slots, say).
    expect(replayMovesEveryHold([...holds(201, 200), ...holds(201, 200)])).toBe(false);
  });

  it.runIf(process.env.TEST_DATABASE_URL)('HTTP+SQL floor: runs one recorded request\'s statements per request, in turn, and answers the app\'s bytes (decision 137)', async () => {
    const url = process.env.TEST_DATABASE_URL!;
    const table = `bench_floor_probe_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create table ${table} (n int not null)`);
    const insert = (n: number) => ({ text: `insert into ${table} (n) values ($1)`, values: [n] });
    const floor = await startFloorServer('http-sql', {
      url,
      poolSize: 2,
      requests: [[{ text: 'begin', values: [] }, insert(1), insert(2), { text: 'commit', values: [] }], [insert(3)], [{ text: 'select * from no_such_table', values: [] }]],
      answer: { status: 201, headers: { 'x-answer': 'app' }, bodyBase64: Buffer.from('held').toString('base64') },
    });
    try {
      const answers = [];
      for (let i = 0; i < 4; i++) {
        const res = await fetch(floor.url, { method: 'POST', body: '{}' });
        answers.push([res.status, res.headers.get('x-answer'), await res.text()]);
      }
      // The third request's statement fails: a 500, which the bench counts as an error and refuses.
      expect(answers).toEqual([[201, 'app', 'held'], [201, 'app', 'held'], [500, null, ''], [201, 'app', 'held']]);
      expect((await admin.query(`select n from ${table} order by n`)).rows.map((r: { n: number }) => r.n)).toEqual([1, 1, 2, 2, 3]);
    } finally {
      await floor.stop();
      await admin.query(`drop table ${table}`);
      await admin.end();
    }
  });

  it('ends a server that misses its start-up deadline, with the processes it started', async () => {
    const dataDir = mkdtempSync(path.join(dir, 'server-'));
    await expect(
      startBenchServer({}, dataDir, { deadlineMs: 1_500, entry: 'tests/fixtures/bench/never-healthy.ts' }),
    ).rejects.toThrow(/not healthy within 1.5 s \(ended\)/);
    const pids = readFileSync(path.join(dataDir, 'pids'), 'utf8').split(' ').map(Number);
    expect(pids).toHaveLength(2);
    await until(() => pids.every((pid) => !alive(pid)));
    expect(trackedCount()).toBe(0);
  });

  it('stops a process group, and a bench that fails leaves nothing running', async () => {
    const child = spawnTracked(process.execPath, ['-e', "require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }); console.log('up'); setInterval(() => {}, 1000)"], { stdio: ['ignore', 'pipe', 'ignore'] });
    await new Promise((resolve) => child.stdout!.once('data', resolve));
    await stopTracked(child);
    expect(alive(child.pid!)).toBe(false);
    expect(trackedCount()).toBe(0);

    const failed = await promisify(execFile)(process.execPath, ['tests/fixtures/bench/throws-after-spawn.ts']).catch((error: { stdout: string; code: number }) => error);
    expect('code' in failed && failed.code).toBe(1);
    const pid = Number(failed.stdout.trim());
    expect(pid).toBeGreaterThan(0);
    await until(() => !alive(pid));
  });

  it('signalling: both servers measured, every acknowledged signal delivered, each server ended', async () => {
    const result = await runSignallingBench({ db: 'pglite', signals: 200, runs: 1, log: () => {} });
    expect(result.signals).toBe(200);
    const [run] = result.runs;
    expect(run!.bare).toBeGreaterThan(0);
    expect(run!.product).toBeGreaterThan(0);
    expect(signallingRatio(result).median).toBe(run!.product / run!.bare);
    expect(trackedCount()).toBe(0);
  }, 60_000);
});
