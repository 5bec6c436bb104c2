import { mkdirSync, openSync, readFileSync, rmSync, writeFileSync, closeSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
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
  /** node-postgres pool when on PostgreSQL (Socket.IO adapter, rate limiter). */
  pool?: pg.Pool;
  close(): Promise<void>;
}

/** Arbitrary constant naming the advisory lock that serialises start-up migrations. */
const migrationLockKey = 724_311_905;

export async function openPostgres(url: string, options: { max?: number; onError?: (error: Error) => void } = {}): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10 });
  // An idle connection dropped by the server (restart, failover) emits 'error' on
  // the pool; unhandled, that would end the process. pg discards the client and
  // the next query opens a new connection.
  pool.on('error', (error) => options.onError?.(error));
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  // Several nodes starting at once would race to create the same tables: the
  // first to take the lock migrates, the others then find nothing to do.
  const lock = new pg.Client({ connectionString: url });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [migrationLockKey]);
    await migratePg(db as never, { migrationsFolder: resolveMigrations() });
  } catch (error) {
    await pool.end();
    throw error;
  } finally {
    await lock.end();
  }
  return { db, driver: 'postgres', pool, close: () => pool.end() };
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
      const fd = openSync(lockPath, 'wx');
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
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

export async function openDatabase(options: { databaseUrl?: string; dataDir: string; onError?: (error: Error) => void }): Promise<Database> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, { onError: options.onError })
    : openPglite(path.join(options.dataDir, 'pglite'));
}

/** Rows of a raw SQL query; both drivers answer `{ rows }`. */
export async function queryRows<Row>(db: DbOrTx, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as unknown as { rows: Row[] };
  return result.rows;
}
