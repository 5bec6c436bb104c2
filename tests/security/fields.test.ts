import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { contactMessages, documents, outbox } from '../../src/server/db/schema.ts';
import { startBooking } from '../../src/server/features/booking/service.ts';
import { deliverDue } from '../../src/server/features/notifications/worker.ts';
import { cleanFileName } from '../../src/server/features/documents/service.ts';
import { contactSchema } from '../../src/shared/booking.ts';
import { visitorOfflineInput } from '../../src/shared/chat.ts';
import { businessInquiryInput, contactInput } from '../../src/shared/contact.ts';
import { displayFileName } from '../../src/shared/fields.ts';
import { updateProfileInput } from '../../src/shared/staff.ts';
import { createTestDeps, startTestApp, type TestServer } from '../helpers/app.ts';
import { dbKinds } from '../helpers/db.ts';
import { startTestSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { trpcHttp } from '../helpers/staff.ts';

const headerInjections = ['Ada\r\nBcc: victim@example.com', 'Ada\nX-Evil: 1', 'Ada\rB', 'Ada\u0000B', 'Ada\u0085B', 'Ada\u2028B', 'Ada\u202eB'];
const headerBreakingEmails = ['"a,b"@example.com', 'a@example.com, victim@example.com', 'Ada <a@example.com>', 'a@example.com>', 'a;b@example.com', 'a@example.com\r\nBcc: v@example.com', 'a(comment)@example.com', 'a@[127.0.0.1]'];

/**
 * Attack: smuggle mail headers (Bcc, a second recipient) or misleading text
 * through single-line fields and email addresses. Expected: refused with a
 * clear message, nothing stored; what is accepted reaches a real SMTP server
 * with exactly the expected headers.
 */
describe('single-line fields and email addresses', () => {
  it.each(headerInjections)('a name with a control character (%j) → refused with a clear message, everywhere a name is taken', (name) => {
    const contact = { firstName: name, lastName: 'Lovelace', email: 'ada@example.com', phone: '(555) 010-2030' };
    expect(contactSchema.safeParse(contact).error?.issues.map((i) => i.message)).toContain('First name cannot contain line breaks or control characters.');
    expect(contactSchema.safeParse({ ...contact, firstName: 'Ada', lastName: name }).error?.issues.map((i) => i.message)).toContain('Last name cannot contain line breaks or control characters.');
    expect(contactInput.safeParse({ name, email: 'ada@example.com', message: 'Hi' }).error?.issues[0]?.message).toBe('Name cannot contain line breaks or control characters.');
    expect(businessInquiryInput.safeParse({ name: 'Ada', company: name, email: 'ada@example.com' }).error?.issues[0]?.message).toBe('Company cannot contain line breaks or control characters.');
    expect(updateProfileInput.safeParse({ name, timeZone: 'America/Chicago' }).success).toBe(false);
  });

  it.each(headerBreakingEmails)('an address a mail header would misread (%j) → "Please enter a valid email address"', (email) => {
    expect(contactSchema.safeParse({ firstName: 'Ada', lastName: 'L', email, phone: '(555) 010-2030' }).error?.issues[0]?.message).toBe('Please enter a valid email address');
    expect(contactInput.safeParse({ name: 'Ada', email, message: 'Hi' }).error?.issues[0]?.message).toBe('Please enter a valid email address');
    expect(visitorOfflineInput.safeParse({ clientId: crypto.randomUUID(), email, body: 'Hi' }).success).toBe(false);
  });

  it('ordinary names and addresses still pass (apostrophes, accents, plus-addressing, subdomains)', () => {
    expect(contactSchema.safeParse({ firstName: "Zoë-Anne", lastName: "O'Brien Núñez", email: 'zoe+notary@mail.example.co.uk', phone: '+1 (555) 010-2030' }).success).toBe(true);
  });

  it('a file name with bidi overrides or controls ("invoice\\u202Efdp.exe") → shown without them', () => {
    expect(displayFileName('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    expect(cleanFileName('a\u2066b\u2069c\u202a\u202b\u202c\u202d.pdf')).toBe('abc.pdf');
    expect(cleanFileName('\u202e\u0000')).toBe('document');
  });
});

describe.each(dbKinds)('what reaches the SMTP server (%s)', (kind) => {
  let smtp: TestSmtp;
  let app: TestServer;
  beforeAll(async () => {
    smtp = await startTestSmtp();
    app = await startTestApp(kind, { SMTP_URL: smtp.url, STAFF_EMAIL: 'staff@notary.test', MAIL_FROM: 'NotaryOnline <bookings@notary.test>' });
  });
  afterAll(async () => {
    await app.close();
    await smtp.stop();
  });

  it('a contact form with "Bcc:" smuggled into the name → 400 with the message, nothing stored, nothing sent', async () => {
    const res = await trpcHttp(app.url, 'contact.send', { input: { name: 'Eve\r\nBcc: victim@example.com', email: 'eve@example.com', message: 'Hello' } });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('Name cannot contain line breaks or control characters.');
    expect(await app.deps.db.select().from(contactMessages)).toHaveLength(0);
    expect(await app.deps.db.select().from(outbox)).toHaveLength(0);
  });

  it('an accepted message → delivered to exactly the staff address, Reply-To exactly the visitor, no extra headers', async () => {
    const res = await trpcHttp(app.url, 'contact.send', { input: { name: "Zoë O'Brien", email: 'zoe+q@example.com', message: 'Line one\r\nBcc: still-just-body@example.com' } });
    expect(res.status).toBe(200);
    const [row] = await app.deps.db.select().from(outbox);
    await deliverDue(app.deps, { backoffBaseMs: 1, backoffMaxMs: 1 });
    expect(smtp.messages).toHaveLength(1);
    const mail = smtp.messages[0]!;
    expect(mail.envelope.to).toEqual(['staff@notary.test']);
    expect(mail.envelope.from).toBe('bookings@notary.test');
    const headers = mail.parsed.headers;
    expect(headers['to']).toBe('staff@notary.test');
    expect(headers['reply-to']).toBe('zoe+q@example.com');
    expect(headers['bcc']).toBeUndefined();
    expect(headers['cc']).toBeUndefined();
    expect(Object.keys(headers).sort()).toEqual(
      ['auto-submitted', 'content-type', 'date', 'from', 'message-id', 'mime-version', 'reply-to', 'subject', 'to'].sort(),
    );
    expect(headers['message-id']).toBe(`<${row!.id}@${new URL(app.deps.config.publicUrl).hostname}>`);
    expect((await app.deps.db.select().from(outbox).where(eq(outbox.id, row!.id)))[0]!.status).toBe('sent');
  });
});

describe.each(dbKinds)('file names stored before this change (%s)', (kind) => {
  it('the clean-document-names migration removes controls and bidi overrides from existing rows', async () => {
    const ctx = await createTestDeps(kind);
    try {
      const { bookingId } = await startBooking(ctx.deps, { timeZone: 'America/Chicago' });
      const base = { bookingId, contentType: 'application/pdf', sizeBytes: 1, status: 'stored' as const, scanStatus: 'skipped' as const };
      await ctx.deps.db.insert(documents).values([
        { ...base, originalName: 'invoice\u202Efdp.exe', storageKey: `${bookingId}/a` },
        { ...base, originalName: '\u2066\u2069', storageKey: `${bookingId}/b` },
        { ...base, originalName: 'plain.pdf', storageKey: `${bookingId}/c` },
      ]);
      const file = readdirSync('drizzle').find((f) => f.includes('clean-document-names'))!;
      await ctx.deps.db.execute(sql.raw(readFileSync(`drizzle/${file}`, 'utf8')));
      const names = (await ctx.deps.db.select({ name: documents.originalName }).from(documents)).map((d) => d.name).sort();
      expect(names).toEqual(['document', 'invoicefdp.exe', 'plain.pdf']);
    } finally {
      await ctx.close();
    }
  });
});
