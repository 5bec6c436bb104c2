import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { addDays, localDateOf, parseIsoDate, toIsoDate } from '../../src/shared/time.ts';
import { baseUrl } from './browser.ts';
import { waitForMail } from './mailbox.ts';

/**
 * A confirmed, paid booking on the shared server, made through the same HTTP
 * calls the wizard makes (test payment provider); the manage link is read from
 * the confirmation email the server wrote.
 */
const zone = 'America/Chicago';

export async function trpc<T>(procedure: string, input: unknown, method: 'query' | 'mutation' = 'mutation'): Promise<T> {
  const url = `${baseUrl()}/trpc/${procedure}`;
  const res =
    method === 'query'
      ? await fetch(`${url}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`)
      : await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ json: input }) });
  const body = (await res.json()) as { result?: { data: { json: T } }; error?: unknown };
  if (!res.ok) throw new Error(`${procedure}: ${res.status} ${JSON.stringify(body.error)}`);
  return body.result!.data.json;
}

/** The first free slot on `date` or the days after it (at most `days` of them). */
async function firstSlot(fromDaysAhead: number, days: number): Promise<{ startsAt: string }> {
  for (let d = fromDaysAhead; d < fromDaysAhead + days; d++) {
    const date = toIsoDate(addDays(parseIsoDate(localDateOf(new Date(), zone)), d));
    const slots = await trpc<{ slots: { startsAt: string; available: boolean }[] }>('slots.list', { date, timeZone: zone }, 'query');
    const slot = slots.slots.find((s) => s.available);
    if (slot) return slot;
  }
  throw new Error('no free slot');
}

/**
 * `soonest`: the first free slot from now on (today's or tomorrow's: slots run 8 AM to
 * 10:30 PM Central, so it is always within the 24 hours that open the identity questions).
 */
export async function confirmedBookingWithManageLink(options: { daysAhead?: number; fileName?: string; soonest?: boolean } = {}): Promise<{ bookingId: string; reference: string; manageUrl: string }> {
  const { bookingId, reference } = await trpc<{ bookingId: string; reference: string }>('booking.start', { timeZone: zone });
  const bytes = readFileSync(path.resolve('tests/fixtures/sample.pdf'));
  const upload = await trpc<{ uploadUrl: string }>('documents.createUpload', { bookingId, fileName: options.fileName ?? 'lease-agreement.pdf', sizeBytes: bytes.length, contentType: 'application/pdf' });
  const put = await fetch(new URL(upload.uploadUrl, baseUrl()), { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: bytes });
  expect(put.status).toBe(201);
  const slot = options.soonest ? await firstSlot(0, 2) : await firstSlot(options.daysAhead ?? 3, 1);
  await trpc('booking.hold', { bookingId, startsAt: slot.startsAt, timeZone: zone });
  await trpc('booking.saveContact', { bookingId, firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com', phone: '(555) 010-2030' });
  await trpc('payments.confirmTestCard', { bookingId, number: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', name: 'Grace Hopper', email: 'grace@example.com' });
  const mail = await waitForMail((m) => m.headers.subject === `Your notary appointment is confirmed (${reference})`);
  const manageUrl = /https?:\/\/\S+\/booking\/[A-Za-z0-9_-]+/.exec(mail.text)![0];
  return { bookingId, reference, manageUrl };
}

