import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactMessages, customers, outbox } from '../../src/server/db/schema.ts';
import { startTestApp, type TestServer } from '../helpers/app.ts';
import { dbKinds } from '../helpers/db.ts';

/**
 * A contact form sent before the page's script ran is posted by the browser
 * itself (urlencoded); it must be kept like the tRPC path keeps it.
 */
describe.each(dbKinds)('contact forms posted without script on %s', (kind) => {
  let app: TestServer;
  beforeAll(async () => {
    app = await startTestApp(kind, { PUBLIC_URL: 'http://127.0.0.1:3000' });
  });
  afterAll(() => app.close());

  const post = (path: string, fields: Record<string, string>, origin = 'http://127.0.0.1:3000') =>
    fetch(`${app.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin, 'sec-fetch-site': 'same-origin' },
      body: new URLSearchParams(fields),
    });

  it('stores the home form, writes the customer and the staff email, and sends the visitor back to a confirmation', async () => {
    const res = await post('/api/contact', { name: 'Grace Brewster Hopper', email: 'grace@example.com', phone: '', message: 'Can you notarize a power of attorney?', website: '' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/?contact=sent#contact');
    const [message] = await app.deps.db.select().from(contactMessages).where(eq(contactMessages.email, 'grace@example.com'));
    expect(message).toMatchObject({ kind: 'contact', message: 'Can you notarize a power of attorney?' });
    const [customer] = await app.deps.db.select().from(customers).where(eq(customers.id, message!.customerId!));
    expect(customer).toMatchObject({ firstName: 'Grace', lastName: 'Brewster Hopper' });
    expect(await app.deps.db.select().from(outbox)).not.toHaveLength(0);
  });

  it('answers missing fields with the notice and keeps nothing', async () => {
    const before = (await app.deps.db.select().from(contactMessages)).length;
    const res = await post('/api/contact', { name: ' ', email: 'x@example.com', message: '' });
    expect(res.headers.get('location')).toBe('/?contact=missing#contact');
    expect(await app.deps.db.select().from(contactMessages)).toHaveLength(before);
  });

  it('takes the business form to sales and confirms', async () => {
    const res = await post('/api/business-inquiry', { name: 'Ada', email: 'ada@firm.example', company: 'Firm', phone: '', interest: 'bulk', message: 'Volume pricing?' });
    expect(res.headers.get('location')).toBe('/business-solutions?inquiry=sent#business-contact');
    const rows = await app.deps.db.select().from(contactMessages).where(eq(contactMessages.kind, 'business'));
    expect(rows).toHaveLength(1);
  });

  it('keeps the document storage waiting list (plan as its interest) with its email to sales, and refuses it without a plan', async () => {
    const missing = await post('/api/waitlist', { name: 'Wes', email: 'wes@example.com', plan: '' });
    expect(missing.headers.get('location')).toBe('/document-management?waitlist=missing#waitlist');
    expect(await app.deps.db.select().from(contactMessages).where(eq(contactMessages.kind, 'waitlist'))).toHaveLength(0);
    const res = await post('/api/waitlist', { name: 'Wes Waiting', email: 'wes@example.com', plan: 'business-pro', website: '' });
    expect(res.headers.get('location')).toBe('/document-management?waitlist=sent#waitlist');
    const rows = await app.deps.db.select().from(contactMessages).where(eq(contactMessages.kind, 'waitlist'));
    expect(rows).toMatchObject([{ name: 'Wes Waiting', email: 'wes@example.com', interest: 'business-pro' }]);
    const mail = (await app.deps.db.select().from(outbox).where(eq(outbox.kind, 'waitlist'))).map((row) => row.payload as { message: { to: string; subject: string } });
    expect(mail).toMatchObject([{ message: { to: app.deps.config.SALES_EMAIL, subject: 'Document storage waiting list: Wes Waiting (Business Pro)' } }]);
  });

  it('refuses a cross-site post', async () => {
    const res = await post('/api/contact', { name: 'Mallory', email: 'm@example.com', message: 'hi' }, 'http://evil.example');
    expect(res.status).toBe(403);
  });
});
