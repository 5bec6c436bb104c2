import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, bookings, documentFields, documents, outbox, payments, sessionParticipants } from '../../src/server/db/schema.ts';
import { addBookingParticipant, currentPaymentOf, getBookingView, removeBookingParticipant, saveContact } from '../../src/server/features/booking/service.ts';
import { cancelWithRefund } from '../../src/server/features/cancellation/service.ts';
import { addParticipant, listForBooking, listForCustomer, removeParticipant } from '../../src/server/features/participants/service.ts';
import { confirmTestCard, paySignerTestCard, refundRemovedSignerFee, sessionChargedCents, startSignerPayment } from '../../src/server/features/payments/service.ts';
import type { StaffIdentity } from '../../src/server/features/staff/session.ts';
import { addToBookingInput, participantMessages } from '../../src/shared/participants.ts';
import { createTestDeps, type TestContext } from '../helpers/app.ts';
import { bookingIn, testCard } from '../helpers/bookings.ts';
import { dbKinds } from '../helpers/db.ts';
import { createStaffUser } from '../helpers/staff.ts';
import { hashToken } from '../../src/server/tokens.ts';

/**
 * The extra signer's fee (issue 29; docs/decisions/125-extra-signer-fee.md), on
 * both databases: co-signers added while booking are in the price (a witness is
 * free) and invited when the booking is paid; one added later from the booking
 * page pays a second payment and is added only when it succeeds; cancelling
 * refunds every payment of the booking.
 */
const fee = 1000;
const declined = '4000 0000 0000 0002';

describe.each(dbKinds)('extra signer fee (%s)', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestDeps(kind, { BOOKING_EXTRA_SIGNER_FEE_CENTS: String(fee), BOOKING_SLOT_CAPACITY: '1000' });
  });
  afterAll(() => ctx?.close());

  const invitationsTo = async (email: string) =>
    (await ctx.deps.db.select().from(outbox).where(eq(outbox.kind, 'participant_invitation'))).filter((r) => (r.payload as { message: { to: string } }).message.to === email);
  const paymentsOf = (bookingId: string) => ctx.deps.db.select().from(payments).where(eq(payments.bookingId, bookingId)).orderBy(payments.createdAt);

  it('prices co-signers added in the wizard (a witness is free), bounds them, and invites them once the booking is paid', async () => {
    const { deps } = ctx;
    const b = await bookingIn(deps, 'held');
    let view = await addBookingParticipant(deps, b.bookingId, { role: 'signer', name: 'Alan Turing', email: 'Alan@Example.com', phone: null });
    view = await addBookingParticipant(deps, b.bookingId, { role: 'witness', name: 'Ada Lovelace', email: 'ada@example.com', phone: '(555) 010-9999' });
    expect(view.priceCents).toBe(2500 + fee);
    expect(view.priceLines).toEqual([
      { label: 'Notary session', cents: 2500 },
      { label: 'Additional signer: Alan Turing', cents: fee },
    ]);
    expect(view.participants.map((p) => [p.name, p.role, p.feeCents])).toEqual([
      ['Alan Turing', 'signer', fee],
      ['Ada Lovelace', 'witness', 0],
    ]);

    // Bounded: the same address twice, and at most three besides the customer (four remote people).
    await expect(addBookingParticipant(deps, b.bookingId, { role: 'signer', name: 'Alan Again', email: 'alan@example.com', phone: null })).rejects.toThrow(participantMessages.duplicateEmail);
    await addBookingParticipant(deps, b.bookingId, { role: 'signer', name: 'Grace Two', email: 'two@example.com', phone: null });
    await expect(addBookingParticipant(deps, b.bookingId, { role: 'signer', name: 'One Too Many', email: 'many@example.com', phone: null })).rejects.toThrow(participantMessages.tooMany);
    // Emails (and every field) are parsed by the shared schema before the service sees them.
    expect(addToBookingInput.safeParse({ bookingId: b.bookingId, role: 'signer', name: 'X', email: 'not-an-email' }).error?.issues[0]?.message).toBe('Please enter a valid email address');
    expect(addToBookingInput.safeParse({ bookingId: b.bookingId, role: 'notary', name: 'X', email: 'x@example.com' }).success).toBe(false);

    // Removing one before paying takes its fee off; nobody was ever invited.
    const two = (await getBookingView(deps.db, b.bookingId))!.participants.find((p) => p.name === 'Grace Two')!;
    view = await removeBookingParticipant(deps, b.bookingId, two.id);
    expect(view.priceCents).toBe(2500 + fee);

    // The customer's own address is not a co-signer's.
    await saveContact(deps, { bookingId: b.bookingId, firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com', phone: '(555) 010-2030' });
    await expect(addBookingParticipant(deps, b.bookingId, { role: 'signer', name: 'Grace', email: 'GRACE@example.com', phone: null })).rejects.toThrow(participantMessages.duplicateEmail);

    expect(await invitationsTo('alan@example.com')).toHaveLength(0);
    const attempt = await confirmTestCard(deps, { bookingId: b.bookingId, ...testCard });
    expect(attempt.receipt.amountCents).toBe(2500 + fee);
    expect(attempt.receipt.status).toBe('succeeded');
    const people = await listForBooking(deps.db, b.bookingId);
    expect(people.map((p) => [p.name, p.status])).toEqual([
      ['Alan Turing', 'invited'],
      ['Ada Lovelace', 'invited'],
    ]);
    expect(await invitationsTo('alan@example.com')).toHaveLength(1);
    expect(await invitationsTo('ada@example.com')).toHaveLength(1);
    // Paid: the list can no longer change in the wizard.
    await expect(addBookingParticipant(deps, b.bookingId, { role: 'witness', name: 'Late', email: 'late@example.com', phone: null })).rejects.toThrow();
  });

  it('from the booking page, a co-signer with a fee is added only when the second payment succeeds; a witness is free', async () => {
    const { deps } = ctx;
    const b = await bookingIn(deps, 'confirmed');
    const token = b.manageToken!;
    const details = { role: 'signer' as const, name: 'Alan Turing', email: 'alan.page@example.com', phone: null };
    // The free path refuses a co-signer who has a fee.
    await expect(addParticipant(deps, token, details)).rejects.toThrow(participantMessages.paymentRequired(fee));

    const setup = await startSignerPayment(deps, token, details);
    expect(setup).toMatchObject({ mode: 'test', amountCents: fee, currency: 'usd' });
    expect((await listForCustomer(deps, token)).map((p) => [p.name, p.status, p.feeCents])).toEqual([['Alan Turing', 'pending', fee]]);
    expect(await listForBooking(deps.db, b.bookingId)).toEqual([]);

    // A declined card adds nobody.
    const refused = await paySignerTestCard(deps, { token, providerPaymentId: setup.providerPaymentId, ...testCard, number: declined });
    expect(refused.error).toBe('Your card was declined.');
    expect(await listForBooking(deps.db, b.bookingId)).toEqual([]);
    expect(await invitationsTo(details.email)).toHaveLength(0);

    const paid = await paySignerTestCard(deps, { token, providerPaymentId: setup.providerPaymentId, ...testCard });
    expect(paid).toMatchObject({ error: null, receipt: { status: 'succeeded', amountCents: fee } });
    expect((await listForBooking(deps.db, b.bookingId)).map((p) => [p.name, p.status])).toEqual([['Alan Turing', 'invited']]);
    expect(await invitationsTo(details.email)).toHaveLength(1);
    // The booking's own payment is still the one every screen shows; the fee is a payment of its own.
    expect((await currentPaymentOf(deps.db, b.bookingId))!.amountCents).toBe(2500);
    expect((await paymentsOf(b.bookingId)).map((p) => [p.purpose, p.amountCents, p.status])).toEqual([
      ['booking', 2500, 'succeeded'],
      ['signer', fee, 'succeeded'],
    ]);
    // Paying again (a double click, a repeat) changes nothing.
    await paySignerTestCard(deps, { token, providerPaymentId: setup.providerPaymentId, ...testCard });
    expect(await invitationsTo(details.email)).toHaveLength(1);

    // A witness has no fee: added at once, no payment.
    await addParticipant(deps, token, { role: 'witness', name: 'Ada Lovelace', email: 'ada.page@example.com', phone: null });
    expect((await listForBooking(deps.db, b.bookingId)).map((p) => p.status)).toEqual(['invited', 'invited']);
  });

  it('a co-signer the notary removes before signing gets their fee back in full, through the same provider — their own payment, or their part of the booking’s; one who signed keeps the act and the fee stays (decision 133)', async () => {
    const { deps } = ctx;
    const user = await createStaffUser(deps, { role: 'notary' });
    const notary: StaffIdentity = { user: { id: user.id, email: user.email, name: 'Nia Notary', role: 'notary', timeZone: 'America/Chicago' }, sessionId: 'test' };
    // Bob added while booking (his fee in the booking's payment); Alan and Carol from the booking page (a payment each).
    const b = await bookingIn(deps, 'held');
    await addBookingParticipant(deps, b.bookingId, { role: 'signer', name: 'Bob Kahn', email: 'bob.removed@example.com', phone: null });
    await saveContact(deps, { bookingId: b.bookingId, firstName: 'Grace', lastName: 'Hopper', email: 'grace.removed@example.com', phone: '(555) 010-2030' });
    await confirmTestCard(deps, { bookingId: b.bookingId, ...testCard });
    const token = 'removed-signer-fee-link-'.padEnd(43, 'x');
    await deps.db.update(bookings).set({ notaryId: user.id, manageTokenHash: hashToken(token) }).where(eq(bookings.id, b.bookingId));
    for (const name of ['Alan Turing', 'Carol Shaw']) {
      const setup = await startSignerPayment(deps, token, { role: 'signer', name, email: `${name.split(' ')[0]!.toLowerCase()}.removed@example.com`, phone: null });
      await paySignerTestCard(deps, { token, providerPaymentId: setup.providerPaymentId, ...testCard });
    }
    const people = await listForBooking(deps.db, b.bookingId);
    const idOf = (name: string) => people.find((p) => p.name === name)!.id;
    // Carol has signed (a field of hers filled).
    const [doc] = await deps.db.select().from(documents).where(eq(documents.bookingId, b.bookingId));
    await deps.db.insert(documentFields).values({ bookingId: b.bookingId, documentId: doc!.id, kind: 'signature', page: 1, x: 0.1, y: 0.1, width: 0.3, height: 0.05, participantId: idOf('Carol Shaw'), filledAt: new Date(), filledBy: idOf('Carol Shaw') });
    expect(await sessionChargedCents(deps.db, b.bookingId, 2500 + fee)).toBe(2500 + 3 * fee);

    const remove = (name: string) => removeParticipant(deps, notary, { bookingId: b.bookingId, participantId: idOf(name), reason: 'Could not proceed' }, (tx, person) => refundRemovedSignerFee(tx, deps, person));
    await remove('Alan Turing');
    await remove('Bob Kahn');
    await remove('Carol Shaw');
    expect((await paymentsOf(b.bookingId)).map((p) => [p.purpose, p.amountCents, p.status, p.refundedCents])).toEqual([
      ['booking', 2500 + fee, 'succeeded', fee],
      ['signer', fee, 'refunded', fee],
      ['signer', fee, 'succeeded', 0],
    ]);
    const refunds = await deps.db.select().from(auditLog).where(and(eq(auditLog.entityId, b.bookingId), eq(auditLog.action, 'payment.signer_fee_refunded')));
    expect(refunds.map((r) => (r.data as { participantId: string; refundedCents: number }).participantId).sort()).toEqual([idOf('Alan Turing'), idOf('Bob Kahn')].sort());
    // The journal counts only what was kept: the session, and Carol's fee.
    expect(await sessionChargedCents(deps.db, b.bookingId, 2500 + fee)).toBe(2500 + fee);
    // Cancelling afterwards refunds what is left, never twice.
    const result = await deps.db.transaction((tx) => cancelWithRefund(tx, deps, { bookingId: b.bookingId, reason: 'test', by: 'staff', refund: true }));
    expect(result.refundedCents).toBe(2500 + fee);
  });

  it('cancelling refunds both payments: the booking and the signer’s fee', async () => {
    const { deps } = ctx;
    const b = await bookingIn(deps, 'confirmed');
    const setup = await startSignerPayment(deps, b.manageToken!, { role: 'signer', name: 'Alan Turing', email: 'alan.refund@example.com', phone: null });
    await paySignerTestCard(deps, { token: b.manageToken!, providerPaymentId: setup.providerPaymentId, ...testCard });
    const result = await deps.db.transaction((tx) => cancelWithRefund(tx, deps, { bookingId: b.bookingId, reason: 'test', by: 'customer', refund: true }));
    expect(result.refundedCents).toBe(2500 + fee);
    expect((await paymentsOf(b.bookingId)).map((p) => [p.purpose, p.status, p.refundedCents])).toEqual([
      ['booking', 'refunded', 2500],
      ['signer', 'refunded', fee],
    ]);
  });

  it('a fee that succeeds once the signer can no longer be added (booking cancelled) is refunded at once and adds nobody', async () => {
    const { deps } = ctx;
    const b = await bookingIn(deps, 'confirmed');
    const setup = await startSignerPayment(deps, b.manageToken!, { role: 'signer', name: 'Alan Turing', email: 'alan.late@example.com', phone: null });
    await deps.db.transaction((tx) => cancelWithRefund(tx, deps, { bookingId: b.bookingId, reason: 'test', by: 'staff', refund: true }));
    // The customer's link no longer admits adding; the provider's success still arrives (a webhook) — simulated by the card.
    const { applyIntentUpdate } = await import('../../src/server/features/payments/service.ts');
    await deps.payments.confirmTestCard!(setup.providerPaymentId, testCard, deps.now());
    const retrieved = await deps.payments.retrieve(setup.providerPaymentId);
    await deps.db.transaction((tx) => applyIntentUpdate(tx, deps, { ...retrieved, providerPaymentId: setup.providerPaymentId }));
    const [signerPayment] = await deps.db.select().from(payments).where(and(eq(payments.bookingId, b.bookingId), eq(payments.purpose, 'signer')));
    expect([signerPayment!.status, signerPayment!.refundedCents]).toEqual(['refunded', fee]);
    expect(await listForBooking(deps.db, b.bookingId)).toEqual([]);
    expect(await invitationsTo('alan.late@example.com')).toHaveLength(0);
    const [row] = await deps.db.select().from(sessionParticipants).where(eq(sessionParticipants.bookingId, b.bookingId));
    expect(row!.status).toBe('removed');
    const audits = await deps.db.select().from(auditLog).where(and(eq(auditLog.entityId, b.bookingId), eq(auditLog.action, 'payment.signer_fee_refunded')));
    expect(audits).toHaveLength(1);
  });
});
