import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NodeRateCounters } from '../../src/server/rate-limit.ts';
import { contactMessages as contactTable, customers, outbox, rateLimits } from '../../src/server/db/schema.ts';
import { contactMessages } from '../../src/shared/contact.ts';
import { startTestApp, type TestServer } from '../helpers/app.ts';
import { dbKinds } from '../helpers/db.ts';

/** The contact flows over HTTP, as the browser calls them (tRPC, JSON). */
describe.each(dbKinds)('contact flows on %s', (kind) => {
  let app: TestServer;
  const call = (procedure: string, input: Record<string, unknown>) =>
    fetch(`${app.url}/trpc/contact.${procedure}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ json: input }),
    });

  beforeAll(async () => {
    app = await startTestApp(kind, { STAFF_EMAIL: 'staff@notary.test', SALES_EMAIL: 'sales@notary.test' });
  });
  afterAll(() => app.close());
  beforeEach(async () => {
    const db = app.deps.db;
    await db.delete(outbox);
    await db.delete(contactTable);
    await db.delete(customers);
    await db.delete(rateLimits);
    // The contact form's limit counts in this node's memory (decision 077).
    app.deps.rateCounters = new NodeRateCounters();
  });

  it('stores the message, writes the customer with the name split, and queues the staff email', async () => {
    const res = await call('send', { name: '  Mary Ann   van Dyke ', email: 'mary@example.com', phone: '', message: 'Can you notarize a car title?' });
    expect(res.status).toBe(200);
    const [customer] = await app.deps.db.select().from(customers);
    expect(customer).toMatchObject({ firstName: 'Mary', lastName: 'Ann van Dyke', email: 'mary@example.com', phone: null });
    const [message] = await app.deps.db.select().from(contactTable);
    expect(message).toMatchObject({ kind: 'contact', email: 'mary@example.com', message: 'Can you notarize a car title?', customerId: customer!.id });
    const [mail] = await app.deps.db.select().from(outbox);
    expect(mail!.kind).toBe('contact_message');
    const payload = mail!.payload as { message: { to: string; replyTo: string; subject: string; text: string } };
    expect(payload.message.to).toBe('staff@notary.test');
    expect(payload.message.replyTo).toBe('mary@example.com');
    expect(payload.message.text).toContain('Can you notarize a car title?');
  });

  it('keeps an empty last name for a one-word name', async () => {
    expect((await call('send', { name: 'Cher', email: 'cher@example.com', message: 'Hi' })).status).toBe(200);
    const [customer] = await app.deps.db.select().from(customers);
    expect(customer).toMatchObject({ firstName: 'Cher', lastName: '' });
  });

  it("refuses a message without a name's first word, email or message, saving nothing", async () => {
    for (const input of [
      { name: '   ', email: 'a@example.com', message: 'Hi' },
      { name: 'Al', email: '', message: 'Hi' },
      { name: 'Al', email: 'a@example.com', message: '  \n ' },
    ]) {
      const res = await call('send', input);
      expect(res.status).toBe(400);
      expect(JSON.stringify(await res.json())).toContain(contactMessages.missingDescription);
    }
    expect(await app.deps.db.select().from(contactTable)).toHaveLength(0);
    expect(await app.deps.db.select().from(customers)).toHaveLength(0);
    expect(await app.deps.db.select().from(outbox)).toHaveLength(0);
  });

  it('accepts a filled honeypot silently and keeps nothing', async () => {
    const res = await call('send', { name: 'Bot', email: 'bot@example.com', message: 'Buy now', website: 'https://spam.example' });
    expect(res.status).toBe(200);
    expect(await app.deps.db.select().from(contactTable)).toHaveLength(0);
    expect(await app.deps.db.select().from(outbox)).toHaveLength(0);
  });

  it('answers 429 with Retry-After after 5 messages from one address in 10 minutes', async () => {
    for (let i = 0; i < 5; i++) expect((await call('send', { name: `P${i}`, email: 'p@example.com', message: 'Hi' })).status).toBe(200);
    const refused = await call('send', { name: 'P5', email: 'p@example.com', message: 'Hi' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await app.deps.db.select().from(contactTable)).toHaveLength(5);
  });

  it('stores a business inquiry and queues the email to sales with the spec subject and fields', async () => {
    const res = await call('sendBusiness', {
      name: 'Dee Rivers',
      email: 'dee@corp.example',
      company: 'Rivers Title Co',
      phone: '555-010-2000',
      interest: 'workflow',
      message: 'We close 200 loans a month.',
    });
    expect(res.status).toBe(200);
    const [stored] = await app.deps.db.select().from(contactTable);
    expect(stored).toMatchObject({ kind: 'business', company: 'Rivers Title Co', interest: 'workflow' });
    const [mail] = await app.deps.db.select().from(outbox);
    const message = (mail!.payload as { message: { to: string; subject: string; text: string } }).message;
    expect(message.to).toBe('sales@notary.test');
    expect(message.subject).toBe('Business Solutions Inquiry from Dee Rivers at Rivers Title Co');
    for (const line of ['Name: Dee Rivers', 'Email: dee@corp.example', 'Company: Rivers Title Co', 'Phone: 555-010-2000', 'Interest: Workflow Integration', 'Message: We close 200 loans a month.']) {
      expect(message.text).toContain(line);
    }
  });

  it('requires a name and a valid email on the business form, and refuses an unknown interest', async () => {
    expect((await call('sendBusiness', { name: '', email: 'x@example.com' })).status).toBe(400);
    expect((await call('sendBusiness', { name: 'X', email: 'not-an-email' })).status).toBe(400);
    expect((await call('sendBusiness', { name: 'X', email: 'x@example.com', interest: 'crypto' })).status).toBe(400);
    expect((await call('sendBusiness', { name: 'X', email: 'x@example.com', interest: '' })).status).toBe(200);
  });
});
