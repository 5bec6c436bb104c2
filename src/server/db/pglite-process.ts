/**
 * The embedded database (PGlite) in a child process of the server, answering
 * the PostgreSQL wire protocol on a unix socket, so the server reaches it with
 * the same node-postgres code it uses for DATABASE_URL and a long query never
 * stops the event loop (docs/decisions/046-embedded-database-in-a-worker.md).
 * A process of its own, not a thread, for memory: it runs with its own V8 flags
 * and PostgreSQL settings, and a first start's initdb runs in a process of its
 * own that exits and gives its peak back (docs/decisions/054-embedded-database-memory.md).
 *
 * PGlite is one session: messages run one at a time, first come first served,
 * and a connection that starts a transaction (or an extended-protocol exchange
 * not yet ended by Sync) keeps the session until it ends it; the others wait.
 * A connection that goes away mid-transaction has it rolled back.
 *
 * Started by openPglite (client.ts) only, with an IPC channel; its messages to
 * the parent: `{ type: 'ready' }`, `{ type: 'closed' }`, `{ type: 'failed', message }`.
 * It dies with its parent: when the channel closes (the server exited, even by
 * SIGKILL), it closes the database, removes the socket folder and exits.
 *
 * `--init`: only create the data folder (initdb), then exit.
 */
import { readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { idleCollection } from './idle-collection.ts';

export interface PgliteProcessData {
  /** A folder for the database files, or null for an in-memory database. */
  dataDir: string | null;
  /** The unix socket to listen on (its folder is this process's to remove when orphaned). */
  socketPath: string;
  /** The lock file holding the server's pid, removed when orphaned (the server cannot). */
  lockPath: string | null;
  /**
   * In memory only: a dump of a data folder (`PGlite#dumpDataDir`, a tar file) to
   * start from instead of an empty cluster. The tests start every database from
   * one migrated image (tests/helpers/db.ts).
   */
  image: string | null;
  /** The embedded database's own vacuum (docs/decisions/138): how often, after how long a quiet moment. */
  maintenance?: PgliteMaintenance;
}

export interface PgliteMaintenance {
  /** A pass at most this often, and only after messages ran since the last one. */
  everyMs: number;
  /** Tables are vacuumed only once no message has run for this long. */
  quietMs: number;
}

/** Every 10 minutes of use, when the session has been quiet for 5 s. */
const defaultPgliteMaintenance: PgliteMaintenance = { everyMs: 10 * 60_000, quietMs: 5_000 };

/**
 * PostgreSQL's memory inside the WebAssembly heap (docs/decisions/054): 16 MB
 * of shared buffers instead of 128 MB; the database is small and the OS caches
 * its files anyway. The heap itself cannot start below PGlite's 128 MB.
 */
export const pgliteStartParams = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

const sslRequestCode = 80877103;
const cancelRequestCode = 80877102;
const protocolVersion3 = 196608;

interface Connection {
  socket: net.Socket;
  buffered: Buffer;
  started: boolean;
}

const { dataDir, socketPath, lockPath, image, maintenance = defaultPgliteMaintenance } = JSON.parse(process.argv[2]!) as PgliteProcessData;

function send(message: { type: string; message?: string }) {
  if (process.connected) process.send!(message);
}

function fail(error: unknown): never {
  send({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  // The parent treats this process's end as the database gone.
  process.exit(1);
}

// Ctrl-C reaches the whole process group, and a service manager may signal
// every process of the service: the server decides when the database closes
// (after its last request), and tells us over the channel, or closes it.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => {});

if (process.argv.includes('--init')) {
  // A first start's initdb: its peak (~600 MB) ends with this process.
  const created = await PGlite.create(dataDir!, { startParams: pgliteStartParams }).catch(fail);
  await created.close();
  process.exit(0);
}

/** pg_trgm: the console's search indexes (migration 0007, decision 080). */
const options = { startParams: pgliteStartParams, extensions: { pg_trgm } };
const db = await (dataDir
  ? PGlite.create(dataDir, options)
  : PGlite.create({ ...options, ...(image ? { loadDataDir: new Blob([readFileSync(image)]) } : {}) })
).catch(fail);
const connections = new Set<Connection>();
/** Whole messages received, in arrival order across connections. */
let queue: { connection: Connection; message: Buffer }[] = [];
/** The connection the session belongs to until its transaction or exchange ends. */
let owner: Connection | null = null;
let running = false;
let closing = false;
/** The garbage of a burst of messages, collected once the session has been quiet for 2 s. */
const idle = idleCollection(2000);

/**
 * PGlite runs no autovacuum (docs/decisions/138-embedded-database-vacuum.md):
 * every moved hold leaves a dead row version and an entry in each index, and
 * the planner's statistics are those of the last ANALYZE. So once the session
 * has been quiet for a moment, at most every `maintenance.everyMs` and only
 * after messages ran, each table is vacuumed and analysed in turn; a message
 * that arrives meanwhile runs after the table under way, and the pass goes on
 * at the next quiet moment.
 */
let lastPass = Date.now();
let usedSincePass = false;
/** The tables of the pass under way still to do. */
let tablesLeft: string[] = [];
let maintenanceTimer: NodeJS.Timeout | undefined;

function scheduleMaintenance() {
  clearTimeout(maintenanceTimer);
  if (closing || (tablesLeft.length === 0 && !usedSincePass)) return;
  const dueIn = tablesLeft.length > 0 ? 0 : lastPass + maintenance.everyMs - Date.now();
  maintenanceTimer = setTimeout(() => void maintain(), Math.max(maintenance.quietMs, dueIn));
  maintenanceTimer.unref();
}

async function maintain() {
  // Busy (a message, an open transaction): the next quiet moment.
  if (running || closing || owner || queue.length > 0) return;
  running = true;
  try {
    if (tablesLeft.length === 0) {
      const tables = await db.query<{ name: string }>("select format('%I.%I', schemaname, relname) as name from pg_stat_user_tables order by 1");
      tablesLeft = tables.rows.map((row) => row.name);
      lastPass = Date.now();
      usedSincePass = false;
    }
    while (tablesLeft.length > 0 && queue.length === 0 && !closing) {
      const table = tablesLeft.shift()!;
      await db.exec(`vacuum (analyze) ${table}`);
    }
  } catch (error) {
    // Not the session's failure: said, and tried again at the next pass.
    process.stderr.write(`embedded database: vacuum failed: ${error instanceof Error ? error.message : String(error)}\n`);
    tablesLeft = [];
  } finally {
    running = false;
    scheduleMaintenance();
    void run();
  }
}

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
    idle.activity();
    usedSincePass = true;
    scheduleMaintenance();
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
server.listen(socketPath, () => send({ type: 'ready' }));

function close(orphaned: boolean) {
  if (closing) return;
  closing = true;
  idle.stop();
  clearTimeout(maintenanceTimer);
  server.close();
  for (const connection of connections) connection.socket.destroy();
  void (async () => {
    // The message running now finishes first; PGlite's close waits for it.
    await db.close();
    if (orphaned) {
      // The server died without cleaning up: what it would have removed goes
      // now, the lock last (only then may another server open the folder).
      rmSync(path.dirname(socketPath), { recursive: true, force: true });
      if (lockPath) rmSync(lockPath, { force: true });
    }
    send({ type: 'closed' });
    process.exit(0);
  })().catch(fail);
}

process.on('message', (message: { type: string }) => {
  if (message.type === 'close') close(false);
});
process.on('disconnect', () => close(true));
