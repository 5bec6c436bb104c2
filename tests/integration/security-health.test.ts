import { rmSync } from 'node:fs';
import path from 'node:path';
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/server/app.ts';
import { openPglite } from '../../src/server/db/client.ts';
import { dbKinds } from '../helpers/db.ts';
import { createTestDeps, type TestContext } from '../helpers/app.ts';

describe.each(dbKinds)('health checks (%s)', (kind) => {
  let context: TestContext;
  let app: App;
  let url: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    context = await createTestDeps(kind);
    app = await createApp(context.deps, { pages: false });
    const server = createServer(app.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    close = async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await context.close();
    };
  });
  afterAll(() => close());

  it('is alive and ready when the database and the document store answer', async () => {
    expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ status: 'ok' });
    const res = await fetch(`${url}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', draining: false, checks: { database: 'ok', storage: 'ok' } });
  });

  it('is not ready while draining for shutdown, yet still alive', async () => {
    app.readiness.draining = true;
    try {
      const res = await fetch(`${url}/readyz`);
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ status: 'unavailable', draining: true });
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
    } finally {
      app.readiness.draining = false;
    }
  });

  it('is not ready when the database does not answer', async () => {
    const gone = await openPglite(null);
    await gone.close();
    const db = context.deps.db;
    context.deps.db = gone.db;
    try {
      const res = await fetch(`${url}/readyz`);
      expect(res.status).toBe(503);
      expect((await res.json()).checks).toEqual({ database: 'error', storage: 'ok' });
    } finally {
      context.deps.db = db;
    }
  });

  it('is not ready when the document store is unreachable', async () => {
    rmSync(path.join(context.dataDir, 'documents'), { recursive: true, force: true });
    const res = await fetch(`${url}/readyz`);
    expect(res.status).toBe(503);
    expect((await res.json()).checks).toEqual({ database: 'ok', storage: 'error' });
  });
});
