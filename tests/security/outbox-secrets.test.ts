import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox } from '../../src/server/db/schema.ts';
import type { Deps } from '../../src/server/deps.ts';
import { openConfirmationLink as openManageToken } from '../../src/server/features/customer-links/service.ts';
import { getManageView } from '../../src/server/features/manage-booking/service.ts';
import { deliverDue } from '../../src/server/features/notifications/worker.ts';
import { confirmTestCard } from '../../src/server/features/payments/service.ts';
import { sendInviteEmail } from '../../src/server/features/notifications/events.ts';
import { createTestDeps, type TestContext } from '../helpers/app.ts';
import { dbKinds } from '../helpers/db.ts';
import { paymentClock } from '../helpers/payments.ts';
import { bookingIn } from '../helpers/bookings.ts';
import { leafParts, startTestSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { databaseDump } from './helpers.ts';

/**
 * Attack: read private links out of a database dump (backup, replica, support export).
 * Expected: no usable manage or invitation token anywhere in the database — before the
 * email is sent, after it is sent, in the .ics attachment too (folded or not) — while
 * the email itself, as received over SMTP, carries the working link.
 */
describe.each(dbKinds)('database dump holds no usable private link (%s)', (kind) => {
  let smtp: TestSmtp;
  let ctx: TestContext;
  let deps: Deps;
  const fast = { backoffBaseMs: 1, backoffMaxMs: 1 };

  beforeAll(async () => {
    smtp = await startTestSmtp();
    ctx = await createTestDeps(kind, { SMTP_URL: smtp.url, PUBLIC_URL: 'https://notary.test' });
    deps = { ...ctx.deps, now: () => paymentClock };
  });
  afterAll(async () => {
    await ctx.close();
    await smtp.stop();
  });

  it('manage link: sealed while pending, gone once sent; the received email (text, HTML, .ics) carries a working link', async () => {
    const { bookingId } = await bookingIn(deps, 'awaiting_payment');
    await confirmTestCard(deps, { bookingId, number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123', name: 'Grace Hopper', email: 'grace@example.com' });
    const token = (await openManageToken(deps.db, deps, bookingId))!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const pending = await databaseDump(deps.db);
    expect(pending).not.toContain(token);
    expect(pending).toContain('__secret_manage_token__');

    await deliverDue(deps, fast);
    const mail = smtp.messages.find((m) => m.envelope.to.includes('grace@example.com'))!;
    const parts = leafParts(mail.parsed);
    const link = `https://notary.test/booking/${token}`;
    expect(parts.find((p) => p.contentType.startsWith('text/plain'))!.body).toContain(link);
    expect(parts.find((p) => p.contentType.startsWith('text/html'))!.body).toContain(`href="${link}"`);
    const ics = parts.find((p) => p.contentType.startsWith('text/calendar'))!.body;
    expect(ics.replace(/\r\n /g, '')).toContain(`URL:${link}`);
    for (const line of ics.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    // The link works.
    expect((await getManageView(deps, deps.db, token)).reference).toMatch(/^NOTARY-/);

    const sent = await databaseDump(deps.db);
    expect(sent).not.toContain(token);
    const [row] = await deps.db.select({ payload: outbox.payload, status: outbox.status }).from(outbox).where(eq(outbox.dedupeKey, `booking-confirmed:${bookingId}`));
    expect(row!.status).toBe('sent');
    expect(JSON.stringify(row!.payload)).not.toContain('sealedSecrets');
  });

  it('staff invitation link: never in the database, delivered intact', async () => {
    const secret = 'inv_' + 'Q'.repeat(40);
    await sendInviteEmail(deps, { email: 'new.hire@example.com', role: 'staff', url: `https://notary.test/admin/invite/${secret}`, expiresAt: new Date('2026-03-09T18:00:00Z') });
    expect(await databaseDump(deps.db)).not.toContain(secret);
    // The invitation is queued on the real clock (enqueueMail's default).
    await deliverDue(ctx.deps, fast);
    const mail = smtp.messages.find((m) => m.envelope.to.includes('new.hire@example.com'))!;
    expect(leafParts(mail.parsed).find((p) => p.contentType.startsWith('text/plain'))!.body).toContain(`https://notary.test/admin/invite/${secret}`);
    expect(await databaseDump(deps.db)).not.toContain(secret);
  });
});
