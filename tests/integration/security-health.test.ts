import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
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
    // fetch keeps connections for ~4 s; a server closing idle ones at 5 s races it on a loaded
    // machine (ECONNRESET on reuse). The client, not the server, should close them here.
    server.keepAliveTimeout = 65_000;
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
    expect(await res.json()).toEqual({ status: 'ok', draining: false, checks: { database: 'ok', storage: 'ok', mail: 'ok' } });
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

  it('fails liveness only when a self-repairing part stays down while the database answers', async () => {
    // A part down for a long time (a database outage), that counts its stuck time as the fan-out does.
    const heard: boolean[] = [];
    let stuckForMs = 0;
    app.readiness.watchdogs.push({
      name: 'chat between nodes',
      downForMs: () => 10 * app.readiness.stuckAfterMs,
      stuckForMs: () => stuckForMs,
      databaseAnswered: (answered) => heard.push(answered),
    });
    const db = context.deps.db;
    try {
      // Down far longer than the threshold, but the database only just came back: still alive,
      // and the part was told the database answers (so it reconnects now).
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      expect(heard).toEqual([true]);
      stuckForMs = app.readiness.stuckAfterMs + 1;
      const res = await fetch(`${url}/healthz`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ status: 'stuck', stuck: ['chat between nodes'] });
      // The database itself is down: a restart would not help, so liveness holds, and the part hears it.
      const gone = await openPglite(null);
      await gone.close();
      context.deps.db = gone.db;
      stuckForMs = 0;
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      expect(heard.at(-1)).toBe(false);
    } finally {
      context.deps.db = db;
      app.readiness.watchdogs.pop();
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
      expect((await res.json()).checks).toEqual({ database: 'error', storage: 'ok', mail: 'ok' });
    } finally {
      context.deps.db = db;
    }
  });

  it('is not ready when the document store or the mailbox cannot be written, and says which', async () => {
    // Root ignores permissions: a file where the folder should be is unwritable for anyone.
    const incoming = path.join(context.dataDir, 'documents', '.incoming');
    const mail = path.join(context.dataDir, 'mail');
    rmSync(incoming, { recursive: true, force: true });
    rmSync(mail, { recursive: true, force: true });
    writeFileSync(incoming, '');
    writeFileSync(mail, '');
    try {
      const res = await fetch(`${url}/readyz`);
      expect(res.status).toBe(503);
      expect((await res.json()).checks).toEqual({ database: 'ok', storage: 'error', mail: 'error' });
    } finally {
      rmSync(incoming);
      rmSync(mail);
      mkdirSync(incoming);
    }
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
  });

  it('is not ready when the document store is unreachable', async () => {
    rmSync(path.join(context.dataDir, 'documents'), { recursive: true, force: true });
    const res = await fetch(`${url}/readyz`);
    expect(res.status).toBe(503);
    expect((await res.json()).checks).toEqual({ database: 'ok', storage: 'error', mail: 'ok' });
  });
});
