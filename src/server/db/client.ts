import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema.ts';

/** The one database type the code sees, whichever driver is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle has the same query surface as the database. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  driver: 'pglite' | 'postgres';
  /** node-postgres pool when on PostgreSQL (rate limiter, health checks). */
  pool?: pg.Pool;
  /**
   * PostgreSQL: another pool with the same bounded waits and error handling,
   * for a long-lived connection that must not compete with requests for a
   * slot (the Socket.IO adapter's LISTEN).
   */
  newPool?: (options: { max: number; name: string }) => pg.Pool;
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
    connectionTimeoutMillis: t.connectMs,
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
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  // Several nodes starting at once would race to create the same tables: the
  // first to take the lock migrates, the others then find nothing to do.
  // Migrations run on this one connection, without the statement timeout (an
  // index on a large table may take longer than any request should).
  const t = databaseTimeouts(options.timeoutSeconds ?? 15);
  const lock = new pg.Client({ connectionString: url, connectionTimeoutMillis: t.connectMs, keepAlive: true, application_name: 'notary-online migrate' });
  lock.on('error', (error) => options.onError?.(error));
  try {
    await lock.connect();
    await lock.query('select pg_advisory_lock($1)', [migrationLockKey]);
    await migratePg(drizzlePg(lock, { schema }) as never, { migrationsFolder: resolveMigrations() });
  } catch (error) {
    await pool.end();
    throw error;
  } finally {
    await lock.end().catch(() => {});
  }
  return {
    db,
    driver: 'postgres',
    pool,
    newPool: ({ max, name }) => createPool(url, { ...options, max, name }),
    close: () => pool.end(),
  };
}

/**
 * PGlite in `dataDir` (or in memory when null). PGlite itself does not stop a
 * second process opening the same folder — which corrupts it — so we hold a
 * lock file with our pid and refuse to start while a live process holds it.
 */
export async function openPglite(dataDir: string | null): Promise<Database> {
  let releaseLock = () => {};
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    releaseLock = acquireDataDirLock(dataDir);
  }
  try {
    // Loaded only when embedded: a server on PostgreSQL never reads PGlite's modules at start.
    const [{ PGlite }, { drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([
      import('@electric-sql/pglite'),
      import('drizzle-orm/pglite'),
      import('drizzle-orm/pglite/migrator'),
    ]);
    const client = dataDir ? await PGlite.create(dataDir) : await PGlite.create();
    const db = drizzlePglite(client, { schema }) as unknown as Db;
    await migratePglite(db as never, { migrationsFolder: resolveMigrations() });
    return {
      db,
      driver: 'pglite',
      close: async () => {
        await client.close();
        releaseLock();
      },
    };
  } catch (error) {
    releaseLock();
    throw error;
  }
}

export class DataDirLockedError extends Error {}

function acquireDataDirLock(dataDir: string): () => void {
  const lockPath = path.join(dataDir, 'server.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
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
      return () => rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(readFileSync(lockPath, 'utf8'), 10);
      if (Number.isInteger(holder) && holder !== process.pid && isAlive(holder)) {
        throw new DataDirLockedError(
          `The embedded database in ${path.resolve(dataDir)} is already in use by process ${holder}. ` +
            'Stop that server first, or give this one its own DATA_DIR (or a DATABASE_URL).',
        );
      }
      // The previous holder died without cleaning up: the lock is stale.
      rmSync(lockPath, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not lock ${lockPath}.`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function resolveMigrations(): string {
  // Bundled server code lives in dist/server; the folder is at the project root either way.
  return process.env.MIGRATIONS_DIR ?? path.resolve(process.cwd(), 'drizzle');
}

export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir: string;
  timeoutSeconds?: number;
  onError?: (error: Error) => void;
}): Promise<Database> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, { onError: options.onError, timeoutSeconds: options.timeoutSeconds })
    : openPglite(path.join(options.dataDir, 'pglite'));
}

/**
 * Runs `work` on one connection taken now, so that a later statement in it
 * never waits for a pool slot or a new connection (the outbox's "sent" mark
 * right after SMTP accepted a message). PGlite has a single connection anyway.
 */
export async function withConnection<T>(pool: pg.Pool | undefined, db: Db, work: (db: Db) => Promise<T>): Promise<T> {
  if (!pool) return work(db);
  const client = await pool.connect();
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
