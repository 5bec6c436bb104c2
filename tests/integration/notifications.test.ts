import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import ICAL from 'ical.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openPostgres, queryRows, type Db } from '../../src/server/db/client.ts';
import { bookings, chatConversations, chatMessages, contactMessages, customers, documents, outbox, payments } from '../../src/server/db/schema.ts';
import type { Deps } from '../../src/server/deps.ts';
import { createSmtpTransport } from '../../src/server/adapters/mail/smtp.ts';
import { onBookingConfirmed, onChatMessageLeftOffline, onContactMessage } from '../../src/server/features/notifications/events.ts';
import { claimNextDue } from '../../src/server/features/notifications/repository.ts';
import { backoffDelay, deliverDue, queueDueReminders, startOutboxWorker } from '../../src/server/features/notifications/worker.ts';
import { site } from '../../src/shared/site.ts';
import { createTestDeps, type TestContext } from '../helpers/app.ts';
import { dbKinds } from '../helpers/db.ts';
import { leafParts, startTestSmtp, type TestSmtp } from '../helpers/smtp.ts';

const fast = { backoffBaseMs: 1_000, backoffMaxMs: 8_000, random: () => 0.5 };

async function seedBooking(db: Db, options: { startsAt: Date; confirmedAt?: Date; timeZone?: string; email?: string }) {
  const [customer] = await db
    .insert(customers)
    .values({ firstName: 'Ada', lastName: 'Lovelace King', email: options.email ?? 'ada@example.com', phone: '(555) 201-3344' })
    .returning({ id: customers.id });
  const [booking] = await db
    .insert(bookings)
    .values({
      reference: `NOTARY-${Math.random().toString(36).slice(2, 10).toUpperCase()}`,
      status: 'confirmed',
      startsAt: options.startsAt,
      timeZone: options.timeZone ?? 'America/New_York',
      priceCents: 2500,
      customerId: customer!.id,
      confirmedAt: options.confirmedAt ?? new Date('2026-03-01T12:00:00Z'),
    })
    .returning({ id: bookings.id, reference: bookings.reference });
  await db.insert(documents).values([
    { bookingId: booking!.id, originalName: 'power-of-attorney.pdf', storageKey: `${booking!.id}/a.pdf`, status: 'stored' },
    { bookingId: booking!.id, originalName: 'deed.png', storageKey: `${booking!.id}/b.png`, status: 'stored' },
  ]);
  await db.insert(payments).values({ bookingId: booking!.id, provider: 'test', providerPaymentId: `pi_${booking!.id}`, amountCents: 2500, status: 'succeeded', method: 'card' });
  return booking!;
}

async function outboxRows(db: Db) {
  return db.select().from(outbox).orderBy(outbox.createdAt);
}

describe.each(dbKinds)('notifications on %s', (kind) => {
  let smtp: TestSmtp;
  let ctx: TestContext;
  let deps: Deps;
  let clock: Date;

  beforeAll(async () => {
    smtp = await startTestSmtp({ rejectRecipient: 'bounce@example.com' });
  });
  afterAll(() => smtp.stop());
  beforeEach(async () => {
    smtp.messages.length = 0;
    ctx = await createTestDeps(kind, { SMTP_URL: smtp.url, PUBLIC_URL: 'https://notary.test', STAFF_EMAIL: 'staff@notary.test' });
    clock = new Date('2026-03-02T12:00:00Z');
    deps = { ...ctx.deps, now: () => clock };
  });
  afterEach(() => ctx.close());

  it('sends the booking confirmation (HTML + text + .ics) and the staff notification over SMTP', async () => {
    const booking = await seedBooking(deps.db, { startsAt: new Date('2026-03-05T20:30:00Z') });
    await deps.db.transaction((tx) => onBookingConfirmed(tx, deps, { bookingId: booking.id, manageToken: 'tok_SECRET_123' }));

    const report = await deliverDue(deps, fast);
    expect(report).toEqual({ sent: 2, retrying: 0, failed: 0 });
    expect(smtp.messages).toHaveLength(2);

    const customer = smtp.messages.find((m) => m.envelope.to.includes('ada@example.com'))!;
    const headers = customer.parsed.headers;
    expect(headers.subject).toBe(`Your notary appointment is confirmed (${booking.reference})`);
    const rows = await outboxRows(deps.db);
    const confirmationRow = rows.find((r) => r.kind === 'booking_confirmation')!;
    expect(headers['message-id']).toBe(`<${confirmationRow.id}@notary.test>`);

    const leaves = leafParts(customer.parsed);
    const text = leaves.find((p) => p.contentType.startsWith('text/plain'))!.body;
    const html = leaves.find((p) => p.contentType.startsWith('text/html'))!.body;
    for (const body of [text, html]) {
      expect(body).toContain(booking.reference);
      // The customer's zone, named.
      expect(body).toContain('March 5, 2026 at 3:30 PM (Eastern Standard Time)');
      expect(body).toContain('power-of-attorney.pdf');
      expect(body).toContain('$25.00');
      expect(body).toContain(site.phone);
      expect(body).toContain('https://notary.test/booking/tok_SECRET_123');
      expect(body).toContain('valid government-issued photo ID');
      expect(body).toContain('1 Mbps');
    }
    expect(html).toContain(site.brand);

    const ics = leaves.find((p) => p.contentType.startsWith('text/calendar'))!;
    const vevent = new ICAL.Component(ICAL.parse(ics.body)).getFirstSubcomponent('vevent')!;
    const event = new ICAL.Event(vevent);
    expect(event.uid).toBe(`${booking.id}@notary.test`);
    expect(event.startDate.toJSDate().toISOString()).toBe('2026-03-05T20:30:00.000Z');
    expect(event.description).toContain(booking.reference);

    const staff = smtp.messages.find((m) => m.envelope.to.includes('staff@notary.test'))!;
    const staffText = leafParts(staff.parsed).find((p) => p.contentType.startsWith('text/plain'))!.body;
    expect(staff.parsed.headers['reply-to']).toContain('ada@example.com');
    expect(staffText).toContain('Customer name: Ada Lovelace King');
    expect(staffText).toContain('Customer email: ada@example.com');
    expect(staffText).toContain('Date and time: March 5, 2026 at 2:30 PM (Central Standard Time)');
    expect(staffText).toMatch(/power-of-attorney\.pdf\s+deed\.png/);

    // Sent rows are marked, and the raw manage token does not stay in the database.
    expect(rows.every((r) => r.status === 'sent' && r.sentAt)).toBe(true);
    expect(JSON.stringify(confirmationRow.payload)).not.toContain('tok_SECRET_123');
  });

  it('writes nothing when the transaction that caused the message rolls back', async () => {
    await expect(
      deps.db.transaction(async (tx) => {
        const [message] = await tx.insert(contactMessages).values({ kind: 'contact', name: 'Bo', email: 'bo@example.com', message: 'Hi' }).returning();
        await onContactMessage(tx, deps, { messageId: message!.id });
        throw new Error('the cause failed');
      }),
    ).rejects.toThrow('the cause failed');
    expect(await outboxRows(deps.db)).toHaveLength(0);
  });

  it('survives an SMTP outage: retries with backoff, then delivers exactly once', async () => {
    await deps.db.transaction(async (tx) => {
      const [message] = await tx.insert(contactMessages).values({ kind: 'contact', name: 'Bo', email: 'bo@example.com', message: 'Are you open on Sunday?' }).returning();
      await onContactMessage(tx, deps, { messageId: message!.id });
    });
    await smtp.stop();
    try {
      expect(await deliverDue(deps, fast)).toEqual({ sent: 0, retrying: 1, failed: 0 });
      let [row] = await outboxRows(deps.db);
      expect(row!.status).toBe('pending');
      expect(row!.attempts).toBe(1);
      expect(row!.lastError).toBeTruthy();
      // Backoff: nothing is due until the delay has passed.
      expect(row!.nextAttemptAt.getTime() - clock.getTime()).toBe(backoffDelay(1, fast));
      expect(await deliverDue(deps, fast)).toEqual({ sent: 0, retrying: 0, failed: 0 });

      clock = new Date(clock.getTime() + 60_000);
      expect(await deliverDue(deps, fast)).toEqual({ sent: 0, retrying: 1, failed: 0 });
      [row] = await outboxRows(deps.db);
      expect(row!.attempts).toBe(2);
      expect(row!.nextAttemptAt.getTime() - clock.getTime()).toBe(backoffDelay(2, fast));
    } finally {
      await smtp.start();
    }
    clock = new Date(clock.getTime() + 60_000);
    expect(await deliverDue(deps, fast)).toEqual({ sent: 1, retrying: 0, failed: 0 });
    clock = new Date(clock.getTime() + 3600_000);
    expect(await deliverDue(deps, fast)).toEqual({ sent: 0, retrying: 0, failed: 0 });
    expect(smtp.messages).toHaveLength(1);
    expect(smtp.messages[0]!.parsed.headers.subject).toBe('New contact message from Bo');
    const [row] = await outboxRows(deps.db);
    expect(row!.status).toBe('sent');
  });

  it('marks a message the server keeps refusing as failed after the maximum attempts', async () => {
    await seedBooking(deps.db, { startsAt: new Date('2026-03-05T20:30:00Z'), email: 'bounce@example.com' }).then((b) =>
      deps.db.transaction((tx) => onBookingConfirmed(tx, deps, { bookingId: b.id, manageToken: 't' })),
    );
    const options = { ...fast, maxAttempts: 3 };
    const reports = [];
    for (let i = 0; i < 3; i++) {
      reports.push(await deliverDue(deps, options));
      clock = new Date(clock.getTime() + 3600_000);
    }
    expect(reports.map((r) => r.failed)).toEqual([0, 0, 1]);
    const rows = await outboxRows(deps.db);
    const refused = rows.find((r) => r.kind === 'booking_confirmation')!;
    expect(refused.status).toBe('failed');
    expect(refused.attempts).toBe(3);
    expect(refused.lastError).toContain('Mailbox unavailable');
    // The staff copy was not held up by the refused one.
    expect(rows.find((r) => r.kind === 'booking_staff_notification')!.status).toBe('sent');
  });

  it('re-sends a message whose worker died mid-send after the lease, with the same Message-ID', async () => {
    await deps.db.transaction(async (tx) => {
      const [message] = await tx.insert(contactMessages).values({ kind: 'contact', name: 'Cy', email: 'cy@example.com', message: 'Hello' }).returning();
      await onContactMessage(tx, deps, { messageId: message!.id });
    });
    // A worker claims the row and "crashes" before sending.
    const claimed = await claimNextDue(deps.db, clock, 60_000);
    expect(claimed).not.toBeNull();
    expect(await deliverDue(deps, { ...fast, leaseMs: 60_000 })).toEqual({ sent: 0, retrying: 0, failed: 0 });
    clock = new Date(clock.getTime() + 61_000);
    expect(await deliverDue(deps, { ...fast, leaseMs: 60_000 })).toEqual({ sent: 1, retrying: 0, failed: 0 });
    expect(smtp.messages[0]!.parsed.headers['message-id']).toBe(`<${claimed!.id}@notary.test>`);
  });

  it('delivers each message once when two workers race over the same outbox', async () => {
    const total = 24;
    await deps.db.transaction(async (tx) => {
      for (let i = 0; i < total; i++) {
        const [message] = await tx.insert(contactMessages).values({ kind: 'contact', name: `Visitor${i}`, email: `v${i}@example.com`, message: 'Hi' }).returning();
        await onContactMessage(tx, deps, { messageId: message!.id });
      }
    });
    // On PostgreSQL the second worker is a separate connection pool, as a second process would be.
    const second = ctx.deps.database.driver === 'postgres'
      ? await openPostgres(String((ctx.deps.database.queryPool as unknown as { options: { connectionString: string } }).options.connectionString))
      : null;
    const otherDeps: Deps = {
      ...deps,
      db: second?.db ?? deps.db,
      database: second ?? deps.database,
      mail: createSmtpTransport({ url: smtp.url, from: deps.config.MAIL_FROM, log: deps.log }),
    };
    try {
      const [a, b] = await Promise.all([deliverDue(deps, fast), deliverDue(otherDeps, fast)]);
      expect(a.sent + b.sent).toBe(total);
      if (kind === 'postgres') expect(Math.min(a.sent, b.sent)).toBeGreaterThan(0);
    } finally {
      await second?.close();
    }
    const ids = smtp.messages.map((m) => m.parsed.headers['message-id']);
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
    const [counts] = await queryRows<{ sent: number }>(deps.db, sql`select count(*)::int as sent from outbox where status = 'sent'`);
    expect(Number(counts!.sent)).toBe(total);
  });

  it('runs as a background worker that delivers new messages and stops cleanly', async () => {
    const worker = startOutboxWorker({ ...deps, now: () => new Date() }, { ...fast, pollMs: 50, reminderEveryMs: 0 });
    try {
      await deps.db.transaction(async (tx) => {
        const [message] = await tx.insert(contactMessages).values({ kind: 'contact', name: 'Wes', email: 'wes@example.com', message: 'Hi' }).returning();
        await onContactMessage(tx, { ...deps, now: () => new Date() }, { messageId: message!.id });
      });
      await expect.poll(() => smtp.messages.length, { timeout: 10_000 }).toBe(1);
    } finally {
      await worker.stop();
    }
    const [row] = await outboxRows(deps.db);
    expect(row!.status).toBe('sent');
  });

  it('emails staff a chat message left while nobody was online', async () => {
    const [conversation] = await deps.db
      .insert(chatConversations)
      .values({ visitorTokenHash: 'h'.repeat(64), visitorName: 'Lena', visitorEmail: 'lena@example.com', currentPage: '/schedule' })
      .returning();
    const [message] = await deps.db
      .insert(chatMessages)
      .values({ conversationId: conversation!.id, clientId: 'c1', sender: 'visitor', body: 'Do you notarize wills?' })
      .returning();
    await deps.db.transaction((tx) => onChatMessageLeftOffline(tx, deps, { conversationId: conversation!.id, messageId: String(message!.id) }));
    await deliverDue(deps, fast);
    const [mail] = smtp.messages;
    expect(mail!.envelope.to).toEqual(['staff@notary.test']);
    expect(mail!.parsed.headers.subject).toBe('Chat message left while offline from Lena');
    expect(mail!.parsed.headers['reply-to']).toContain('lena@example.com');
    const text = leafParts(mail!.parsed).find((p) => p.contentType.startsWith('text/plain'))!.body;
    expect(text).toContain('Do you notarize wills?');
    expect(text).toContain('Page: /schedule');
    expect(text).toContain('https://notary.test/admin/chat');
  });

  it('queues one reminder 24 hours ahead, only for appointments booked before that window', async () => {
    const due = await seedBooking(deps.db, { startsAt: new Date(clock.getTime() + 23 * 3600_000), confirmedAt: new Date(clock.getTime() - 3 * 24 * 3600_000) });
    await seedBooking(deps.db, { startsAt: new Date(clock.getTime() + 20 * 3600_000), confirmedAt: new Date(clock.getTime() - 3600_000) });
    await seedBooking(deps.db, { startsAt: new Date(clock.getTime() + 30 * 3600_000), confirmedAt: new Date(clock.getTime() - 3 * 24 * 3600_000) });
    expect(await queueDueReminders(deps)).toBe(1);
    expect(await queueDueReminders(deps)).toBe(0);
    const rows = await outboxRows(deps.db);
    expect(rows.map((r) => r.dedupeKey)).toEqual([`reminder:${due.id}:${new Date(clock.getTime() + 23 * 3600_000).toISOString()}`]);
    const [booking] = await deps.db.select({ reminderSentAt: bookings.reminderSentAt }).from(bookings).where(eq(bookings.id, due.id));
    expect(booking!.reminderSentAt).toEqual(clock);
    await deliverDue(deps, fast);
    expect(smtp.messages[0]!.parsed.headers.subject).toBe(`Reminder: your notary appointment is coming up (${due.reference})`);
  });
});

describe('backoffDelay', () => {
  it('doubles per attempt up to the cap, with half of each delay random', () => {
    const base = { backoffBaseMs: 30_000, backoffMaxMs: 3_600_000 };
    expect(backoffDelay(1, { ...base, random: () => 0 })).toBe(15_000);
    expect(backoffDelay(1, { ...base, random: () => 1 })).toBe(30_000);
    expect(backoffDelay(3, { ...base, random: () => 1 })).toBe(120_000);
    expect(backoffDelay(20, { ...base, random: () => 1 })).toBe(3_600_000);
    expect(backoffDelay(20, { ...base, random: () => 0 })).toBe(1_800_000);
  });
});

describe('local mailbox transport', () => {
  it('keeps each message as an .eml file under DATA_DIR/mail', async () => {
    const ctx = await createTestDeps('pglite', { PUBLIC_URL: 'https://notary.test' });
    try {
      expect(ctx.deps.mail.kind).toBe('mailbox');
      await ctx.deps.db.transaction(async (tx) => {
        const [message] = await tx
          .insert(contactMessages)
          .values({ kind: 'business', name: 'Dee Rivers', email: 'dee@corp.example', company: 'Corp Inc', interest: 'bulk', message: 'We sign 500 forms a month.' })
          .returning();
        await onContactMessage(tx, ctx.deps, { messageId: message!.id });
      });
      expect(await deliverDue(ctx.deps)).toEqual({ sent: 1, retrying: 0, failed: 0 });
      const dir = path.join(ctx.dataDir, 'mail');
      const files = readdirSync(dir);
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/^\d{8}T\d{9}Z-[0-9a-f-]+\.eml$/);
      const eml = readFileSync(path.join(dir, files[0]!), 'utf8');
      expect(eml).toContain('\r\n');
      expect(eml).toContain('Subject: Business Solutions Inquiry from Dee Rivers at Corp Inc');
      expect(eml).toContain('To: sales@notaryonline.example');
      expect(eml).toMatch(/Interest: Bulk Processing/);
    } finally {
      await ctx.close();
    }
  });
});
