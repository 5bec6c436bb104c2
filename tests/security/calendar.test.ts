import { execFileSync } from 'node:child_process';
import { Readable } from 'node:stream';
import { addDays } from 'date-fns';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox } from '../../src/server/db/schema.ts';
import type { Deps } from '../../src/server/deps.ts';
import { openConfirmationLink as openManageToken } from '../../src/server/features/customer-links/service.ts';
import { cancelByCustomer, rescheduleByCustomer } from '../../src/server/features/manage-booking/service.ts';
import { confirmTestCard } from '../../src/server/features/payments/service.ts';
import { site } from '../../src/shared/site.ts';
import { startTestApp, type TestServer } from '../helpers/app.ts';
import { dbKinds } from '../helpers/db.ts';
import { paymentClock } from '../helpers/payments.ts';
import { bookableSlot, bookingIn } from '../helpers/bookings.ts';

interface ParsedEvent {
  method: string;
  uid: string;
  sequence: number;
  status: string;
  organizer: string;
  organizerCn: string;
  start: string;
}

/** Parses .ics text with python3-icalendar (a real, independent parser), one event per file. */
function parseWithIcalendar(files: string[]): ParsedEvent[] {
  const script = `
import json, sys
from icalendar import Calendar
out = []
for text in json.load(sys.stdin):
    cal = Calendar.from_ical(text)
    ev = cal.walk('VEVENT')[0]
    org = ev.get('ORGANIZER')
    out.append({'method': str(cal.get('METHOD')), 'uid': str(ev.get('UID')), 'sequence': int(ev.get('SEQUENCE')),
                'status': str(ev.get('STATUS')), 'organizer': str(org), 'organizerCn': str(org.params.get('CN')) if org is not None else '',
                'start': ev.decoded('DTSTART').isoformat()})
print(json.dumps(out))`;
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', script], { input: JSON.stringify(files) }).toString()) as ParsedEvent[];
}

/**
 * Calendar invitations (RFC 5546 PUBLISH): a client keeps the copy with the
 * highest SEQUENCE, so the sequence must strictly increase with each change of
 * the booking (a counter kept with it — two changes in the same second must
 * not tie, as a clock-based sequence did), and a PUBLISH names its ORGANIZER.
 */
describe.each(dbKinds)('.ics ORGANIZER and SEQUENCE (%s)', (kind) => {
  let app: TestServer;
  let deps: Deps;
  beforeAll(async () => {
    app = await startTestApp(kind, { PUBLIC_URL: 'https://notary.test' });
    deps = { ...app.deps, now: () => paymentClock };
    app.deps.now = () => paymentClock;
  });
  afterAll(() => app.close());

  it('confirm → reschedule → reschedule → cancel, all within the same second: SEQUENCE 0, 1, 2, 3; ORGANIZER is the business', async () => {
    const { bookingId } = await bookingIn(deps, 'awaiting_payment');
    await deps.storage.put(`${bookingId}/affidavit.pdf`, Readable.from(Buffer.from('%PDF-1.4 test')), { contentType: 'application/pdf' });
    await confirmTestCard(deps, { bookingId, number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123', name: 'Grace Hopper', email: 'grace@example.com' });
    const token = (await openManageToken(deps.db, deps, bookingId))!;
    const first = bookableSlot(paymentClock);
    await rescheduleByCustomer(deps, { token, startsAt: addDays(first, 1) });
    await rescheduleByCustomer(deps, { token, startsAt: addDays(first, 2) });
    const download = await (await fetch(`${app.url}/api/bookings/${bookingId}/calendar.ics`)).text();
    await cancelByCustomer(deps, { token });

    const rows = await deps.db.select({ kind: outbox.kind, payload: outbox.payload, createdAt: outbox.createdAt }).from(outbox);
    const customerIcs = rows
      .filter((r) => ['booking_confirmation', 'booking_rescheduled', 'booking_cancelled'].includes(r.kind))
      .map((r) => (r.payload as { message: { attachments?: { content: string }[] } }).message.attachments?.[0]?.content)
      .filter((c): c is string => typeof c === 'string' && c.includes(bookingId));
    const events = parseWithIcalendar([...customerIcs, download]);
    const mailed = events.slice(0, -1);
    expect(mailed.map((e) => e.sequence).sort((a, b) => a - b)).toEqual([0, 1, 2, 3]);
    expect(mailed.find((e) => e.sequence === 3)!.status).toBe('CANCELLED');
    expect(events.at(-1)!.sequence).toBe(2); // the download after the second move
    for (const event of events) {
      expect(event.method).toBe('PUBLISH');
      expect(event.uid).toBe(`${bookingId}@notary.test`);
      expect(event.organizer.toLowerCase()).toBe(`mailto:${site.email}`);
      expect(event.organizerCn).toBe(site.legalName);
    }
    const [row] = await deps.db.select().from(outbox).where(eq(outbox.kind, 'booking_cancelled'));
    expect(row).toBeDefined();
  });
});
