import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema.ts';
import { acquireDataDirLock, initPglite, pgliteProcessEnv, pgliteProcessFlags, pgliteProcessScript, type DataDirLock } from './pglite-data-dir.ts';
import type { PgliteMaintenance, PgliteProcessData } from './pglite-process.ts';

export { DataDirLockedError } from './pglite-data-dir.ts';

/** The one database type the code sees, whichever driver is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle has the same query surface as the database. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  driver: 'pglite' | 'postgres';
  /**
   * The node-postgres pool `db` runs on, with either driver (the embedded
   * database is reached over its socket too): for a caller that sends several
   * statements as one message, as a hold does (docs/decisions/053-trpc-fast-lane.md).
   * On PGlite it is the one connection, so it keeps first-come-first-served, and
   * a caller must not hold a connection of it while `db` runs (see `withConnection`).
   */
  queryPool: pg.Pool;
  /**
   * PostgreSQL: another pool with the same bounded waits and error handling,
   * for a long-lived connection that must not compete with requests for a
   * slot (the Socket.IO adapter's LISTEN).
   */
  newPool?: (options: { max: number; name: string }) => pg.Pool;
  /** PGlite: the process it runs in (tests kill it to see the server fail loudly). */
  databaseProcess?: ChildProcess;
  close(): Promise<void>;
}

/** Arbitrary constant naming the advisory lock that serialises start-up migrations. */
const migrationLockKey = 724_311_905;

/**
 * Every wait on PostgreSQL is bounded (docs/decisions/027-bounded-database-waits.md),
 * all derived from one setting so they stay in order: a statement the server
 * runs too long is cancelled by the server (statement_timeout); a server that
 * stops answering altogether is given 5 s more (query_timeout), then the
 * connection is thrown away; connecting waits at most 5 s; a transaction left
 * idle (a crashed handler) is ended by the server.
 */
export function databaseTimeouts(timeoutSeconds: number) {
  const statementMs = timeoutSeconds * 1000;
  return {
    statementMs,
    queryMs: statementMs + 5_000,
    connectMs: Math.min(5_000, statementMs),
    idleInTransactionMs: Math.max(60_000, 4 * statementMs),
    /** First TCP keepalive probe on a silent connection (the kernel's default is 2 hours). */
    keepAliveMs: 10_000,
    /** Idle connections are closed after this, so a quiet node holds few. */
    idleMs: 10_000,
  };
}

export interface PostgresOptions {
  max?: number;
  /** How long a query waits for a free connection (default: the connect timeout). */
  slotWaitMs?: number;
  /** DATABASE_TIMEOUT_SECONDS. */
  timeoutSeconds?: number;
  /** A connection was lost (logged by the caller); the pool replaces it on its own. */
  onError?: (error: Error) => void;
  name?: string;
}

/**
 * A node-postgres pool that survives its connections: every client has an
 * 'error' listener for its whole life (pg-pool only listens while a client is
 * idle, so a backend terminated while a client was checked out ended the
 * process), and a client given back with a query still unanswered (the
 * query_timeout fired on a silent network) is closed rather than reused.
 */
export function createPool(url: string, options: PostgresOptions = {}): pg.Pool {
  const t = databaseTimeouts(options.timeoutSeconds ?? 15);
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    application_name: options.name ?? 'notary-online',
    connectionTimeoutMillis: options.slotWaitMs ?? t.connectMs,
    idleTimeoutMillis: t.idleMs,
    statement_timeout: t.statementMs,
    query_timeout: t.queryMs,
    idle_in_transaction_session_timeout: t.idleInTransactionMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: t.keepAliveMs,
  });
  const onError = (error: Error) => options.onError?.(error);
  // Idle clients: pg-pool re-emits their errors here and discards them.
  pool.on('error', onError);
  pool.on('connect', (client) => client.on('error', onError));
  pool.on('release', (error, client) => {
    // readyForQuery is false while a query is still outstanding on the wire:
    // the connection is wedged behind it. end() marks it ending at once, so the
    // pool removes it instead of handing it to the next caller.
    if (!error && !(client as pg.PoolClient & { readyForQuery?: boolean }).readyForQuery) {
      client.end().catch(() => {});
    }
  });
  return pool;
}

export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<Database> {
  const pool = createPool(url, options);
  try {
    await migrateOver(url, options, { advisoryLock: true });
  } catch (error) {
    await pool.end();
    throw error;
  }
  return {
    db: drizzlePg(pool, { schema }) as unknown as Db,
    driver: 'postgres',
    queryPool: pool,
    newPool: ({ max, name }) => createPool(url, { ...options, max, name }),
    close: () => pool.end(),
  };
}

/**
 * Migrations run on a connection of their own, without the statement timeout
 * (an index on a large table may take longer than any request should). On
 * PostgreSQL several nodes starting at once would race to create the same
 * tables: the first to take the lock migrates, the others then find nothing to
 * do. PGlite has one opener (the data-folder lock) and one session, where a
 * session-level lock would outlive this connection.
 */
async function migrateOver(url: string, options: PostgresOptions, { advisoryLock }: { advisoryLock: boolean }) {
  const t = databaseTimeouts(options.timeoutSeconds ?? 15);
  const lock = new pg.Client({ connectionString: url, connectionTimeoutMillis: t.connectMs, keepAlive: true, application_name: 'notary-online migrate' });
  lock.on('error', (error) => options.onError?.(error));
  try {
    await lock.connect();
    if (advisoryLock) await lock.query('select pg_advisory_lock($1)', [migrationLockKey]);
    await migratePg(drizzlePg(lock, { schema }) as never, { migrationsFolder: resolveMigrations() });
  } finally {
    await lock.end().catch(() => {});
  }
}

export interface PgliteOptions {
  timeoutSeconds?: number;
  /**
   * The database process ended on its own (a crash): every query fails from now
   * on. The server exits on it (main.ts); a supervisor restarts it.
   */
  onFatal?: (error: Error) => void;
  /**
   * In memory only: start from this dump of a data folder (a tar file from
   * `PGlite#dumpDataDir`) instead of an empty cluster; the migrations then find
   * what it already has. The tests start every database from one migrated image.
   */
  image?: string;
  /** The embedded database's vacuum schedule (default: every 10 minutes of use, after 5 quiet seconds; decision 138). */
  maintenance?: PgliteMaintenance;
}

/**
 * PGlite in `dataDir` (or in memory when null), in a child process behind the
 * PostgreSQL wire protocol on a private unix socket: the server talks to it
 * through node-postgres exactly as to PostgreSQL, with one connection, so
 * transactions run first come first served, and the database's work never
 * runs on the event loop (docs/decisions/046-embedded-database-in-a-worker.md).
 * A process rather than a thread for memory (docs/decisions/054-embedded-database-memory.md).
 *
 * PGlite itself does not stop a second process opening the same folder —
 * which corrupts it — so we hold a lock file with our pid (and the database
 * process's) and refuse to start while a live process holds it.
 */
export async function openPglite(dataDir: string | null, options: PgliteOptions = {}): Promise<Database> {
  let lock: DataDirLock | undefined;
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    lock = await acquireDataDirLock(dataDir);
  }
  const releaseLock = () => lock?.release();
  // Only this user may reach the socket (mkdtemp creates the folder 0700);
  // a short path, as unix socket paths are limited to ~100 bytes.
  const socketDir = mkdtempSync(path.join(tmpdir(), 'notary-pglite-'));
  const cleanUp = () => {
    rmSync(socketDir, { recursive: true, force: true });
    releaseLock();
  };
  let worker: PgliteProcess | undefined;
  let pool: pg.Pool | undefined;
  try {
    // A first start: initdb in a process of its own, whose peak ends with it.
    if (dataDir && !existsSync(path.join(dataDir, 'PG_VERSION'))) await initPglite(dataDir, lock);
    worker = await startPgliteProcess(dataDir, socketDir, lock, options.onFatal, dataDir ? null : (options.image ?? null), options.maintenance);
    const url = `postgresql://postgres@${encodeURIComponent(socketDir)}/postgres`;
    const timeouts = databaseTimeouts(options.timeoutSeconds ?? 15);
    // One connection: PGlite is one session, and the pool's queue is the
    // first-come-first-served order. A query may wait as long as a statement may run.
    const poolOptions: PostgresOptions = { max: 1, timeoutSeconds: options.timeoutSeconds, slotWaitMs: timeouts.statementMs, name: 'notary-online' };
    pool = createPool(url, poolOptions);
    await migrateOver(url, poolOptions, { advisoryLock: false });
    const opened = { pool, worker };
    let closing: Promise<void> | undefined;
    return {
      db: drizzlePg(pool, { schema }) as unknown as Db,
      driver: 'pglite',
      queryPool: pool,
      databaseProcess: worker.child,
      close: () =>
        (closing ??= (async () => {
          await opened.pool.end();
          await opened.worker.stop();
          cleanUp();
        })()),
    };
  } catch (error) {
    await pool?.end().catch(() => {});
    await worker?.stop().catch(() => {});
    cleanUp();
    throw error;
  }
}

interface PgliteProcess {
  child: ChildProcess;
  /** Closes the database (its files complete on disk), then the process. */
  stop(): Promise<void>;
}

function startPgliteProcess(
  dataDir: string | null,
  socketDir: string,
  lock: DataDirLock | undefined,
  onFatal: ((error: Error) => void) | undefined,
  image: string | null,
  maintenance: PgliteMaintenance | undefined,
): Promise<PgliteProcess> {
  const child = spawn(
    process.execPath,
    [...pgliteProcessFlags, fileURLToPath(pgliteProcessScript), JSON.stringify({ dataDir, socketPath: path.join(socketDir, '.s.PGSQL.5432'), lockPath: lock?.path ?? null, image, maintenance } satisfies PgliteProcessData)],
    // The IPC channel is how it knows we are gone (it closes when we exit, even by SIGKILL).
    { env: pgliteProcessEnv(), stdio: ['ignore', 'inherit', 'pipe', 'ipc'] },
  );
  // The lock names both processes: if we die first, the folder stays locked
  // until the database process has closed it.
  if (child.pid) lock?.addHolder(child.pid);
  let failure = '';
  let stopping = false;
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.stderr!.on('data', (chunk: Buffer) => {
    // Kept for the failure message, and passed on (PGlite's own warnings).
    failure = (failure + chunk.toString()).slice(-8_000);
    process.stderr.write(chunk);
  });
  child.on('message', (message: { type: string; message?: string }) => {
    if (message.type === 'failed') failure = message.message ?? failure;
  });
  return new Promise<PgliteProcess>((resolve, reject) => {
    const onEarlyExit = (code: number | null) => reject(new Error(`The embedded database did not start (exit code ${code}).${failure ? `\n${failure}` : ''}`));
    const onError = (error: Error) => reject(error);
    child.once('exit', onEarlyExit);
    child.once('error', onError);
    child.on('message', (message: { type: string }) => {
      if (message.type !== 'ready') return;
      child.off('exit', onEarlyExit);
      child.off('error', onError);
      // A forgotten close() must not keep a process (a script, a test run) alive;
      // starting and stopping keep it (the files must be complete).
      unrefChild(child);
      // From now on an end we did not ask for is fatal: queries fail at once
      // (nothing listens on the socket), and the owner is told.
      child.once('exit', (code, signal) => {
        if (!stopping) onFatal?.(new Error(`The embedded database process stopped (exit code ${code}${signal ? `, ${signal}` : ''}).${failure ? `\n${failure}` : ''}`));
      });
      resolve({
        child,
        async stop() {
          if (stopping) return void (await exited);
          stopping = true;
          if (child.exitCode !== null || child.signalCode !== null) return;
          // Until the files are complete, the process waits for the database.
          refChild(child);
          child.send({ type: 'close' });
          await exited;
        },
      });
    });
  });
}

/** The child, its IPC channel and its stderr pipe stop counting as keeping this process alive. */
function unrefChild(child: ChildProcess) {
  child.unref();
  (child.channel as { unref?: () => void } | undefined)?.unref?.();
  (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();
}

function refChild(child: ChildProcess) {
  child.ref();
  (child.channel as { ref?: () => void } | undefined)?.ref?.();
  (child.stderr as unknown as { ref?: () => void } | null)?.ref?.();
}

export function resolveMigrations(): string {
  // Bundled server code lives in dist/server; the folder is at the project root either way.
  return process.env.MIGRATIONS_DIR ?? path.resolve(process.cwd(), 'drizzle');
}

export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir: string;
  timeoutSeconds?: number;
  onError?: (error: Error) => void;
  /** PGlite only: its process ended on its own. */
  onFatal?: (error: Error) => void;
}): Promise<Database> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, { onError: options.onError, timeoutSeconds: options.timeoutSeconds })
    : openPglite(path.join(options.dataDir, 'pglite'), { timeoutSeconds: options.timeoutSeconds, onFatal: options.onFatal });
}

/**
 * Runs `work` on one connection taken now, so that a later statement in it
 * never waits for a pool slot or a new connection (the outbox's "sent" mark
 * right after SMTP accepted a message). PGlite has a single connection anyway:
 * taking it here would leave none for `db`, so `work` runs on `db` there.
 */
export async function withConnection<T>(database: Pick<Database, 'db' | 'driver' | 'queryPool'>, work: (db: Db) => Promise<T>): Promise<T> {
  if (database.driver !== 'postgres') return work(database.db);
  const client = await database.queryPool.connect();
  let failed: Error | undefined;
  try {
    return await work(drizzlePg(client, { schema }) as unknown as Db);
  } catch (error) {
    failed = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    // A failure may have left the connection mid-query: release it as broken.
    client.release(failed);
  }
}

/** Rows of a raw SQL query; both drivers answer `{ rows }`. */
export async function queryRows<Row>(db: DbOrTx, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as unknown as { rows: Row[] };
  return result.rows;
}
