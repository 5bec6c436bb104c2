/**
 * The embedded database (PGlite) in its own thread, answering the PostgreSQL
 * wire protocol on a unix socket, so the server reaches it with the same
 * node-postgres code it uses for DATABASE_URL and a long query never stops the
 * event loop (docs/decisions/046-embedded-database-in-a-worker.md).
 *
 * PGlite is one session: messages run one at a time, first come first served,
 * and a connection that starts a transaction (or an extended-protocol exchange
 * not yet ended by Sync) keeps the session until it ends it; the others wait.
 * A connection that goes away mid-transaction has it rolled back.
 *
 * Started by openPglite (client.ts) only; its messages to the parent:
 * `{ type: 'ready' }`, `{ type: 'closed' }`, `{ type: 'failed', message }`.
 */
import net from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

export interface PgliteWorkerData {
  /** A folder for the database files, or null for an in-memory database. */
  dataDir: string | null;
  /** The unix socket to listen on. */
  socketPath: string;
}

const sslRequestCode = 80877103;
const cancelRequestCode = 80877102;
const protocolVersion3 = 196608;

interface Connection {
  socket: net.Socket;
  buffered: Buffer;
  started: boolean;
}

const { dataDir, socketPath } = workerData as PgliteWorkerData;
const port = parentPort!;

function fail(error: unknown): never {
  port.postMessage({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  // The parent treats this thread's end as the database gone.
  process.exit(1);
}

const db = await (dataDir ? PGlite.create(dataDir) : PGlite.create()).catch(fail);
const connections = new Set<Connection>();
/** Whole messages received, in arrival order across connections. */
let queue: { connection: Connection; message: Buffer }[] = [];
/** The connection the session belongs to until its transaction or exchange ends. */
let owner: Connection | null = null;
let running = false;
let closing = false;

/** Splits what arrived into whole messages (the first one untyped: startup, SSL or cancel request). */
function receive(connection: Connection, data: Buffer) {
  connection.buffered = connection.buffered.length ? Buffer.concat([connection.buffered, data]) : data;
  while (true) {
    const b = connection.buffered;
    if (!connection.started) {
      if (b.length < 8) return;
      const length = b.readInt32BE(0);
      const code = b.readInt32BE(4);
      if (b.length < length) return;
      connection.buffered = b.subarray(length);
      if (code === sslRequestCode) {
        connection.socket.write('N');
      } else if (code === cancelRequestCode) {
        // PGlite has no backend to signal; the protocol expects no answer.
        connection.socket.end();
        return;
      } else if (code === protocolVersion3) {
        connection.started = true;
        queue.push({ connection, message: b.subarray(0, length) });
      } else {
        connection.socket.destroy();
        return;
      }
      continue;
    }
    if (b.length < 5) return;
    const length = 1 + b.readInt32BE(1);
    if (b.length < length) return;
    connection.buffered = b.subarray(length);
    const message = b.subarray(0, length);
    // Terminate: the client is leaving; the session stays for the others.
    if (message[0] === 0x58) {
      connection.socket.end();
      return;
    }
    queue.push({ connection, message });
  }
}

/** The oldest message, or while a connection holds the session, its oldest. */
function nextTurn() {
  const index = owner ? queue.findIndex((item) => item.connection === owner) : queue.length > 0 ? 0 : -1;
  return index < 0 ? undefined : queue.splice(index, 1)[0];
}

async function run() {
  if (running) return;
  running = true;
  try {
    while (true) {
      // A connection that left while holding the session gives it back, rolled back.
      if (owner && !connections.has(owner)) {
        owner = null;
        if (db.isInTransaction()) await db.exec('rollback');
      }
      const next = nextTurn();
      if (!next) break;
      const { connection, message } = next;
      const socket = connection.socket;
      await db.runExclusive(() =>
        db.execProtocolRawStream(new Uint8Array(message.buffer, message.byteOffset, message.length), {
          onRawData: (data) => {
            if (!socket.destroyed) socket.write(data);
          },
        }),
      );
      // Sync or a simple Query ends an exchange; the startup message (untyped) is one whole.
      const exchangeEnded = message[0] === 0x53 || message[0] === 0x51 || message[0] === 0;
      owner = exchangeEnded && !db.isInTransaction() ? null : connection;
    }
  } catch (error) {
    fail(error);
  } finally {
    running = false;
  }
}

const server = net.createServer((socket) => {
  const connection: Connection = { socket, buffered: Buffer.alloc(0), started: false };
  connections.add(connection);
  socket.setNoDelay(true);
  socket.on('data', (data) => {
    receive(connection, data);
    void run();
  });
  socket.on('error', () => socket.destroy());
  socket.on('close', () => {
    connections.delete(connection);
    queue = queue.filter((item) => item.connection !== connection);
    void run();
  });
});

server.on('error', fail);
server.listen(socketPath, () => port.postMessage({ type: 'ready' }));

port.on('message', (message: { type: string }) => {
  if (message.type !== 'close' || closing) return;
  closing = true;
  server.close();
  for (const connection of connections) connection.socket.destroy();
  void (async () => {
    // The message running now finishes first; PGlite's close waits for it.
    await db.close();
    port.postMessage({ type: 'closed' });
    port.close();
  })().catch(fail);
});
