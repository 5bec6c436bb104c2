import { resolveCustomerLink } from '../../src/server/features/customer-links/service.ts';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  bookingLockedMessage,
  bookingNotFoundMessage,
  selectTimeFirstMessage,
  slotBeyondWindowMessage,
  slotInPastMessage,
  slotOutOfHoursMessage,
  slotTakenMessage,
} from '../../src/shared/booking.ts';
import { formatDateInZone, formatTimeInZone } from '../../src/shared/time.ts';
import { auditLog, bookings, customers } from '../../src/server/db/schema.ts';
import {
  cancelBookingRecord,
  confirmBooking,
  getBookingView,
  markBookingOutcome,
  markPaymentFailed,
  markPaymentProcessing,
  moveBooking,
} from '../../src/server/features/booking/service.ts';
import { hashToken } from '../../src/server/tokens.ts';
import { slotsCacheMs } from '../../src/server/features/booking/slots.ts';
import { startTestApp, type TestServer } from '../helpers/app.ts';
import { dbKinds } from '../helpers/db.ts';
import { bookingClient, type BookingClient } from './booking-helpers.ts';
import { chicago } from '../helpers/bookings.ts';
import { pageBookings } from '../../src/server/features/console/repository.ts';
import { rejectionOf } from '../helpers/async.ts';

/** Wednesday March 10, 2027, 9:00 AM in Chicago (CST, UTC−6). */
const now = new Date('2027-03-10T15:00:00Z');
const contact = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '(515) 555-0100' };

describe.each(dbKinds)('booking API (%s)', (kind) => {
  let app: TestServer;
  let api: BookingClient;
  beforeAll(async () => {
    app = await startTestApp(kind, { BOOKING_SLOT_CAPACITY: '3', BOOKING_HOLD_MINUTES: '15', BOOKING_MIN_NOTICE_MINUTES: '60', BOOKING_WINDOW_DAYS: '60' });
    api = bookingClient(app.url);
  });
  afterAll(() => app.close());
  beforeEach(() => {
    app.deps.now = () => now;
  });

  const draft = async (timeZone = 'America/Chicago') => (await api.booking.start.mutate({ timeZone })).bookingId;
  const held = async (startsAt: Date) => {
    const bookingId = await draft();
    await api.booking.hold.mutate({ bookingId, startsAt, timeZone: 'America/Chicago' });
    return bookingId;
  };
  const confirm = (bookingId: string) => app.deps.db.transaction((tx) => confirmBooking(tx, app.deps, { bookingId }));

  describe('start and get', () => {
    it('creates a draft with a server-issued reference and the configured price', async () => {
      const { bookingId, reference } = await api.booking.start.mutate({ timeZone: 'Asia/Tokyo' });
      expect(reference).toMatch(/^NOTARY-[2-9A-HJKMNP-TV-Z]{8}$/);
      const view = await api.booking.get.query({ bookingId });
      expect(view).toMatchObject({ id: bookingId, reference, status: 'draft', startsAt: null, timeZone: 'Asia/Tokyo', priceCents: 2500, currency: 'usd', documents: [], contact: null, payment: null });
    });

    it('issues a different reference each time', async () => {
      const refs = await Promise.all(Array.from({ length: 10 }, () => api.booking.start.mutate({ timeZone: 'UTC' })));
      expect(new Set(refs.map((r) => r.reference)).size).toBe(10);
    });

    it('refuses an unknown time zone', async () => {
      const error = await rejectionOf(api.booking.start.mutate({ timeZone: 'Mars/Olympus_Mons' }));
      expect(error.code).toBe('BAD_REQUEST');
    });

    it('answers NOT_FOUND for an unknown booking and BAD_REQUEST (never 500) for a malformed id', async () => {
      const unknown = '00000000-0000-4000-8000-000000000000';
      for (const call of [
        () => api.booking.get.query({ bookingId: unknown }),
        () => api.booking.hold.mutate({ bookingId: unknown, startsAt: chicago('2027-03-12', '10:00'), timeZone: 'UTC' }),
        () => api.booking.saveContact.mutate({ bookingId: unknown, ...contact }),
        () => api.documents.createUpload.mutate({ bookingId: unknown, fileName: 'a.pdf', sizeBytes: 10, contentType: 'application/pdf' }),
        () => api.documents.remove.mutate({ bookingId: unknown, documentId: unknown }),
      ]) {
        expect(await rejectionOf(call())).toEqual({ code: 'NOT_FOUND', message: bookingNotFoundMessage, httpStatus: 404 });
      }
      for (const call of [
        () => api.booking.get.query({ bookingId: 'not-a-uuid' }),
        () => api.booking.get.query({ bookingId: "1' or '1'='1" }),
        () => api.booking.hold.mutate({ bookingId: 'x', startsAt: chicago('2027-03-12', '10:00'), timeZone: 'UTC' }),
      ]) {
        const error = await rejectionOf(call());
        expect(error.httpStatus).toBe(400);
      }
    });
  });

  describe('slots.list', () => {
    it('lists 30-minute starts from 8:00 AM to 10:30 PM Chicago with full capacity', async () => {
      const { slots } = await api.slots.list.query({ date: '2027-03-12', timeZone: 'America/Chicago' });
      expect(slots).toHaveLength(30);
      expect(slots.map((s) => formatTimeInZone(s.startsAt, 'America/Chicago')).slice(0, 3)).toEqual(['8:00 AM', '8:30 AM', '9:00 AM']);
      expect(formatTimeInZone(slots.at(-1)!.startsAt, 'America/Chicago')).toBe('10:30 PM');
      expect(slots.every((s) => s.remaining === 3 && s.available)).toBe(true);
      expect(slots[0]!.startsAt).toBeInstanceOf(Date);
    });

    it('keeps business hours on the spring-forward day 2027-03-14 (23-hour day)', async () => {
      const { slots } = await api.slots.list.query({ date: '2027-03-14', timeZone: 'America/Chicago' });
      expect(slots).toHaveLength(30);
      expect(slots[0]!.startsAt.toISOString()).toBe('2027-03-14T13:00:00.000Z'); // 8:00 AM CDT
      expect(slots.at(-1)!.startsAt.toISOString()).toBe('2027-03-15T03:30:00.000Z'); // 10:30 PM CDT
      // The day before is still on standard time.
      const before = await api.slots.list.query({ date: '2027-03-13', timeZone: 'America/Chicago' });
      expect(before.slots[0]!.startsAt.toISOString()).toBe('2027-03-13T14:00:00.000Z'); // 8:00 AM CST
    });

    it('keeps business hours on the fall-back day 2027-11-07 (25-hour day)', async () => {
      app.deps.now = () => new Date('2027-10-01T12:00:00Z');
      const { slots } = await api.slots.list.query({ date: '2027-11-07', timeZone: 'America/Chicago' });
      expect(slots).toHaveLength(30);
      expect(slots[0]!.startsAt.toISOString()).toBe('2027-11-07T14:00:00.000Z'); // 8:00 AM CST
      const saturday = await api.slots.list.query({ date: '2027-11-06', timeZone: 'America/Chicago' });
      expect(saturday.slots[0]!.startsAt.toISOString()).toBe('2027-11-06T13:00:00.000Z'); // 8:00 AM CDT
      for (const s of [...slots, ...saturday.slots]) {
        const time = formatTimeInZone(s.startsAt, 'America/Chicago');
        expect(time).toMatch(/^(8|9|10|11|12|1|2|3|4|5|6|7|8|9|10):(00|30) (AM|PM)$/);
      }
    });

    it("shows a Los Angeles visitor the same slots two hours earlier, across both DST changes", async () => {
      for (const date of ['2027-03-14', '2027-11-07']) {
        app.deps.now = () => new Date(`${date === '2027-03-14' ? '2027-03-01' : '2027-10-01'}T12:00:00Z`);
        const { slots } = await api.slots.list.query({ date, timeZone: 'America/Los_Angeles' });
        expect(slots).toHaveLength(30);
        expect(formatTimeInZone(slots[0]!.startsAt, 'America/Los_Angeles')).toBe('6:00 AM');
        expect(formatTimeInZone(slots.at(-1)!.startsAt, 'America/Los_Angeles')).toBe('8:30 PM');
        expect(slots.every((s) => formatDateInZone(s.startsAt, 'America/Los_Angeles') === formatDateInZone(slots[0]!.startsAt, 'America/Los_Angeles'))).toBe(true);
      }
    });

    it('gives a Tokyo visitor every business slot that falls on their own date, from two Chicago days', async () => {
      app.deps.now = () => new Date('2027-03-01T12:00:00Z');
      const { slots } = await api.slots.list.query({ date: '2027-03-14', timeZone: 'Asia/Tokyo' });
      // Tokyo's March 14 runs from 9:00 AM CST Saturday to 10:00 AM CDT Sunday in Chicago:
      // 28 Saturday starts (9:00 AM–10:30 PM) + 4 Sunday starts (8:00–9:30 AM).
      expect(slots).toHaveLength(32);
      expect(formatTimeInZone(slots[0]!.startsAt, 'Asia/Tokyo')).toBe('12:00 AM');
      expect(formatTimeInZone(slots[0]!.startsAt, 'America/Chicago')).toBe('9:00 AM');
      expect(formatTimeInZone(slots.at(-1)!.startsAt, 'America/Chicago')).toBe('9:30 AM');
      expect(new Set(slots.map((s) => formatDateInZone(s.startsAt, 'Asia/Tokyo')))).toEqual(new Set(['March 14, 2027']));
    });

    it('leaves out past slots and those inside the minimum notice', async () => {
      const { slots } = await api.slots.list.query({ date: '2027-03-10', timeZone: 'America/Chicago' });
      // Now is 9:00 AM with 60 minutes' notice: the first offered start is 10:00 AM.
      expect(formatTimeInZone(slots[0]!.startsAt, 'America/Chicago')).toBe('10:00 AM');
      expect(slots).toHaveLength(26);
      const yesterday = await api.slots.list.query({ date: '2027-03-09', timeZone: 'America/Chicago' });
      expect(yesterday.slots).toEqual([]);
    });

    it('offers nothing beyond the 60-day window', async () => {
      const lastDay = await api.slots.list.query({ date: '2027-05-09', timeZone: 'America/Chicago' });
      // The window ends 60 × 24 h after now: 10:00 AM CDT on May 9.
      expect(formatTimeInZone(lastDay.slots.at(-1)!.startsAt, 'America/Chicago')).toBe('10:00 AM');
      expect((await api.slots.list.query({ date: '2027-05-10', timeZone: 'America/Chicago' })).slots).toEqual([]);
    });

    it('refuses malformed dates and zones', async () => {
      expect((await rejectionOf(api.slots.list.query({ date: '2027-02-30', timeZone: 'America/Chicago' }))).code).toBe('BAD_REQUEST');
      expect((await rejectionOf(api.slots.list.query({ date: '03/12/2027', timeZone: 'America/Chicago' }))).code).toBe('BAD_REQUEST');
      expect((await rejectionOf(api.slots.list.query({ date: '2027-03-12', timeZone: 'Nowhere/Land' }))).code).toBe('BAD_REQUEST');
    });

    it('counts holds, paid bookings and processing payments against capacity; expired holds free themselves', async () => {
      const slot = chicago('2027-03-15', '11:00');
      const remaining = async () =>
        (await api.slots.list.query({ date: '2027-03-15', timeZone: 'America/Chicago' })).slots.find((s) => s.startsAt.getTime() === slot.getTime())!;
      const first = await held(slot);
      expect((await remaining()).remaining).toBe(2);
      const second = await held(slot);
      await app.deps.db.transaction((tx) => markPaymentProcessing(tx, app.deps, { bookingId: second }));
      await held(slot);
      expect(await remaining()).toMatchObject({ remaining: 0, available: false });

      await confirm(first);
      // 16 minutes later the third booking's hold has lapsed; the paid and processing ones still count.
      app.deps.now = () => new Date(now.getTime() + 16 * 60_000);
      expect(await remaining()).toMatchObject({ remaining: 1, available: true });
    });

    it('shares one answer per day for up to a second (a booking written by another node shows after it); this node’s holds at once', async () => {
      const slot = chicago('2027-03-17', '11:00');
      const remaining = async () =>
        (await api.slots.list.query({ date: '2027-03-17', timeZone: 'America/Chicago' })).slots.find((s) => s.startsAt.getTime() === slot.getTime())!.remaining;
      await app.deps.db.delete(bookings).where(eq(bookings.startsAt, slot)); // a retry starts clean
      const started = Date.now();
      expect(await remaining()).toBe(3);
      // Another node's booking: written to the database, not through this node's service.
      await app.deps.db.insert(bookings).values({ reference: 'NOTARY-CACHE001', status: 'confirmed', startsAt: slot, timeZone: 'America/Chicago', priceCents: 2500 });
      const asked = Date.now();
      const shared = await remaining();
      // Asked within the second, the shared answer; later (a machine too loaded), either.
      if (asked - started < slotsCacheMs) expect(shared).toBe(3);
      else expect([2, 3]).toContain(shared);
      // A second later by the clock, the list is read again.
      app.deps.now = () => new Date(now.getTime() + slotsCacheMs);
      expect(await remaining()).toBe(2);
      // A hold through this node shows at once.
      const bookingId = await draft();
      await api.booking.hold.mutate({ bookingId, startsAt: slot, timeZone: 'America/Chicago' });
      expect(await remaining()).toBe(1);
    });
  });

  describe('booking.hold', () => {
    it('reserves the slot for 15 minutes and moves the hold when another slot is chosen', async () => {
      const a = chicago('2027-03-16', '14:00');
      const b = chicago('2027-03-16', '14:30');
      const bookingId = await draft();
      const result = await api.booking.hold.mutate({ bookingId, startsAt: a, timeZone: 'Europe/Berlin' });
      expect(result).toEqual({ startsAt: a, holdExpiresAt: new Date(now.getTime() + 15 * 60_000) });
      expect(await api.booking.get.query({ bookingId })).toMatchObject({ status: 'held', startsAt: a, timeZone: 'Europe/Berlin' });

      await api.booking.hold.mutate({ bookingId, startsAt: b, timeZone: 'Europe/Berlin' });
      const { slots } = await api.slots.list.query({ date: '2027-03-16', timeZone: 'America/Chicago' });
      expect(slots.find((s) => s.startsAt.getTime() === a.getTime())!.remaining).toBe(3);
      expect(slots.find((s) => s.startsAt.getTime() === b.getTime())!.remaining).toBe(2);
    });

    it('audits the hold and each move with both times; a booking never counts against itself', async () => {
      const a = chicago('2027-03-24', '10:00');
      const b = chicago('2027-03-24', '10:30');
      const bookingId = await draft();
      await api.booking.hold.mutate({ bookingId, startsAt: a, timeZone: 'UTC' });
      await held(b);
      await held(b);
      await api.booking.hold.mutate({ bookingId, startsAt: b, timeZone: 'America/Chicago' });
      // b is full now, with this booking one of its three: choosing it again renews the hold.
      app.deps.now = () => new Date(now.getTime() + 60_000);
      expect(await api.booking.hold.mutate({ bookingId, startsAt: b, timeZone: 'America/Chicago' })).toEqual({
        startsAt: b,
        holdExpiresAt: new Date(now.getTime() + 16 * 60_000),
      });
      expect(await api.booking.get.query({ bookingId })).toMatchObject({ status: 'held', startsAt: b, timeZone: 'America/Chicago' });
      const entries = await app.deps.db
        .select({ action: auditLog.action, actorType: auditLog.actorType, actorId: auditLog.actorId, entityType: auditLog.entityType, data: auditLog.data })
        .from(auditLog)
        .where(and(eq(auditLog.entityId, bookingId), inArray(auditLog.action, ['booking.status_changed', 'booking.hold_moved'])))
        .orderBy(asc(auditLog.id));
      const entry = { actorType: 'customer', actorId: null, entityType: 'booking' };
      expect(entries).toEqual([
        { ...entry, action: 'booking.status_changed', data: { from: 'draft', to: 'held', startsAt: a.toISOString(), previousStartsAt: null } },
        { ...entry, action: 'booking.hold_moved', data: { startsAt: b.toISOString(), previousStartsAt: a.toISOString() } },
        { ...entry, action: 'booking.hold_moved', data: { startsAt: b.toISOString(), previousStartsAt: b.toISOString() } },
      ]);
      // A refused hold writes nothing.
      const other = await draft();
      expect(await rejectionOf(api.booking.hold.mutate({ bookingId: other, startsAt: b, timeZone: 'UTC' }))).toMatchObject({ code: 'CONFLICT', message: slotTakenMessage });
      expect(await app.deps.db.select().from(auditLog).where(and(eq(auditLog.entityId, other), eq(auditLog.action, 'booking.status_changed')))).toEqual([]);
      expect((await api.booking.get.query({ bookingId: other })).status).toBe('draft');
    });

    it("refuses a full slot with the spec's message, and lets the slot be taken again once a hold lapses", async () => {
      const slot = chicago('2027-03-17', '09:00');
      await held(slot);
      await held(slot);
      await held(slot);
      const late = await draft();
      expect(await rejectionOf(api.booking.hold.mutate({ bookingId: late, startsAt: slot, timeZone: 'UTC' }))).toEqual({
        code: 'CONFLICT',
        message: slotTakenMessage,
        httpStatus: 409,
      });
      app.deps.now = () => new Date(now.getTime() + 15 * 60_000 + 1);
      await expect(api.booking.hold.mutate({ bookingId: late, startsAt: slot, timeZone: 'UTC' })).resolves.toMatchObject({ startsAt: slot });
    });

    it('refuses past, too-soon, out-of-hours, off-grid and beyond-window times', async () => {
      const bookingId = await draft();
      const cases: [Date, string][] = [
        [chicago('2027-03-09', '10:00'), slotInPastMessage],
        [chicago('2027-03-10', '09:30'), slotInPastMessage], // inside the 60-minute notice
        [chicago('2027-03-12', '07:30'), slotOutOfHoursMessage],
        [chicago('2027-03-12', '23:00'), slotOutOfHoursMessage],
        [chicago('2027-03-12', '23:30'), slotOutOfHoursMessage],
        [chicago('2027-03-12', '10:15'), slotOutOfHoursMessage],
        [new Date(chicago('2027-03-12', '10:00').getTime() + 1000), slotOutOfHoursMessage],
        [chicago('2027-05-10', '10:00'), slotBeyondWindowMessage],
      ];
      for (const [startsAt, message] of cases) {
        expect(await rejectionOf(api.booking.hold.mutate({ bookingId, startsAt, timeZone: 'UTC' }))).toEqual({ code: 'BAD_REQUEST', message, httpStatus: 400 });
      }
      expect((await api.booking.get.query({ bookingId })).status).toBe('draft');
      // The edges themselves are bookable.
      await expect(api.booking.hold.mutate({ bookingId, startsAt: chicago('2027-03-10', '10:00'), timeZone: 'UTC' })).resolves.toBeTruthy();
      await expect(api.booking.hold.mutate({ bookingId, startsAt: chicago('2027-03-12', '22:30'), timeZone: 'UTC' })).resolves.toBeTruthy();
    });
  });

  describe('booking.saveContact', () => {
    it("validates with the spec's messages", async () => {
      const bookingId = await held(chicago('2027-03-18', '10:00'));
      const fieldErrors = async (input: Partial<typeof contact>) => {
        try {
          await api.booking.saveContact.mutate({ bookingId, ...contact, ...input });
        } catch (error) {
          return (error as { data: { fieldErrors: Record<string, string[]> } }).data.fieldErrors;
        }
        throw new Error('expected a validation error');
      };
      expect(await fieldErrors({ firstName: '', lastName: ' ', email: '', phone: '' })).toEqual({
        firstName: ['First name is required'],
        lastName: ['Last name is required'],
        email: ['Email is required'],
        phone: ['Phone number is required'],
      });
      expect(await fieldErrors({ email: 'ada@example', phone: '555-0100' })).toEqual({
        email: ['Please enter a valid email address'],
        phone: ['Please enter a valid phone number'],
      });
    });

    it('writes a customers row, attaches it and moves the booking to awaiting_payment; saving again updates it', async () => {
      const bookingId = await held(chicago('2027-03-18', '10:30'));
      const view = await api.booking.saveContact.mutate({ bookingId, ...contact });
      expect(view).toMatchObject({ status: 'awaiting_payment', contact });
      const [row] = await app.deps.db.select().from(bookings).where(eq(bookings.id, bookingId));
      const [saved] = await app.deps.db.select().from(customers).where(eq(customers.id, row!.customerId!));
      expect(saved).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '(515) 555-0100' });

      await api.booking.saveContact.mutate({ bookingId, ...contact, phone: '515 555 0199' });
      const [again] = await app.deps.db.select().from(bookings).where(eq(bookings.id, bookingId));
      expect(again!.customerId).toBe(row!.customerId);
      expect((await app.deps.db.select().from(customers).where(eq(customers.id, row!.customerId!)))[0]!.phone).toBe('515 555 0199');
    });

    it("keeps the console's search with the contact: found by the saved name and address, then by the new ones, a moved hold kept", async () => {
      const bookingId = await held(chicago('2027-03-18', '12:00'));
      const found = async (q: string) => (await pageBookings(app.deps.db, { search: q }, null, now, 50)).rows.map((r) => r.id);
      await api.booking.saveContact.mutate({ bookingId, ...contact, firstName: 'Grete', lastName: 'Hermann', email: 'grete.hermann@goettingen.example' });
      expect(await found('grete hermann')).toEqual([bookingId]);
      expect(await found('hermann@goettingen')).toEqual([bookingId]);

      await api.booking.saveContact.mutate({ bookingId, ...contact, firstName: 'Emmy', lastName: 'Noether', email: 'emmy.noether@erlangen.example' });
      await api.booking.hold.mutate({ bookingId, startsAt: chicago('2027-03-18', '12:30'), timeZone: 'America/Chicago' });
      expect(await found('emmy noether')).toEqual([bookingId]);
      expect(await found('noether@erlangen')).toEqual([bookingId]);
      expect(await found('grete hermann')).toEqual([]);
      expect(await found('hermann@goettingen')).toEqual([]);
    });

    it('needs a time first', async () => {
      const bookingId = await draft();
      expect(await rejectionOf(api.booking.saveContact.mutate({ bookingId, ...contact }))).toMatchObject({ code: 'BAD_REQUEST', message: selectTimeFirstMessage });
    });

    it('takes a lapsed hold again when the slot still has room, and refuses when it filled up', async () => {
      const slot = chicago('2027-03-18', '11:00');
      const mine = await held(slot);
      app.deps.now = () => new Date(now.getTime() + 20 * 60_000);
      const view = await api.booking.saveContact.mutate({ bookingId: mine, ...contact });
      expect(view.holdExpiresAt).toEqual(new Date(now.getTime() + 35 * 60_000));

      const other = await held(chicago('2027-03-18', '11:30'));
      app.deps.now = () => new Date(now.getTime() + 40 * 60_000);
      for (let i = 0; i < 3; i++) await held(chicago('2027-03-18', '11:30'));
      expect(await rejectionOf(api.booking.saveContact.mutate({ bookingId: other, ...contact }))).toMatchObject({ code: 'CONFLICT', message: slotTakenMessage });
    });
  });

  describe('status lifecycle (services used by payments, notifications and staff)', () => {
    it('confirms once, issues a manage token stored only as its hash, and audits every change', async () => {
      const bookingId = await held(chicago('2027-03-19', '15:00'));
      await api.booking.saveContact.mutate({ bookingId, ...contact });
      const { manageToken } = await confirm(bookingId);
      expect(manageToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(await confirm(bookingId)).toMatchObject({ manageToken: null });

      const [row] = await app.deps.db.select().from(bookings).where(eq(bookings.id, bookingId));
      expect(row).toMatchObject({ status: 'confirmed', holdExpiresAt: null, manageTokenHash: hashToken(manageToken!) });
      expect(JSON.stringify(row)).not.toContain(manageToken!);
      expect((await resolveCustomerLink(app.deps.db, manageToken!))?.bookingId).toBe(bookingId);
      expect(await resolveCustomerLink(app.deps.db, 'wrong')).toBeNull();

      const changes = await app.deps.db
        .select({ data: auditLog.data })
        .from(auditLog)
        .where(and(eq(auditLog.entityId, bookingId), eq(auditLog.action, 'booking.status_changed')))
        .orderBy(auditLog.id);
      expect(changes.map((c) => c.data)).toEqual([
        expect.objectContaining({ from: 'draft', to: 'held' }),
        expect.objectContaining({ from: 'held', to: 'awaiting_payment' }),
        expect.objectContaining({ from: 'awaiting_payment', to: 'confirmed' }),
      ]);
    });

    it('refuses changes to a paid booking and illegal transitions', async () => {
      const bookingId = await held(chicago('2027-03-19', '15:30'));
      await expect(
        app.deps.db.transaction((tx) => markBookingOutcome(tx, app.deps, { bookingId, outcome: 'completed', staffId: '00000000-0000-4000-8000-000000000001' })),
      ).rejects.toThrow(/cannot become completed/);
      await confirm(bookingId);
      for (const call of [
        () => api.booking.hold.mutate({ bookingId, startsAt: chicago('2027-03-19', '16:00'), timeZone: 'UTC' }),
        () => api.booking.saveContact.mutate({ bookingId, ...contact }),
      ]) {
        expect(await rejectionOf(call())).toMatchObject({ code: 'CONFLICT', message: bookingLockedMessage });
      }
      await app.deps.db.transaction((tx) => markBookingOutcome(tx, app.deps, { bookingId, outcome: 'no_show', staffId: '00000000-0000-4000-8000-000000000001' }));
      await expect(app.deps.db.transaction((tx) => cancelBookingRecord(tx, app.deps, { bookingId, reason: 'x', by: 'staff' }))).rejects.toThrow(/cannot become cancelled/);
    });

    it('confirms a payment that arrives after the hold lapsed and the slot filled, and flags it as overbooked', async () => {
      const slot = chicago('2027-03-20', '12:00');
      const late = await held(slot);
      app.deps.now = () => new Date(now.getTime() + 30 * 60_000);
      for (let i = 0; i < 3; i++) await held(slot);
      await confirm(late);
      expect((await getBookingView(app.deps.db, late))!.status).toBe('confirmed');
      const flags = await app.deps.db.select().from(auditLog).where(and(eq(auditLog.entityId, late), eq(auditLog.action, 'booking.overbooked')));
      expect(flags).toHaveLength(1);
      expect(flags[0]!.data).toMatchObject({ taken: 4, capacity: 3 });
    });

    it('cancelling frees the slot at once and is idempotent', async () => {
      const slot = chicago('2027-03-21', '13:00');
      const ids = [await held(slot), await held(slot), await held(slot)];
      await confirm(ids[0]!);
      const first = await app.deps.db.transaction((tx) => cancelBookingRecord(tx, app.deps, { bookingId: ids[0]!, reason: 'customer asked', by: 'customer' }));
      expect(first).toEqual({ alreadyCancelled: false, previousStatus: 'confirmed' });
      const again = await app.deps.db.transaction((tx) => cancelBookingRecord(tx, app.deps, { bookingId: ids[0]!, reason: 'again', by: 'customer' }));
      expect(again.alreadyCancelled).toBe(true);
      await expect(held(slot)).resolves.toBeTruthy();
    });

    it('moves a confirmed booking only into a slot with room', async () => {
      const full = chicago('2027-03-22', '08:00');
      for (let i = 0; i < 3; i++) await confirm(await held(full));
      const bookingId = await held(chicago('2027-03-22', '08:30'));
      await confirm(bookingId);
      const move = (startsAt: Date) => app.deps.db.transaction((tx) => moveBooking(tx, app.deps, { bookingId, startsAt }));
      await expect(move(full)).rejects.toMatchObject({ code: 'CONFLICT', message: slotTakenMessage });
      await expect(move(chicago('2027-03-22', '07:00'))).rejects.toMatchObject({ code: 'BAD_REQUEST', message: slotOutOfHoursMessage });
      const moved = await move(chicago('2027-03-22', '09:00'));
      expect(moved.previousStartsAt).toEqual(chicago('2027-03-22', '08:30'));
      expect((await getBookingView(app.deps.db, bookingId))!.startsAt).toEqual(chicago('2027-03-22', '09:00'));
    });

    it('returns a failed delayed payment to awaiting_payment with its slot held again', async () => {
      const bookingId = await held(chicago('2027-03-23', '10:00'));
      await api.booking.saveContact.mutate({ bookingId, ...contact });
      await app.deps.db.transaction((tx) => markPaymentProcessing(tx, app.deps, { bookingId }));
      expect((await getBookingView(app.deps.db, bookingId))!).toMatchObject({ status: 'payment_processing', holdExpiresAt: null });
      await app.deps.db.transaction((tx) => markPaymentFailed(tx, app.deps, { bookingId }));
      expect((await getBookingView(app.deps.db, bookingId))!).toMatchObject({ status: 'awaiting_payment', holdExpiresAt: new Date(now.getTime() + 15 * 60_000) });
    });
  });
});
