import { createHash, randomUUID } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openPglite, openPostgres, resolveMigrations, type Database } from '../../src/server/db/client.ts';

export type DbKind = 'pglite' | 'postgres';

/** Every integration test runs on PGlite, and on PostgreSQL too when TEST_DATABASE_URL is set. */
export const dbKinds: DbKind[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

/**
 * A fresh, migrated database: an in-memory PGlite, or a brand-new database on
 * the PostgreSQL server (dropped again by `close`). Tests never share state.
 *
 * Both start from one migrated copy made once per set of migrations, instead
 * of creating a cluster and running every migration for each test (~1.5 s on
 * PGlite, ~1 s on PostgreSQL, for several hundred tests): PGlite from a dump of
 * its data folder, PostgreSQL from a template database. The server's own
 * migration step still runs on open and finds nothing to do.
 */
export async function createTestDatabase(kind: DbKind): Promise<Database & { url?: string }> {
  if (kind === 'pglite') return openPglite(null, { image: await pgliteImage() });
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `t_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${await postgresTemplate(admin, adminUrl)}`);
  } finally {
    await admin.end();
  }
  const url = databaseUrl(adminUrl, name);
  const database = await openPostgres(url, { max: 20 });
  return { ...database, url, close: () => database.close().then(() => dropDatabase(adminUrl, name)) };
}

/** What a migrated copy depends on: every migration file and the PGlite version. */
const migrationsKey = (() => {
  const hash = createHash('sha256');
  const folder = resolveMigrations();
  for (const file of readdirSync(folder, { recursive: true, encoding: 'utf8' }).sort()) {
    if (file.endsWith('.sql') || file.endsWith('.json')) hash.update(file).update(readFileSync(path.join(folder, file)));
  }
  // Its package.json (not in the package's exports), from the project's node_modules as the migrations are from its folder.
  hash.update(readFileSync(path.resolve(process.cwd(), 'node_modules/@electric-sql/pglite/package.json')));
  return hash.digest('hex').slice(0, 16);
})();

/**
 * A dump of a migrated PGlite data folder, in the temporary folder, made by the
 * first test that needs it (by the same migrator the server uses, so its
 * bookkeeping is the same); written under another name and renamed, so a
 * reader never sees half a file.
 */
async function pgliteImage(): Promise<string> {
  const file = path.join(tmpdir(), `notary-test-pglite-${migrationsKey}.tar`);
  if (existsSync(file)) return file;
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const db = await PGlite.create({ extensions: { pg_trgm } });
  try {
    await migrate(drizzle(db), { migrationsFolder: resolveMigrations() });
    const partial = `${file}.${process.pid}.${randomUUID()}`;
    writeFileSync(partial, Buffer.from(await (await db.dumpDataDir('none')).arrayBuffer()));
    renameSync(partial, file);
  } finally {
    await db.close();
  }
  return file;
}

/**
 * A migrated PGlite data folder at `target` (which must not exist yet), copied
 * from one made once per set of migrations by the server's own opening code:
 * what a server's first start in a fresh DATA_DIR makes (initdb in a process
 * of its own, then every migration), without its wait. Journeys' servers and
 * their seeding start from it.
 */
export async function copyMigratedDataDir(target: string): Promise<void> {
  const template = path.join(tmpdir(), `notary-test-pglite-dir-${migrationsKey}`);
  if (!existsSync(path.join(template, 'PG_VERSION'))) {
    const building = `${template}.${process.pid}.${randomUUID()}`;
    await (await openPglite(building)).close();
    try {
      renameSync(building, template);
    } catch {
      // Another process made it first.
      rmSync(building, { recursive: true, force: true });
    }
  }
  cpSync(template, target, { recursive: true });
}

/**
 * A migrated template database on the PostgreSQL server, one per set of
 * migrations: built once under an advisory lock (parallel test files, and runs
 * from other checkouts, wait for it), under a temporary name that is renamed
 * when complete.
 */
async function postgresTemplate(admin: pg.Client, adminUrl: string): Promise<string> {
  const name = `t_template_${migrationsKey}`;
  const exists = async () => (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
  if (await exists()) return name;
  await admin.query('select pg_advisory_lock(hashtext($1))', [name]);
  try {
    if (await exists()) return name;
    const building = `${name}_${process.pid}`;
    await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${building}`);
    const database = await openPostgres(databaseUrl(adminUrl, building), { max: 1 });
    await database.close();
    await waitForNoConnections(admin, building);
    await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    return name;
  } finally {
    await admin.query('select pg_advisory_unlock(hashtext($1))', [name]);
  }
}

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** pool.end() resolves before its sockets have closed: wait until the server has seen them go. */
async function waitForNoConnections(client: pg.Client, name: string) {
  for (let i = 0; i < 50; i++) {
    const { rows } = await client.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
    if (rows[0].n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function dropDatabase(adminUrl: string, name: string) {
  const dropper = new pg.Client({ connectionString: adminUrl });
  await dropper.connect();
  try {
    // A FORCE drop would send half-closed clients a FATAL that surfaces as an unhandled error.
    await waitForNoConnections(dropper, name);
    await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await dropper.end();
  }
}
