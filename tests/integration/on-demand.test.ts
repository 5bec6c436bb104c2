import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bookings, documents, notaryAvailability, onDemandQueue, outbox, payments, staffUsers } from '../../src/server/db/schema.ts';
import { cancelBookingRecord, chooseOnDemand, markBookingOutcome, saveContact, startBooking } from '../../src/server/features/booking/service.ts';
import { getManageView, rescheduleByCustomer } from '../../src/server/features/manage-booking/service.ts';
import { openConfirmationLink } from '../../src/server/features/customer-links/service.ts';
import { confirmTestCard, createPaymentIntent } from '../../src/server/features/payments/service.ts';
import * as onDemand from '../../src/server/features/on-demand/service.ts';
import { resolveParticipant } from '../../src/server/features/session/room-service.ts';
import { getSessionView } from '../../src/server/features/session/view-service.ts';
import type { StaffIdentity } from '../../src/server/features/staff/session.ts';
import { awayGraceMs, notaryDropMs, onDemandMessages, waitingIdentityLabel } from '../../src/shared/on-demand.ts';
import { identityConfirmed, kbaPassed } from '../helpers/identity.ts';
import { createTestDeps, type TestContext } from '../helpers/app.ts';
import { rejectionOf } from '../helpers/async.ts';
import { bookableSlot, testCard } from '../helpers/bookings.ts';
import { dbKinds } from '../helpers/db.ts';
import { createStaffUser } from '../helpers/staff.ts';

/** Notarize now (issue 28, decision 110): the line, on both databases. */
describe.each(dbKinds)('the on-demand line (%s)', (kind) => {
  let ctx: TestContext;
  let clock: Date;
  const tick = (ms: number) => (clock = new Date(clock.getTime() + ms));

  beforeAll(async () => {
    ctx = await createTestDeps(kind, { ON_DEMAND_MAX_WAIT_MINUTES: '15', BOOKING_MIN_NOTICE_MINUTES: '60' });
    clock = new Date('2027-03-10T15:00:00Z');
    ctx.deps.now = () => clock;
  });
  afterAll(() => ctx.close());
  beforeEach(async () => {
    // Each test starts with nobody on duty and nobody in line (earlier bookings stay, out of the line).
    await ctx.deps.db.update(notaryAvailability).set({ onDuty: false });
    await ctx.deps.db.update(onDemandQueue).set({ status: 'closed' });
    tick(24 * 3600_000);
  });

  async function notary(name: string, onDuty = true): Promise<StaffIdentity> {
    const user = await createStaffUser(ctx.deps, { role: 'notary', name });
    await ctx.deps.db.insert(notaryAvailability).values({ staffId: user.id, weekly: [], onDuty });
    return { user: { id: user.id, email: user.email, name, role: 'notary', timeZone: 'America/Chicago' }, sessionId: 'test' };
  }

  /** A customer through the wizard's on-demand path: upload, Notarize now, contact, pay. Returns their manage token. */
  async function customerInLine(email = 'grace@example.com'): Promise<{ bookingId: string; token: string }> {
    const { bookingId } = await startBooking(ctx.deps, { timeZone: 'America/New_York' });
    await ctx.deps.db.insert(documents).values({ bookingId, originalName: 'deed.pdf', contentType: 'application/pdf', sizeBytes: 10, storageKey: `${bookingId}/deed.pdf`, status: 'stored', scanStatus: 'skipped' });
    await chooseOnDemand(ctx.deps, { bookingId });
    await saveContact(ctx.deps, { bookingId, firstName: 'Grace', lastName: 'Hopper', email, phone: '(555) 010-2030' });
    await confirmTestCard(ctx.deps, { bookingId, ...testCard, email });
    return { bookingId, token: (await openConfirmationLink(ctx.deps.db, ctx.deps, bookingId))! };
  }

  const entry = async (bookingId: string) => (await ctx.deps.db.select().from(onDemandQueue).where(eq(onDemandQueue.bookingId, bookingId)))[0]!;
  const bookingRow = async (bookingId: string) => (await ctx.deps.db.select().from(bookings).where(eq(bookings.id, bookingId)))[0]!;

  it('refuses Notarize now and payment while nobody is on duty, and offers the next scheduled time', async () => {
    const { bookingId } = await startBooking(ctx.deps, { timeZone: 'America/New_York' });
    expect((await rejectionOf(chooseOnDemand(ctx.deps, { bookingId }))).message).toBe(onDemandMessages.nobodyOnDuty);
    const offer = await onDemand.availability(ctx.deps);
    expect(offer).toMatchObject({ availableNow: 0, onDuty: 0 });
    expect(offer.nextScheduled).toBeInstanceOf(Date);
    expect(await onDemand.onDemandOffered(ctx.deps)).toBe(false);

    // Chosen while someone was on duty; they went off duty before the visitor paid: no payment is taken.
    const nora = await notary('Nora');
    await ctx.deps.db.insert(documents).values({ bookingId, originalName: 'a.pdf', contentType: 'application/pdf', sizeBytes: 10, storageKey: `${bookingId}/a.pdf`, status: 'stored', scanStatus: 'skipped' });
    await chooseOnDemand(ctx.deps, { bookingId });
    await saveContact(ctx.deps, { bookingId, firstName: 'Ada', lastName: 'L', email: 'ada@example.com', phone: '(555) 010-2030' });
    await ctx.deps.db.update(notaryAvailability).set({ onDuty: false }).where(eq(notaryAvailability.staffId, nora.user.id));
    expect((await rejectionOf(createPaymentIntent(ctx.deps, { bookingId }))).message).toBe(onDemandMessages.nobodyOnDuty);
    expect(await ctx.deps.db.select().from(payments).where(eq(payments.bookingId, bookingId))).toHaveLength(0);
  });

  it('puts a paid customer in line with a position and an estimate; Accept takes the oldest and opens both rooms', async () => {
    const nora = await notary('Nora');
    expect(await onDemand.availability(ctx.deps)).toMatchObject({ availableNow: 1, onDuty: 1, nextScheduled: null });
    const first = await customerInLine('first@example.com');
    tick(1000);
    const second = await customerInLine('second@example.com');
    expect((await bookingRow(first.bookingId)).status).toBe('confirmed');
    // The wizard's way into the lobby, and the booking page's: only while in line.
    expect(await onDemand.lobbyLink(ctx.deps, first.bookingId)).toEqual({ path: `/booking/${encodeURIComponent(first.token)}/session` });
    expect(await getManageView(ctx.deps, ctx.deps.db, first.token)).toMatchObject({ onDemand: 'in_line', canJoinSession: true });
    expect(await onDemand.lobby(ctx.deps, first.token)).toEqual({ state: 'waiting', position: 1, estimatedMinutes: 5 });
    expect(await onDemand.lobby(ctx.deps, second.token)).toEqual({ state: 'waiting', position: 2, estimatedMinutes: 10 });
    const seen = await onDemand.waitingCustomers(ctx.deps, nora);
    expect(seen.onDuty).toBe(true);
    expect(seen.waiting.map((w) => w.reference)).toEqual([(await bookingRow(first.bookingId)).reference, (await bookingRow(second.bookingId)).reference]);
    // Where each stands with proving who they are: nothing yet, then the first verified whole, the second the questions only.
    expect(seen.waiting.map((w) => waitingIdentityLabel(w.identity))).toEqual(['ID not verified yet, identity questions not started', 'ID not verified yet, identity questions not started']);
    await identityConfirmed(ctx.deps, first.bookingId, nora.user.id);
    await kbaPassed(ctx.deps, second.bookingId);
    const proving = await onDemand.waitingCustomers(ctx.deps, nora);
    expect(proving.waiting.map((w) => w.identity)).toEqual([
      { idVerified: true, questions: 'passed' },
      { idVerified: false, questions: 'passed' },
    ]);
    expect(proving.waiting.map((w) => waitingIdentityLabel(w.identity))).toEqual(['Identity verified', 'ID not verified yet, identity questions passed']);

    // Both keep their lobby open (its heartbeat) for three minutes.
    for (let i = 0; i < 3; i++) {
      tick(60_000);
      for (const c of [first, second]) await onDemand.lobby(ctx.deps, c.token);
    }
    expect(await onDemand.accept(ctx.deps, nora)).toEqual({ bookingId: first.bookingId });
    // A second click (or tab) gives the same call back, not the next customer.
    expect(await onDemand.accept(ctx.deps, nora)).toEqual({ bookingId: first.bookingId });
    const accepted = await bookingRow(first.bookingId);
    expect(accepted).toMatchObject({ notaryId: nora.user.id, startsAt: clock });
    expect(await onDemand.lobby(ctx.deps, first.token)).toEqual({ state: 'accepted' });
    // The estimate follows the recent pick-up (3 minutes and a second, rounded up), the line moved up, the notary is busy.
    expect(await onDemand.lobby(ctx.deps, second.token)).toEqual({ state: 'waiting', position: 1, estimatedMinutes: 4 });
    expect(await onDemand.availability(ctx.deps)).toMatchObject({ availableNow: 0, onDuty: 1 });
    // Both are let into the room now: the customer by token, the notary as the booking's notary.
    const customer = await resolveParticipant(ctx.deps, { token: first.token }, undefined);
    expect(customer.participant.role).toBe('customer');
    const view = await getSessionView(ctx.deps, customer.participant, customer.booking, { token: first.token });
    expect(view).toMatchObject({ open: true, kind: 'on_demand', notaryName: 'Nora' });
  });

  it('gives each customer to exactly one notary when many accept at once', async () => {
    const team = await Promise.all(Array.from({ length: 6 }, (_, i) => notary(`N${i}`)));
    const line = [];
    for (let i = 0; i < 4; i++) {
      line.push(await customerInLine(`c${i}@example.com`));
      tick(1000);
    }
    const results = await Promise.all(team.map((n) => onDemand.accept(ctx.deps, n)));
    const taken = results.map((r) => r.bookingId).filter((id): id is string => id !== null);
    expect(taken.sort()).toEqual(line.map((c) => c.bookingId).sort());
    expect(results.filter((r) => r.bookingId === null)).toHaveLength(2);
    for (const c of line) {
      const row = await entry(c.bookingId);
      expect(row.status).toBe('accepted');
      expect((await bookingRow(c.bookingId)).notaryId).toBe(row.notaryId);
    }
    const servers = await Promise.all(line.map(async (c) => (await entry(c.bookingId)).notaryId));
    expect(new Set(servers).size).toBe(4);
  });

  it('keeps a closed tab’s place for two minutes, then passes over it and puts it at the end on return', async () => {
    const nora = await notary('Nora');
    const away = await customerInLine('away@example.com');
    tick(1000);
    const here = await customerInLine('here@example.com');
    tick(awayGraceMs - 5_000); // the first closed their tab; the second keeps polling
    await onDemand.lobby(ctx.deps, here.token);
    expect(await onDemand.lobby(ctx.deps, here.token)).toMatchObject({ position: 2 });
    tick(10_000); // past the grace for the first
    await onDemand.sweep(ctx.deps);
    expect((await entry(away.bookingId)).status).toBe('away');
    expect(await onDemand.lobby(ctx.deps, here.token)).toMatchObject({ position: 1 });
    // Back: at the end of the line, still waiting; Accept takes the one who stayed.
    expect(await onDemand.lobby(ctx.deps, away.token)).toMatchObject({ state: 'waiting', position: 2 });
    expect(await onDemand.accept(ctx.deps, nora)).toEqual({ bookingId: here.bookingId });
  });

  it('puts a dropped notary’s customer back at the front of the line', async () => {
    const [nora, otto] = [await notary('Nora'), await notary('Otto')];
    const dropped = await customerInLine('dropped@example.com');
    tick(1000);
    const next = await customerInLine('next@example.com');
    expect(await onDemand.accept(ctx.deps, nora)).toEqual({ bookingId: dropped.bookingId });
    // Nora's browser goes silent before the session starts; the other customer keeps waiting.
    tick(notaryDropMs + 1000);
    await onDemand.lobby(ctx.deps, next.token);
    const swept = await onDemand.sweep(ctx.deps);
    expect(swept.requeued).toEqual([dropped.bookingId]);
    expect(await bookingRow(dropped.bookingId)).toMatchObject({ notaryId: null, startsAt: null, status: 'confirmed' });
    expect(await onDemand.lobby(ctx.deps, dropped.token)).toMatchObject({ state: 'waiting', position: 1 });
    expect(await onDemand.lobby(ctx.deps, next.token)).toMatchObject({ state: 'waiting', position: 2 });
    expect(await onDemand.accept(ctx.deps, otto)).toEqual({ bookingId: dropped.bookingId });
    // A notary who keeps the call alive (heartbeat) keeps it.
    await onDemand.accept(ctx.deps, nora).then((r) => expect(r.bookingId).toBe(next.bookingId));
    tick(notaryDropMs - 5_000);
    await onDemand.notaryHeartbeat(ctx.deps, nora, next.bookingId);
    await onDemand.notaryHeartbeat(ctx.deps, otto, dropped.bookingId);
    tick(10_000);
    expect((await onDemand.sweep(ctx.deps)).requeued).toEqual([]);
    // A call that ended (here: completed) is over, not dropped, however long the notary is silent.
    await ctx.deps.db.transaction((tx) => markBookingOutcome(tx, ctx.deps, { bookingId: next.bookingId, outcome: 'completed', staffId: nora.user.id }));
    tick(notaryDropMs + 1000);
    await onDemand.notaryHeartbeat(ctx.deps, otto, dropped.bookingId);
    expect((await onDemand.sweep(ctx.deps)).requeued).toEqual([]);
    expect((await entry(next.bookingId)).status).toBe('accepted');
  });

  it('times out after ON_DEMAND_MAX_WAIT_MINUTES: staff are emailed, the customer gets a full refund or a scheduled time', async () => {
    await notary('Nora');
    const refundMe = await customerInLine('refund@example.com');
    const scheduleMe = await customerInLine('schedule@example.com');
    tick(14 * 60_000);
    await onDemand.lobby(ctx.deps, refundMe.token);
    await onDemand.lobby(ctx.deps, scheduleMe.token);
    expect((await onDemand.sweep(ctx.deps)).timedOut).toEqual([]);
    tick(61_000);
    expect((await onDemand.sweep(ctx.deps)).timedOut.sort()).toEqual([refundMe.bookingId, scheduleMe.bookingId].sort());
    expect(await onDemand.lobby(ctx.deps, refundMe.token)).toEqual({ state: 'timed_out', refunded: false });
    const mails = await ctx.deps.db.select().from(outbox).where(eq(outbox.kind, 'on_demand_timed_out'));
    expect(mails.map((m) => m.dedupeKey).sort()).toEqual([`on-demand-timed-out:${refundMe.bookingId}`, `on-demand-timed-out:${scheduleMe.bookingId}`].sort());

    // Refund: cancelled, paid back in full; a second click changes nothing.
    expect(await onDemand.refundTimedOut(ctx.deps, refundMe.token)).toEqual({ state: 'timed_out', refunded: true });
    expect(await onDemand.refundTimedOut(ctx.deps, refundMe.token)).toEqual({ state: 'timed_out', refunded: true });
    const [payment] = await ctx.deps.db.select().from(payments).where(eq(payments.bookingId, refundMe.bookingId));
    expect(payment).toMatchObject({ status: 'refunded', refundedCents: payment!.amountCents });
    expect((await bookingRow(refundMe.bookingId)).status).toBe('cancelled');
    expect(await onDemand.lobby(ctx.deps, refundMe.token)).toEqual({ state: 'timed_out', refunded: true });

    // A scheduled time instead, from the booking page: the booking becomes a scheduled one, leaves the line, and is emailed.
    expect(await getManageView(ctx.deps, ctx.deps.db, scheduleMe.token)).toMatchObject({ onDemand: 'timed_out', canReschedule: true, startsAt: null });
    const startsAt = bookableSlot(clock);
    await rescheduleByCustomer(ctx.deps, { token: scheduleMe.token, startsAt });
    expect(await ctx.deps.db.select({ id: outbox.id }).from(outbox).where(eq(outbox.kind, 'booking_rescheduled'))).toHaveLength(1);
    expect(await bookingRow(scheduleMe.bookingId)).toMatchObject({ kind: 'scheduled', startsAt, status: 'confirmed' });
    expect(await entry(scheduleMe.bookingId)).toMatchObject({ status: 'closed', resolution: 'schedule' });
    expect(await onDemand.lobby(ctx.deps, scheduleMe.token)).toEqual({ state: 'closed' });
    // Nobody refunds a customer still waiting.
    const waiting = await customerInLine('waiting@example.com');
    expect((await rejectionOf(onDemand.refundTimedOut(ctx.deps, waiting.token))).message).toBe(onDemandMessages.notInLine);
    // Nor hands out the link of a booking no longer in line.
    expect((await rejectionOf(onDemand.lobbyLink(ctx.deps, refundMe.bookingId))).message).toBe(onDemandMessages.notInLine);
  });

  it('refuses Accept to a notary off duty, and passes over a booking cancelled while in line', async () => {
    const off = await notary('Off', false);
    const on = await notary('On');
    const cancelled = await customerInLine('cancelled@example.com');
    tick(1000);
    const next = await customerInLine('next@example.com');
    expect((await rejectionOf(onDemand.accept(ctx.deps, off))).message).toBe(onDemandMessages.offDutyCannotAccept);
    await ctx.deps.db.transaction((tx) => cancelBookingRecord(tx, ctx.deps, { bookingId: cancelled.bookingId, reason: 'staff', by: 'staff' }));
    expect(await onDemand.lobby(ctx.deps, next.token)).toMatchObject({ position: 1 });
    expect(await onDemand.accept(ctx.deps, on)).toEqual({ bookingId: next.bookingId });
    await ctx.deps.db.update(staffUsers).set({ active: false }).where(eq(staffUsers.id, off.user.id));
  });
});
