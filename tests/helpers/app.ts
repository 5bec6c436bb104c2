import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApp } from '../../src/server/app.ts';
import { loadConfig, type Config } from '../../src/server/config.ts';
import { buildDeps, type Deps } from '../../src/server/deps.ts';
import { createLogger } from '../../src/server/logger.ts';
import { createTestDatabase, type DbKind } from './db.ts';

export interface TestContext {
  deps: Deps;
  dataDir: string;
  close(): Promise<void>;
}

/** Real dependencies on a fresh database and a temporary DATA_DIR. */
export async function createTestDeps(kind: DbKind, env: Record<string, string> = {}): Promise<TestContext> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'notary-test-'));
  const config: Config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env });
  const database = await createTestDatabase(kind);
  const deps = await buildDeps(config, database, createLogger('silent'));
  return {
    deps,
    dataDir,
    async close() {
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface TestServer extends TestContext {
  url: string;
  server: Server;
}

/** The Express app (without page rendering) listening on a free loopback port. */
export async function startTestApp(kind: DbKind, env: Record<string, string> = {}): Promise<TestServer> {
  const context = await createTestDeps(kind, env);
  const { app, close } = await createApp(context.deps, { pages: false });
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    ...context,
    server,
    url: `http://127.0.0.1:${port}`,
    async close() {
      // Connections still open (a client's keep-alive, a long poll) are closed
      // now rather than awaited: server.close() alone waits for each to end.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await close();
      await context.close();
    },
  };
}
