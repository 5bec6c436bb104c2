import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, outbox } from '../../src/server/db/schema.ts';
import type { Deps } from '../../src/server/deps.ts';
import type { MailTransport } from '../../src/server/adapters/mail/index.ts';
import { deliverDue } from '../../src/server/features/notifications/worker.ts';
import { dbKinds } from '../helpers/db.ts';
import { startTestApp, type TestServer } from '../helpers/app.ts';
import { createStaffUser, trpcHttp } from '../helpers/staff.ts';
import { bookingIn, slotAfter } from '../helpers/bookings.ts';

interface MailRow {
  id: string;
  kind: string;
  to: string;
  subject: string;
  status: string;
  attempts: number;
  lastError: string | null;
  sentAt: string | null;
}
interface MailDetail extends MailRow {
  html: string;
  text: string;
  attachments: { filename: string; contentType: string }[];
  retryable: boolean;
}

/** A confirmed booking's emails, queued by the real confirmation path with a live manage-link token. */
let made = 0;
async function confirmBooking(deps: Deps, email: string) {
  // Each on its own day: a slot takes only three bookings.
  const { bookingId, manageToken } = await bookingIn(deps, 'confirmed', { email, startsAt: slotAfter(deps.now(), 2 + made++, 10) });
  const [row] = await deps.db.select({ id: outbox.id }).from(outbox).where(eq(outbox.dedupeKey, `booking-confirmed:${bookingId}`));
  return { outboxId: row!.id, manageToken: manageToken! };
}

const refusing: MailTransport = {
  kind: 'smtp',
  send: () => Promise.reject(Object.assign(new Error('550 5.1.1 mailbox unavailable'), { responseCode: 550 })),
  close: async () => undefined,
};

describe.each(dbKinds)('console mail outbox (%s)', (kind) => {
  let app: TestServer;
  let cookies: Record<'admin' | 'staff' | 'notary', string>;
  beforeAll(async () => {
    app = await startTestApp(kind);
    app.deps.log = { ...app.deps.log, error: () => undefined, warn: () => undefined, info: () => undefined } as unknown as Deps['log'];
    cookies = {
      admin: await (await createStaffUser(app.deps, { role: 'admin' })).sessionCookie(),
      staff: await (await createStaffUser(app.deps, { role: 'staff' })).sessionCookie(),
      notary: await (await createStaffUser(app.deps, { role: 'notary' })).sessionCookie(),
    };
  });
  afterAll(() => app.close());

  const call = <T>(path: string, input: unknown, cookie = cookies.staff, type: 'query' | 'mutation' = 'query') =>
    trpcHttp(app.url, path, { type, input, cookie }).then((res) => ({ ...res, data: res.body.result?.data.json as T }));

  it('lists messages with recipient, subject, kind, status and attempts, newest first, filtered by status', async () => {
    const first = await confirmBooking(app.deps, 'first@example.com');
    const second = await confirmBooking(app.deps, 'second@example.com');
    const list = await call<MailRow[]>('console.mail.list', {});
    expect(list.status).toBe(200);
    const ids = list.data.map((m) => m.id);
    expect(ids.indexOf(second.outboxId)).toBeLessThan(ids.indexOf(first.outboxId));
    expect(list.data.find((m) => m.id === first.outboxId)).toMatchObject({
      kind: 'booking_confirmation',
      to: 'first@example.com',
      status: 'pending',
      attempts: 0,
      lastError: null,
      sentAt: null,
    });
    expect(list.data.find((m) => m.id === first.outboxId)!.subject).toMatch(/NOTARY-/);
    const sentOnly = await call<MailRow[]>('console.mail.list', { status: 'sent' });
    expect(sentOnly.data.map((m) => m.id)).not.toContain(first.outboxId);
    // Admins see it too; notaries and strangers do not.
    expect((await call('console.mail.list', {}, cookies.admin)).status).toBe(200);
    expect((await call('console.mail.list', {}, cookies.notary)).status).toBe(403);
    expect((await call('console.mail.get', { messageId: first.outboxId }, cookies.notary)).status).toBe(403);
    expect((await trpcHttp(app.url, 'console.mail.list', { type: 'query', input: {} })).status).toBe(401);
  });

  it('shows a message without its live manage-link token, before and after sending', async () => {
    const { outboxId, manageToken } = await confirmBooking(app.deps, 'token@example.com');
    // Still pending: the stored row holds only the token's sealed form (filled in at send time); the console shows neither.
    const [stored] = await app.deps.db.select({ payload: outbox.payload }).from(outbox).where(eq(outbox.id, outboxId));
    expect(JSON.stringify(stored!.payload)).not.toContain(manageToken);
    expect(JSON.stringify(stored!.payload)).toContain('sb1.');
    const pending = await call<MailDetail>('console.mail.get', { messageId: outboxId });
    expect(pending.status).toBe(200);
    expect(JSON.stringify(pending.body)).not.toContain(manageToken);
    expect(pending.data.html).toContain('[private link hidden]');
    expect(pending.data.text).toContain('[private link hidden]');
    expect(pending.data.html).toContain('<');
    expect(pending.data.attachments).toEqual([expect.objectContaining({ filename: expect.stringMatching(/\.ics$/), contentType: expect.stringContaining('text/calendar') })]);

    await deliverDue(app.deps);
    const sent = await call<MailDetail>('console.mail.get', { messageId: outboxId });
    expect(sent.data.status).toBe('sent');
    expect(sent.data.sentAt).not.toBeNull();
    expect(sent.data.retryable).toBe(false);
    expect(JSON.stringify(sent.body)).not.toContain(manageToken);
  });

  it('shows why a message failed and sends it again on "Retry now"', async () => {
    await deliverDue(app.deps); // whatever earlier tests left pending
    const { outboxId, manageToken } = await confirmBooking(app.deps, 'bounce@example.com');
    const working = app.deps.mail;
    app.deps.mail = refusing;
    try {
      await deliverDue(app.deps, { maxAttempts: 1 });
    } finally {
      app.deps.mail = working;
    }
    const failedList = await call<MailRow[]>('console.mail.list', { status: 'failed' });
    expect(failedList.data.find((m) => m.id === outboxId)).toMatchObject({ status: 'failed', attempts: 1, lastError: '550 5.1.1 mailbox unavailable' });
    const failed = await call<MailDetail>('console.mail.get', { messageId: outboxId });
    expect(failed.data.retryable).toBe(true);
    expect(JSON.stringify(failed.body)).not.toContain(manageToken);

    expect((await call('console.mail.retry', { messageId: outboxId }, cookies.notary, 'mutation')).status).toBe(403);
    const retry = await call('console.mail.retry', { messageId: outboxId }, cookies.staff, 'mutation');
    expect(retry.status).toBe(200);
    const [requeued] = await app.deps.db.select().from(outbox).where(eq(outbox.id, outboxId));
    expect(requeued).toMatchObject({ status: 'pending', lockedUntil: null });
    expect(requeued!.nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now());
    const audit = await app.deps.db.select().from(auditLog).where(eq(auditLog.entityId, outboxId));
    expect(audit).toMatchObject([{ actorType: 'staff', action: 'mail.retry_requested' }]);

    // Only the retried message goes: the staff notification that failed with it stays failed.
    expect(await deliverDue(app.deps)).toMatchObject({ sent: 1 });
    const after = await call<MailDetail>('console.mail.get', { messageId: outboxId });
    expect(after.data).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
    const again = await call('console.mail.retry', { messageId: outboxId }, cookies.staff, 'mutation');
    expect(again.status).toBe(409);
    expect(again.body.error?.json.message).toBe('This message has already been sent.');
    expect((await call('console.mail.get', { messageId: randomUUID() })).status).toBe(404);
  });
});
