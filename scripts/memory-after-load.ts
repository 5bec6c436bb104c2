/**
 * Memory after load (issue 10, docs/decisions/028): RSS of the built server on
 * PostgreSQL (or PGlite) when idle, right after the bench's HTTP and chat load, and every 10 s for
 * a minute of idling after it — once per allocator setting given.
 *
 *   flock /tmp/notary-heavy.lock node scripts/memory-after-load.ts [--settings default,MALLOC_ARENA_MAX=2] [--db pglite]
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startServer } from '../tests/helpers/server.ts';
import { rss, runChatLoad, runHttpLoad } from './bench/load.ts';

const { values: args } = parseArgs({
  options: {
    settings: { type: 'string', default: 'default,MALLOC_ARENA_MAX=2' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    idle: { type: 'string', default: '60' },
    db: { type: 'string', default: 'postgres' },
  },
});
const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const mb = (bytes: number | null) => (bytes === null ? 'n/a' : `${Math.round(bytes / 1024 / 1024)}`);

for (const setting of args.settings!.split(',')) {
  const name = `t_mem_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const env: Record<string, string> = { BOOKING_SLOT_CAPACITY: '1000', TRUST_PROXY: '1', LOG_LEVEL: 'silent' };
  if (args.db === 'postgres') env.DATABASE_URL = url.toString();
  if (setting !== 'default') {
    const [key, value] = setting.split('=');
    env[key!] = value!;
  }
  const server = await startServer(env);
  try {
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    const idle = rss(server.process.pid!);
    const load = { durationSeconds: Number(args.duration), connections: Number(args.connections), chatMessages: 300, runs: 1, poolSize: 10, serverPid: server.process.pid!, log: () => {} };
    await runHttpLoad(server.url, load);
    await runChatLoad(server.url, load);
    const loaded = rss(server.process.pid!);
    const after: (number | null)[] = [];
    for (let s = 10; s <= Number(args.idle); s += 10) {
      await new Promise((resolve) => setTimeout(resolve, 10_000));
      after.push(rss(server.process.pid!));
    }
    process.stdout.write(`${args.db} ${setting}: idle ${mb(idle)} MB, after load ${mb(loaded)} MB, then every 10 s: ${after.map(mb).join(' ')} MB\n`);
  } finally {
    await server.stop();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}
