import { eq } from 'drizzle-orm';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings, outbox, payments } from '../../src/server/db/schema.ts';
import type { Deps } from '../../src/server/deps.ts';
import { cancelByCustomer, getManageView, rescheduleByCustomer } from '../../src/server/features/manage-booking/service.ts';
import { manageMessages } from '../../src/shared/manage-booking.ts';
import { site } from '../../src/shared/site.ts';
import { startTestApp, type TestServer } from '../helpers/app.ts';
import { dbKinds } from '../helpers/db.ts';
import { paymentClock } from '../helpers/payments.ts';
import { bookableSlot, bookingIn, slotAfter } from '../helpers/bookings.ts';

/** A paid, confirmed booking (bytes stored for downloads) and the manage token from its email. */
async function confirmedBooking(deps: Deps, startsAt: Date) {
  const booking = await bookingIn(deps, 'confirmed', { startsAt, storeBytes: true });
  return { ...booking, token: booking.manageToken! };
}

describe.each(dbKinds)('booking page and calendar on %s', (kind) => {
  let app: TestServer;
  let deps: Deps;
  let clock: Date;

  beforeAll(async () => {
    app = await startTestApp(kind, { PUBLIC_URL: 'https://notary.test' });
    clock = paymentClock;
    deps = { ...app.deps, now: () => clock };
    // The HTTP handlers run on the same clock as the services here.
    app.deps.now = () => clock;
  });
  afterAll(() => app.close());

  it('serves the .ics to the wizard (confirmed booking id) and to the manage link, and to no one else', async () => {
    const { bookingId, reference, token } = await confirmedBooking(deps, bookableSlot(clock));
    const plain = await fetch(`${app.url}/api/bookings/${bookingId}/calendar.ics`);
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toContain('text/calendar');
    expect(plain.headers.get('cache-control')).toBe('no-store');
    const event = new ICAL.Event(new ICAL.Component(ICAL.parse(await plain.text())).getFirstSubcomponent('vevent')!);
    expect(event.uid).toBe(`${bookingId}@notary.test`);
    expect(event.startDate.toJSDate().toISOString()).toBe(bookableSlot(clock).toISOString());
    expect(event.description).toContain(reference);
    expect(event.description).toContain(site.phone);
    expect(event.description).not.toContain('/booking/');

    const withToken = await fetch(`${app.url}/api/bookings/${bookingId}/calendar.ics?token=${token}`);
    expect(await withToken.text()).toContain(`https://notary.test/booking/${token}`);
    expect((await fetch(`${app.url}/api/bookings/${bookingId}/calendar.ics?token=wrong-token-wrong-token`)).status).toBe(404);

    const draft = await bookingIn(deps, 'awaiting_payment', { startsAt: slotAfter(clock, 4, 9) });
    expect((await fetch(`${app.url}/api/bookings/${draft.bookingId}/calendar.ics`)).status).toBe(404);
    expect((await fetch(`${app.url}/api/bookings/not-a-uuid/calendar.ics`)).status).toBe(404);
  });

  it('shows the booking and streams its documents only to the manage link', async () => {
    const mine = await confirmedBooking(deps, bookableSlot(clock));
    const other = await confirmedBooking(deps, slotAfter(clock, 2, 11));
    const view = await getManageView(deps, deps.db, mine.token);
    expect(view).toMatchObject({ reference: mine.reference, status: 'confirmed', timeZone: 'America/New_York', beforeCutoff: true, canReschedule: true, canCancel: true, refundOnCancelCents: 2500 });
    expect(view.payment).toMatchObject({ amountCents: 2500, refundedCents: 0, status: 'succeeded' });
    const [doc] = view.documents;
    const download = await fetch(`${app.url}/api/manage/documents/${doc!.id}?token=${mine.token}`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toContain('attachment; filename="affidavit.pdf"');
    expect(await download.text()).toBe('%PDF-1.4 test document');
    // Someone else's link does not open my document; no link opens nothing.
    expect((await fetch(`${app.url}/api/manage/documents/${doc!.id}?token=${other.token}`)).status).toBe(404);
    expect((await fetch(`${app.url}/api/manage/documents/${doc!.id}`)).status).toBe(404);
    await expect(getManageView(deps, deps.db, 'x'.repeat(43))).rejects.toThrow(manageMessages.notFound);
  });

  it('reschedules to a free slot more than 24 hours ahead, without a new payment, and emails the new time', async () => {
    const { bookingId, token } = await confirmedBooking(deps, bookableSlot(clock));
    await expect(rescheduleByCustomer(deps, { token, startsAt: slotAfter(clock, 1, 9) })).rejects.toThrow(manageMessages.newTimeTooSoon);
    const target = slotAfter(clock, 3, 15);
    const view = await rescheduleByCustomer(deps, { token, startsAt: target });
    expect(view.startsAt).toEqual(target);
    expect(view.status).toBe('confirmed');
    expect(await deps.db.select().from(payments).where(eq(payments.bookingId, bookingId))).toHaveLength(1);
    const mails = await deps.db.select().from(outbox).where(eq(outbox.kind, 'booking_rescheduled'));
    const message = (mails.at(-1)!.payload as { message: { text: string; attachments: { content: string }[] } }).message;
    expect(message.text).toContain('New date and time');
    expect(message.attachments[0]!.content).toContain(`UID:${bookingId}@notary.test`);
  });

  it('cancels more than 24 hours ahead with a full refund through the provider', async () => {
    const { bookingId, token } = await confirmedBooking(deps, bookableSlot(clock));
    const view = await cancelByCustomer(deps, { token });
    expect(view.status).toBe('cancelled');
    expect(view.payment).toMatchObject({ refundedCents: 2500, status: 'refunded' });
    const [payment] = await deps.db.select().from(payments).where(eq(payments.bookingId, bookingId));
    expect(payment!.providerRefundId).toBeTruthy();
    const [cancelMail] = await deps.db.select().from(outbox).where(eq(outbox.dedupeKey, `booking-cancelled:${bookingId}`));
    expect((cancelMail!.payload as { message: { text: string } }).message.text).toContain('A refund of $25.00 has been issued');
    // A second press changes nothing.
    await expect(cancelByCustomer(deps, { token })).rejects.toThrow(manageMessages.notChangeable);
  });

  it('cancels within 24 hours without a refund, and no longer moves the appointment', async () => {
    const soon = slotAfter(clock, 1, 10);
    expect(soon.getTime() - clock.getTime()).toBeLessThan(24 * 3600_000);
    const { bookingId, token } = await confirmedBooking(deps, soon);
    const before = await getManageView(deps, deps.db, token);
    expect(before).toMatchObject({ beforeCutoff: false, canReschedule: false, canCancel: true, refundOnCancelCents: 0 });
    await expect(rescheduleByCustomer(deps, { token, startsAt: slotAfter(clock, 5, 10) })).rejects.toThrow(manageMessages.tooLateToMove);
    const view = await cancelByCustomer(deps, { token });
    expect(view.status).toBe('cancelled');
    const [payment] = await deps.db.select().from(payments).where(eq(payments.bookingId, bookingId));
    expect(payment).toMatchObject({ refundedCents: 0, status: 'succeeded', providerRefundId: null });
    const [booking] = await deps.db.select().from(bookings).where(eq(bookings.id, bookingId));
    expect(booking!.cancelledAt).toEqual(clock);
    const [cancelMail] = await deps.db.select().from(outbox).where(eq(outbox.dedupeKey, `booking-cancelled:${bookingId}`));
    expect((cancelMail!.payload as { message: { text: string } }).message.text).toContain('no refund was issued');
  });
});
