import { readdirSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadInterruptedMessage } from '../../src/shared/booking.ts';
import { bookingClient } from '../integration/booking-helpers.ts';
import { createDatabase, explainSkip, faultsEnabled, removeDataDir, startNode, type Node, type TestDatabase } from './harness.ts';

/**
 * SIGTERM during a burst of keep-alive requests: every request sent before
 * the signal is answered (none reset), /readyz says 503 at once on an open
 * connection, a request sent 0.5 s and 1.5 s after the signal on a reused
 * keep-alive connection is answered with `Connection: close` (issue 24,
 * finding 10), and an upload still running at the deadline is refused with a
 * message and leaves no temporary file and no row behind.
 */
explainSkip('sigterm');

type Outcome = { sentAt: number; status?: number; error?: string };

/** A keep-alive connection used once before the signal, to send another request on later. */
async function reusedConnection(port: number) {
  const socket = connect(port, '127.0.0.1');
  let answer = '';
  let ended = '';
  socket.on('data', (chunk) => (answer += chunk));
  socket.on('error', (error: NodeJS.ErrnoException) => (ended ||= error.code ?? String(error)));
  socket.on('close', () => (ended ||= 'closed'));
  const get = () => socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  get();
  await expect.poll(() => answer, { timeout: 5_000 }).toContain('{"status":"ok"}');
  return {
    /** Sends the next request on the connection; resolves with its answer, or how the connection ended. */
    async again(): Promise<string> {
      const before = answer.length;
      if (ended) return `ended before the request: ${ended}`;
      get();
      await expect.poll(() => answer.slice(before).includes('{"status":"ok"}') || ended, { timeout: 10_000 }).toBeTruthy();
      return answer.slice(before) || `ended: ${ended}`;
    },
  };
}

/** One GET on a keep-alive agent; records when it was written and how it ended. */
function get(agent: Agent, url: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const outcome: Outcome = { sentAt: 0 };
    const req = request(url, { agent, headers: { 'x-forwarded-for': '198.51.100.7' } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ ...outcome, status: res.statusCode }));
      res.on('error', (error) => resolve({ ...outcome, error: String(error) }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ ...outcome, error: error.code ?? String(error) }));
    req.setTimeout(15_000, () => req.destroy(new Error('timeout')));
    outcome.sentAt = Date.now();
    req.end();
  });
}

describe.skipIf(!faultsEnabled)('faults: SIGTERM during a burst', () => {
  let database: TestDatabase;
  let node: Node;

  beforeAll(async () => {
    database = await createDatabase();
    // 4 s: the requests' deadline comes 1 s before it (the closing reserve, decision 075).
    node = await startNode({ DATABASE_URL: database.url, SHUTDOWN_TIMEOUT_SECONDS: '4' });
  });
  afterAll(async () => {
    await node?.kill9();
    await database?.drop();
    removeDataDir(node);
  });

  it('answers every request sent before the signal, drains, and refuses the upload left at the deadline cleanly', async () => {
    // An upload that will still be running at the deadline: its first bytes now, the rest never.
    const api = bookingClient(node.url);
    const { bookingId } = await api.booking.start.mutate({ timeZone: 'America/Chicago' });
    const pdf = readFileSync('tests/fixtures/sample.pdf');
    const { uploadUrl, documentId } = await api.documents.createUpload.mutate({ bookingId, fileName: 'slow deed.pdf', sizeBytes: 200_000, contentType: 'application/pdf' });
    const slow = connect(node.port, '127.0.0.1');
    let slowAnswer = '';
    slow.on('data', (chunk) => (slowAnswer += chunk));
    slow.on('error', () => {});
    const slowClosed = new Promise((resolve) => slow.once('close', resolve));
    slow.write(`PUT ${uploadUrl} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/pdf\r\nContent-Length: 200000\r\n\r\n`);
    slow.write(pdf.subarray(0, 1024));
    const incoming = path.join(node.dataDir, 'documents', '.incoming');
    await expect.poll(() => readdirSync(incoming).length, { timeout: 5_000 }).toBeGreaterThan(0);

    // An idle keep-alive connection, to ask /readyz on after the signal.
    const probe = connect(node.port, '127.0.0.1');
    let probeAnswer = '';
    probe.on('data', (chunk) => (probeAnswer += chunk));
    await new Promise((resolve) => probe.once('connect', resolve));

    // Keep-alive connections, used once now and again after the signal (issue 24, finding 10).
    const reusedAt500 = await reusedConnection(node.port);
    const reusedAt1500 = await reusedConnection(node.port);

    // The burst: 16 keep-alive sockets, each sending its next request as soon as the last is answered.
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    const outcomes: Outcome[] = [];
    let signalledAt = 0;
    const paths = ['/healthz', '/readyz', '/', '/blog'];
    // Each page rendered once first: a cold render holds the event loop for a second on a
    // loaded machine, and the burst is about the drain, not the first render.
    for (const p of paths) await (await fetch(`${node.url}${p}`)).text();
    const worker = async (i: number) => {
      for (let n = 0; signalledAt === 0 || Date.now() - signalledAt < 1_500; n++) {
        const outcome = await get(agent, `${node.url}${paths[(i + n) % paths.length]}`);
        outcomes.push(outcome);
        if (outcome.error && signalledAt) break; // refused after the signal: a new connection, as expected
      }
    };
    const burst = Promise.all(Array.from({ length: 16 }, (_, i) => worker(i)));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    signalledAt = Date.now();
    node.process.kill('SIGTERM');
    probe.write('GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const later = (ms: number, connection: Awaited<ReturnType<typeof reusedConnection>>) =>
      new Promise<string>((resolve) => setTimeout(() => resolve(connection.again()), ms));
    const reusedAnswers = Promise.all([later(500, reusedAt500), later(1_500, reusedAt1500)]);
    await burst;
    agent.destroy();

    const before = outcomes.filter((o) => o.sentAt < signalledAt);
    expect(before.length).toBeGreaterThan(50);
    // None reset: every request sent before the signal got its answer.
    expect(before.filter((o) => o.error), JSON.stringify(before.filter((o) => o.error).slice(0, 5))).toEqual([]);
    expect(before.every((o) => o.status === 200 || o.status === 503)).toBe(true);
    // After the signal: answered (with Connection: close) or refused at connect — never reset mid-request.
    const after = outcomes.filter((o) => o.sentAt >= signalledAt);
    expect(after.filter((o) => o.error && o.error !== 'ECONNREFUSED'), JSON.stringify(after.filter((o) => o.error).slice(0, 5))).toEqual([]);

    // /readyz on the connection that was open before the signal: 503, draining, and the connection closes.
    await expect.poll(() => probeAnswer, { timeout: 3_000 }).toContain('\r\n\r\n');
    expect(probeAnswer).toMatch(/^HTTP\/1\.1 503/);
    expect(probeAnswer).toMatch(/connection: close/i);
    expect(probeAnswer).toContain('"draining":true');

    // A request on a reused keep-alive connection during the drain is answered, and told to close.
    for (const answer of await reusedAnswers) {
      expect(answer).toMatch(/^HTTP\/1\.1 200/);
      expect(answer).toMatch(/connection: close/i);
    }

    // The upload still running at the deadline: refused with words the visitor can act on.
    await slowClosed;
    expect(slowAnswer).toMatch(/^HTTP\/1\.1 503/);
    expect(slowAnswer).toContain(uploadInterruptedMessage('slow deed.pdf'));
    expect(await node.exited).toEqual({ code: 0, signal: null });
    // Nothing behind: no temporary file, no pending row.
    expect(readdirSync(incoming)).toEqual([]);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const left = await client.query('select status from documents where id = $1', [documentId]);
      expect(left.rows).toEqual([]);
    } finally {
      await client.end();
    }
  });
});
