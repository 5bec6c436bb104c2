import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox } from '../../src/server/db/schema.ts';
import type { MailTransport } from '../../src/server/adapters/mail/index.ts';
import { enqueueMail } from '../../src/server/features/notifications/repository.ts';
import { deliverDue, startOutboxWorker } from '../../src/server/features/notifications/worker.ts';
import type { Deps } from '../../src/server/deps.ts';
import { createTestDeps, type TestContext } from '../helpers/app.ts';

/**
 * The duplicate window of the outbox (docs/decisions/015): after the mail
 * server accepts a message, only the "sent" UPDATE on a connection already in
 * hand remains — no wait for a pool slot or a new connection.
 */
const postgres = !!process.env.TEST_DATABASE_URL;

describe.skipIf(!postgres)('outbox: the window between "accepted" and "marked sent"', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestDeps('postgres');
  });
  afterAll(() => ctx?.close());

  it('marks a message sent on a connection taken before sending, even when the pool is exhausted meanwhile', async () => {
    const pool = ctx.deps.database.queryPool;
    const held: { release(): void }[] = [];
    let acceptedAt = 0;
    const transport: MailTransport = {
      kind: 'smtp',
      async send() {
        // While the message is out, every other pool slot is taken (a burst of requests).
        const free = pool.options.max - pool.totalCount + pool.idleCount;
        for (let i = 0; i < free; i++) held.push(await pool.connect());
        acceptedAt = Date.now();
      },
      async close() {},
    };
    const id = await enqueueMail(ctx.deps.db, {
      kind: 'test',
      payload: { message: { to: 'a@example.com', subject: 'Window', text: 'x', html: '<p>x</p>' } },
    });
    try {
      expect(await deliverDue({ ...ctx.deps, mail: transport })).toEqual({ sent: 1, retrying: 0, failed: 0 });
      // Marked well before any pool wait could have ended (connectionTimeoutMillis is 5 s).
      expect(Date.now() - acceptedAt).toBeLessThan(1_000);
      expect(held.length).toBeGreaterThan(0);
    } finally {
      for (const client of held) client.release();
    }
    const [row] = await ctx.deps.db.select().from(outbox).where(eq(outbox.id, id!));
    expect(row!.status).toBe('sent');
  });
});

describe('outbox worker while the database is away', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestDeps('pglite');
  });
  afterAll(() => ctx?.close());

  it('backs off instead of failing every poll, and delivers as soon as the database is back', async () => {
    let attempts = 0;
    const away = { execute: async () => { attempts++; throw new Error('connection refused'); } } as unknown as Deps['db'];
    const deps: Deps = { ...ctx.deps, db: away };
    const worker = startOutboxWorker(deps, { pollMs: 20, reminderEveryMs: 0 });
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      // Without backoff: ~75 passes in 1.5 s at 20 ms; with it: 20, 40, 80, … ms.
      expect(attempts).toBeGreaterThanOrEqual(3);
      expect(attempts).toBeLessThanOrEqual(8);
      const id = await enqueueMail(ctx.deps.db, { kind: 'test', payload: { message: { to: 'b@example.com', subject: 'Back', text: 'x', html: '<p>x</p>' } } });
      deps.db = ctx.deps.db;
      await expect.poll(async () => (await ctx.deps.db.select().from(outbox).where(eq(outbox.id, id!)))[0]?.status, { timeout: 10_000 }).toBe('sent');
    } finally {
      await worker.stop();
    }
  });
});
