/**
 * The framework floor of the database endpoints (docs/decisions/053-trpc-fast-lane.md):
 * how fast the server's HTTP stack alone answers `slots.list`'s request with
 * the same payload (30 slots, Dates through the shared transformer), no
 * database, no middleware of ours — each server its own process, autocannon
 * in this one, 10 connections, the bench's request. Prints req/s and the
 * server's CPU per request (/proc/<pid>/stat), the steadier figure on a
 * shared machine:
 *
 *   node scripts/bench/framework-floor.ts [--duration 5] [--runs 2]
 *
 *   node    a bare node:http server writing the answer's bytes
 *   express Express 5, one route writing them
 *   trpc    Express 5 + tRPC's Express adapter + the procedure (the app's path before the fast lane)
 *   lane    Express 5 + the fast lane (src/server/http/trpc-fast-lane.ts) + the procedure
 *
 * Not part of `npm run bench`; its figures are quoted in docs/benchmarks.md.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { initTRPC } from '@trpc/server';
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import autocannon from 'autocannon';
import express from 'express';
import { z } from 'zod';
import { serialize, transformer } from '../../src/shared/trpc-transformer.ts';
import { trpcFastLane } from '../../src/server/http/trpc-fast-lane.ts';
import { firstLine, spawnTracked, stopTracked } from './processes.ts';

const modes = ['node', 'express', 'trpc', 'lane'] as const;
type Mode = (typeof modes)[number];

const date = '2027-03-12';
const payload = () => ({
  date,
  timeZone: 'America/Chicago',
  slots: Array.from({ length: 30 }, (_, i) => ({ startsAt: new Date(Date.UTC(2027, 2, 12, 14) + i * 1_800_000), remaining: 1_000_000, available: true })),
});
const path = `/trpc/slots.list?input=${encodeURIComponent(JSON.stringify(serialize({ date, timeZone: 'America/Chicago' })))}`;

function serve(mode: Mode) {
  const t = initTRPC.create({ transformer });
  const router = t.router({
    slots: t.router({ list: t.procedure.input(z.object({ date: z.string(), timeZone: z.string() })).query(() => payload()) }),
  });
  const bytes = JSON.stringify(serialize(payload()));
  const body = `{"result":{"data":${bytes}}}`;
  let server;
  if (mode === 'node') {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  } else {
    const app = express();
    if (mode === 'express') app.get('/trpc/slots.list', (_req, res) => void res.type('application/json').send(body));
    if (mode === 'lane') app.use('/trpc', trpcFastLane({ router, procedures: { 'slots.list': 'query' }, createContext: () => ({}), maxBodySize: 100_000 }));
    if (mode === 'trpc' || mode === 'lane') app.use('/trpc', createExpressMiddleware({ router }));
    server = createServer(app);
  }
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as { port: number }).port}\n`));
  // exit() rather than the default: a --cpu-prof run writes its profile.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => process.exit(0));
}

/** A process's CPU time so far (user + system, /proc/<pid>/stat), in milliseconds. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** Requests per second, and the server's CPU milliseconds per request (on a shared machine the steadier figure). */
async function measure(mode: Mode, duration: number): Promise<{ rps: number; cpuMsPerRequest: number }> {
  const child = spawnTracked(process.execPath, [import.meta.filename, '--serve', mode], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = (await firstLine(child, mode, 60_000)).trim();
    const cpuBefore = cpuMs(child.pid!);
    const result = await autocannon({ url: `http://127.0.0.1:${port}`, connections: 10, duration, requests: [{ method: 'GET', path }] });
    if (result.non2xx || result.errors) throw new Error(`${mode}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    return { rps: result.requests.average, cpuMsPerRequest: (cpuMs(child.pid!) - cpuBefore) / result.requests.total };
  } finally {
    await stopTracked(child);
  }
}

const { values } = parseArgs({ options: { serve: { type: 'string' }, duration: { type: 'string', default: '5' }, runs: { type: 'string', default: '2' } } });
if (values.serve) serve(values.serve as Mode);
else {
  for (const mode of modes) {
    const figures: Array<{ rps: number; cpuMsPerRequest: number }> = [];
    for (let run = 0; run < Number(values.runs); run++) figures.push(await measure(mode, Number(values.duration)));
    console.log(`${mode.padEnd(8)} ${figures.map((f) => Math.round(f.rps)).join(' / ')} req/s, ${figures.map((f) => f.cpuMsPerRequest.toFixed(3)).join(' / ')} ms of server CPU per request`);
  }
}
