import { randomInt } from 'node:crypto';
import {
  bookingLockedMessage,
  bookingNotFoundMessage,
  isEditable,
  isPaid,
  standingStatuses,
  selectTimeFirstMessage,
  slotTakenMessage,
  type BookingStatus,
  type BookingView,
  type ContactInput,
  type DocumentView,
  type PaymentView,
} from '../../../shared/booking.ts';
import { onDemandMessages } from '../../../shared/on-demand.ts';
import { priceLines, sessionPriceCents } from '../../../shared/pricing.ts';
import { addPendingToBooking, bookedParticipantFees, bookedParticipants, inviteBookedParticipants, removePendingFromBooking } from '../participants/fee-service.ts';
import type { ParticipantDetails } from '../../../shared/participants.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import { writeAudit, type ActorType } from '../audit.ts';
import { newConfirmationLink } from '../customer-links/service.ts';
import { onBookingConfirmed } from '../notifications/events.ts';
import {
  countStoredDocuments,
  countTaken,
  findBooking,
  findBookingStart,
  findCustomer,
  holdInOneRoundTrip,
  insertCustomer,
  insertDraft,
  currentPaymentRow,
  lockBookingRow,
  lockSlot,
  updateBooking,
  updateCustomer,
  visibleDocuments,
  type BookingRow,
  type PaymentRow,
} from './repository.ts';
import { assertBookableSlot, slotsChanged } from './slots.ts';
import { assignAfterMove, assignOnConfirm, cachedWorkingHours, capacityAt, capacityFrom, workingHours } from '../availability/service.ts';
import { isUuid } from '../../../shared/ids.ts';
import { DomainError } from '../../errors.ts';
import { assertSomeoneOnDuty, joinLine, lockLineEntry, closeLineEntry } from './on-demand-service.ts';

/**
 * The row reads and locks other features need when they take part in a
 * booking's transaction (documents, the manage page): through this service,
 * never the repository, so the lock order below stays this feature's business.
 */
export { findBooking, findCustomer, lockBookingRow, type BookingRow } from './repository.ts';
/**
 * "The current payment of a booking", one query for every feature (the
 * wizard's receipt, payments, the manage page, the console, the emails):
 * each shows the same payment.
 */
export { currentPaymentRow as currentPaymentOf, type PaymentRow } from './repository.ts';

/**
 * The booking's rules: price, capacity, holds and the status lifecycle
 *
 *   draft → held → awaiting_payment → (payment_processing →) confirmed → completed | no_show
 *                                                    any unfinished state → cancelled
 *
 * Capacity decisions for a slot run under a transaction-scoped advisory lock on
 * that slot (see `lockSlot`), then count, then write: two requests for the last
 * unit of a slot are decided one after the other, on any number of nodes.
 * Lock order is always slot lock(s) first, then the booking row.
 */

export interface Actor {
  actorType: ActorType;
  actorId?: string | null;
}
const customer: Actor = { actorType: 'customer' };
const provider: Actor = { actorType: 'provider' };

const allowedTransitions: Record<BookingStatus, readonly BookingStatus[]> = {
  draft: ['held', 'cancelled'],
  held: ['awaiting_payment', 'payment_processing', 'confirmed', 'cancelled'],
  awaiting_payment: ['payment_processing', 'confirmed', 'cancelled'],
  payment_processing: ['awaiting_payment', 'confirmed', 'cancelled'],
  confirmed: ['completed', 'no_show', 'not_completed', 'cancelled'],
  completed: [],
  no_show: [],
  not_completed: [],
  cancelled: [],
};

export function canTransition(from: BookingStatus, to: BookingStatus): boolean {
  return allowedTransitions[from].includes(to);
}

const notFound = () => new DomainError('NOT_FOUND', bookingNotFoundMessage);
/** Changes the status (refusing an illegal step) and records who did it. */
async function transition(
  tx: DbOrTx,
  row: BookingRow,
  to: BookingStatus,
  actor: Actor,
  patch: Partial<BookingRow> = {},
  data: Record<string, unknown> = {},
): Promise<BookingRow> {
  if (!canTransition(row.status, to)) {
    throw new DomainError('CONFLICT', `A ${row.status.replaceAll('_', ' ')} booking cannot become ${to.replaceAll('_', ' ')}.`);
  }
  const updated = await updateBooking(tx, row.id, { ...patch, status: to });
  await writeAudit(tx, {
    ...actor,
    action: 'booking.status_changed',
    entityType: 'booking',
    entityId: row.id,
    data: { from: row.status, to, ...data },
  });
  return updated;
}

declare const lockedInThisTransaction: unique symbol;
/** A booking row read under its lock (`lockBooking`): it cannot change until the transaction ends. */
export type LockedBooking = BookingRow & { readonly [lockedInThisTransaction]: true };

/**
 * Locks the booking's current slot, then its row (the documented lock order),
 * and returns the row read under that lock. Null for an unknown id (or not a UUID).
 * A caller that decides on the booking and then changes it in the same
 * transaction (payments) locks once here and hands the row on as `{ locked }`.
 */
export async function lockBooking(tx: DbOrTx, bookingId: string): Promise<LockedBooking | null> {
  if (!isUuid(bookingId)) return null;
  const peek = await findBookingStart(tx, bookingId);
  if (!peek) return null;
  if (peek.startsAt) await lockSlot(tx, peek.startsAt);
  const row = await lockBookingRow(tx, bookingId);
  // Moved between the peek and the row lock: lock the new slot as well.
  if (row?.startsAt && row.startsAt.getTime() !== peek.startsAt?.getTime()) await lockSlot(tx, row.startsAt);
  return row as LockedBooking | null;
}

/** A booking to change: by id (locked here), or already locked by the caller in this transaction. */
export type BookingRef = { bookingId: string } | { locked: LockedBooking };

async function lockRef(tx: DbOrTx, ref: BookingRef): Promise<LockedBooking> {
  const row = 'locked' in ref ? ref.locked : await lockBooking(tx, ref.bookingId);
  if (!row) throw notFound();
  return row;
}

export function priceFor(deps: Pick<Deps, 'config'>, documentCount: number, participantFees: readonly number[] = []): number {
  return sessionPriceCents(
    { baseFeeCents: deps.config.BOOKING_BASE_FEE_CENTS, extraDocumentFeeCents: deps.config.BOOKING_EXTRA_DOCUMENT_FEE_CENTS },
    documentCount,
    participantFees,
  );
}

/**
 * Sets the price from the stored documents and the co-signers added while
 * booking (each at the fee recorded when they were added); the browser never
 * sends an amount.
 */
export async function recomputePrice(tx: DbOrTx, deps: Pick<Deps, 'config'>, bookingId: string): Promise<number> {
  const priceCents = priceFor(deps, await countStoredDocuments(tx, bookingId), await bookedParticipantFees(tx, bookingId));
  await updateBooking(tx, bookingId, { priceCents });
  return priceCents;
}

// ---- Reading ---------------------------------------------------------------

export async function getBookingView(db: DbOrTx, bookingId: string): Promise<BookingView | null> {
  if (!isUuid(bookingId)) return null;
  const row = await findBooking(db, bookingId);
  if (!row) return null;
  // One after another: a transaction is one connection, where queries queue
  // anyway (node-postgres warns when they are sent concurrently), and three
  // indexed reads are quick on the pool too.
  const docs = await visibleDocuments(db, bookingId);
  const contact = row.customerId ? await findCustomer(db, row.customerId) : null;
  const payment = await currentPaymentRow(db, bookingId);
  const participants = await bookedParticipants(db, bookingId);
  return {
    id: row.id,
    reference: row.reference,
    status: row.status,
    kind: row.kind,
    startsAt: row.startsAt,
    timeZone: row.timeZone,
    priceCents: row.priceCents,
    currency: row.currency,
    holdExpiresAt: row.holdExpiresAt,
    documents: docs.map((d) => ({
      id: d.id,
      name: d.name,
      sizeBytes: d.sizeBytes ?? 0,
      contentType: d.contentType as DocumentView['contentType'],
      scanStatus: d.scanStatus,
      supporting: d.supporting,
    })),
    contact: contact ? { ...contact, phone: contact.phone ?? '' } : null,
    payment: payment && paymentView(payment),
    participants,
    priceLines: priceLines(row.priceCents, participants),
  };
}

/** The payment as every screen shows it; features add what theirs needs (refunds, failure). */
export function paymentView(row: PaymentRow): PaymentView {
  return {
    provider: row.provider,
    providerPaymentId: row.providerPaymentId,
    amountCents: row.amountCents,
    currency: row.currency,
    status: row.status,
    method: row.method,
    createdAt: row.createdAt,
  };
}

export async function requireBookingView(db: DbOrTx, bookingId: string): Promise<BookingView> {
  const view = await getBookingView(db, bookingId);
  if (!view) throw notFound();
  return view;
}

// ---- The visitor's steps -----------------------------------------------------

/** No 0/O, 1/I/L or U: a reference read aloud over the phone is not misheard. */
const referenceAlphabet = '23456789ABCDEFGHJKMNPQRSTVWXYZ';
export function newReference(): string {
  let code = '';
  for (let i = 0; i < 8; i++) code += referenceAlphabet[randomInt(referenceAlphabet.length)];
  return `NOTARY-${code}`;
}

export async function startBooking(deps: Deps, { timeZone }: { timeZone: string }): Promise<{ bookingId: string; reference: string }> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const row = await deps.db.transaction(async (tx) => {
      const created = await insertDraft(tx, { reference: newReference(), timeZone, priceCents: priceFor(deps, 0) });
      if (created) {
        await writeAudit(tx, { ...customer, action: 'booking.created', entityType: 'booking', entityId: created.id, data: { reference: created.reference } });
      }
      return created;
    });
    if (row) return { bookingId: row.id, reference: row.reference };
  }
  throw new Error('Could not draw an unused booking reference');
}

/** Refuses a change to a booking that is no longer editable (paid, processing, cancelled, …). */
export function assertEditable(row: Pick<BookingRow, 'status'>): void {
  if (!isEditable(row.status)) throw new DomainError('CONFLICT', bookingLockedMessage);
}

/** Locks the booking row for a visitor's change (documents), refusing a missing or locked booking. */
export async function lockEditableBooking(tx: DbOrTx, bookingId: string): Promise<BookingRow> {
  const row = await lockBookingRow(tx, bookingId);
  if (!row) throw notFound();
  assertEditable(row);
  return row;
}

/**
 * The capacity rule (docs/product.md §4.4): whether `startsAt` has a unit free
 * for `bookingId`, not counting the booking itself. Ask it under the slot's
 * lock (`lockSlot`), or the answer may be stale by the time it is acted on.
 */
export async function slotHasRoom(tx: DbOrTx, deps: Pick<Deps, 'config' | 'now'>, startsAt: Date, bookingId: string): Promise<boolean> {
  return (await countTaken(tx, startsAt, deps.now(), bookingId)) < (await capacityAt(tx, deps, startsAt));
}

function newHoldExpiry(deps: Pick<Deps, 'config' | 'now'>): Date {
  return new Date(deps.now().getTime() + deps.config.BOOKING_HOLD_MINUTES * 60_000);
}

/**
 * Reserves one unit of `startsAt` for BOOKING_HOLD_MINUTES. Choosing another
 * slot moves the hold (the old unit is free as soon as this commits).
 */
export async function holdSlot(
  deps: Deps,
  { bookingId, startsAt, timeZone }: { bookingId: string; startsAt: Date; timeZone: string },
): Promise<{ startsAt: Date; holdExpiresAt: Date }> {
  const hours = await cachedWorkingHours(deps.db);
  assertBookableSlot(deps, startsAt, hours);
  const holdExpiresAt = newHoldExpiry(deps);
  // The rules of `assertEditable`, `slotHasRoom` and `transition` (draft → held),
  // decided and written by one statement under the slot's lock.
  const hold = { bookingId, startsAt, timeZone, holdExpiresAt, now: deps.now(), capacity: capacityFrom(hours, deps, startsAt) };
  const held = await holdInOneRoundTrip(deps.database.queryPool, hold);
  if (held === 'not_found') throw notFound();
  if (held === 'locked') throw new DomainError('CONFLICT', bookingLockedMessage);
  if (held === 'full') throw new DomainError('CONFLICT', slotTakenMessage);
  slotsChanged();
  return { startsAt, holdExpiresAt };
}

/**
 * "Notarize now" instead of a slot (issue 28, decision 110): the booking
 * becomes on demand — no time, held for BOOKING_HOLD_MINUTES like a slot so
 * an unpaid one is abandoned the same way. Refused when no notary is on duty:
 * nobody pays to wait for no one (asked again before paying).
 */
export async function chooseOnDemand(deps: Deps, { bookingId }: { bookingId: string }): Promise<BookingView> {
  await deps.db.transaction(async (tx) => {
    const row = await lockBooking(tx, bookingId);
    if (!row) throw notFound();
    assertEditable(row);
    await assertSomeoneOnDuty(tx);
    const patch = { kind: 'on_demand' as const, startsAt: null, holdExpiresAt: newHoldExpiry(deps) };
    if (row.status === 'draft') await transition(tx, row, 'held', customer, patch, { onDemand: true });
    else {
      await updateBooking(tx, row.id, patch);
      await writeAudit(tx, { ...customer, action: 'booking.on_demand_chosen', entityType: 'booking', entityId: row.id, data: { previousStartsAt: row.startsAt?.toISOString() ?? null } });
    }
  });
  return requireBookingView(deps.db, bookingId);
}

/** Takes the hold again when it lapsed (if the slot still has room); otherwise leaves it. */
async function renewLapsedHold(tx: Tx, deps: Deps, row: BookingRow): Promise<Date> {
  if (row.holdExpiresAt && row.holdExpiresAt > deps.now()) return row.holdExpiresAt;
  if (row.kind === 'on_demand') {
    await assertSomeoneOnDuty(tx);
    const holdExpiresAt = newHoldExpiry(deps);
    await updateBooking(tx, row.id, { holdExpiresAt });
    return holdExpiresAt;
  }
  if (!(await slotHasRoom(tx, deps, row.startsAt!, row.id))) throw new DomainError('CONFLICT', slotTakenMessage);
  const holdExpiresAt = newHoldExpiry(deps);
  await updateBooking(tx, row.id, { holdExpiresAt });
  return holdExpiresAt;
}

/**
 * The contact step (docs/product.md §4.5): a customers row with first_name,
 * last_name, email and phone, attached to the booking, which then awaits payment.
 * Saving again updates the same customer row.
 */
export async function saveContact(deps: Deps, input: ContactInput & { bookingId: string }): Promise<BookingView> {
  await deps.db.transaction(async (tx) => {
    const row = await lockBooking(tx, input.bookingId);
    if (!row) throw notFound();
    assertEditable(row);
    if (!row.startsAt && row.kind !== 'on_demand') throw new DomainError('BAD_REQUEST', selectTimeFirstMessage);
    await renewLapsedHold(tx, deps, row);
    const contact = { firstName: input.firstName, lastName: input.lastName, email: input.email, phone: input.phone };
    if (row.customerId) await updateCustomer(tx, row.customerId, contact);
    const customerId = row.customerId ?? (await insertCustomer(tx, contact));
    if (row.status === 'held') await transition(tx, row, 'awaiting_payment', customer, { customerId });
    else {
      await updateBooking(tx, row.id, { customerId });
      await writeAudit(tx, { ...customer, action: 'booking.contact_updated', entityType: 'booking', entityId: row.id });
    }
  });
  return requireBookingView(deps.db, input.bookingId);
}

/**
 * Co-signers and witnesses added before paying (decision 125): kept by the
 * participants feature, priced here. Only while the booking can change.
 */
export async function addBookingParticipant(deps: Deps, bookingId: string, details: ParticipantDetails): Promise<BookingView> {
  await deps.db.transaction(async (tx) => {
    const row = await lockBooking(tx, bookingId);
    if (!row) throw notFound();
    assertEditable(row);
    const customerEmail = row.customerId ? ((await findCustomer(tx, row.customerId))?.email ?? null) : null;
    const added = await addPendingToBooking(tx, deps, { id: row.id, customerEmail }, details);
    const priceCents = await recomputePrice(tx, deps, row.id);
    await writeAudit(tx, { ...customer, action: 'booking.participant_added', entityType: 'booking', entityId: row.id, data: { participantId: added.id, role: details.role, feeCents: added.feeCents, priceCents } });
  });
  return requireBookingView(deps.db, bookingId);
}

export async function removeBookingParticipant(deps: Deps, bookingId: string, participantId: string): Promise<BookingView> {
  await deps.db.transaction(async (tx) => {
    const row = await lockBooking(tx, bookingId);
    if (!row) throw notFound();
    assertEditable(row);
    await removePendingFromBooking(tx, row.id, participantId);
    const priceCents = await recomputePrice(tx, deps, row.id);
    await writeAudit(tx, { ...customer, action: 'booking.participant_removed', entityType: 'booking', entityId: row.id, data: { participantId, priceCents } });
  });
  return requireBookingView(deps.db, bookingId);
}

// ---- For payments, notifications and staff ------------------------------------

/**
 * Payment went through: the booking is confirmed, whatever happened to its
 * hold — the money was taken. If the slot filled up meanwhile it is confirmed
 * anyway and an 'booking.overbooked' audit entry tells staff. Idempotent: a
 * repeat answers `already` and changes nothing.
 *
 * `cancelled` is the one place where "paid after cancellation" is decided:
 * under the booking's row lock, so a staff cancel or the retention job that
 * commits while the payment is being recorded is seen here, and the caller
 * (payments) refunds. No other read of the status may decide it.
 */
export type ConfirmOutcome = { outcome: 'confirmed'; manageToken: string } | { outcome: 'already' | 'cancelled'; manageToken: null };

export async function confirmBooking(tx: Tx, deps: Deps, ref: BookingRef): Promise<ConfirmOutcome> {
  const row = await lockRef(tx, ref);
  const bookingId = row.id;
  if (isPaid(row.status)) return { outcome: 'already', manageToken: null };
  if (row.status === 'cancelled') {
    await writeAudit(tx, { ...provider, action: 'booking.paid_after_cancel', entityType: 'booking', entityId: row.id });
    deps.log.warn({ bookingId }, 'payment succeeded for a cancelled booking');
    return { outcome: 'cancelled', manageToken: null };
  }
  const now = deps.now();
  if (row.kind === 'on_demand') {
    // No slot and no notary yet: the booking joins the on-demand line, whoever is on duty takes it.
    const link = newConfirmationLink(deps, bookingId);
    await transition(tx, row, 'confirmed', provider, { confirmedAt: now, holdExpiresAt: null, manageTokenHash: link.tokenHash, manageTokenSealed: link.sealed });
    await joinLine(tx, deps, bookingId);
    await onBookingConfirmed(tx, deps, { bookingId, manageToken: link.token });
    await inviteBookedParticipants(tx, deps, bookingId);
    return { outcome: 'confirmed', manageToken: link.token };
  }
  if (!row.startsAt) throw new Error(`Booking ${bookingId} was paid without a time`);

  if (!(await slotHasRoom(tx, deps, row.startsAt, row.id))) {
    const others = await countTaken(tx, row.startsAt, now, row.id);
    await writeAudit(tx, {
      ...provider,
      action: 'booking.overbooked',
      entityType: 'booking',
      entityId: row.id,
      data: { startsAt: row.startsAt.toISOString(), taken: others + 1, capacity: await capacityAt(tx, deps, row.startsAt) },
    });
    deps.log.warn({ bookingId, startsAt: row.startsAt }, 'booking confirmed into a full slot (hold had expired)');
  }
  const link = newConfirmationLink(deps, bookingId);
  const manageToken = link.token;
  await transition(tx, row, 'confirmed', provider, {
    confirmedAt: now,
    holdExpiresAt: null,
    manageTokenHash: link.tokenHash,
    // Later emails (reminder, reschedule) carry the link too; a dump of the table alone opens nothing.
    manageTokenSealed: link.sealed,
  });
  await onBookingConfirmed(tx, deps, { bookingId, manageToken });
  // The co-signers and witnesses added while booking get their own links now, paid with the booking (decision 125).
  await inviteBookedParticipants(tx, deps, bookingId);
  // Scheduled bookings get their notary now: one working then, least booked first (issue 28).
  if (!row.notaryId) await assignOnConfirm(tx, deps, bookingId, row.startsAt);
  return { outcome: 'confirmed', manageToken };
}

/** Cash App Pay and other delayed methods: the slot stays taken while the money is on its way. */
export async function markPaymentProcessing(tx: Tx, _deps: Deps, ref: BookingRef): Promise<void> {
  const row = await lockRef(tx, ref);
  if (row.status !== 'held' && row.status !== 'awaiting_payment') return; // already further along
  await transition(tx, row, 'payment_processing', provider, { holdExpiresAt: null });
}

/** A delayed payment failed: the visitor may pay again, and gets the slot back if it is still free. */
export async function markPaymentFailed(tx: Tx, deps: Deps, ref: BookingRef): Promise<void> {
  const row = await lockRef(tx, ref);
  if (row.status !== 'payment_processing') return;
  const free = row.startsAt && (await slotHasRoom(tx, deps, row.startsAt, row.id));
  const holdExpiresAt = free ? newHoldExpiry(deps) : null;
  await transition(tx, row, 'awaiting_payment', provider, { holdExpiresAt });
}

/**
 * Reschedule a paid booking (manage link or staff): capacity-checked like a
 * hold. Notifying is the caller's job (it knows who asked).
 */
export async function moveBooking(
  tx: Tx,
  deps: Deps,
  { bookingId, startsAt, actor = customer }: { bookingId: string; startsAt: Date; actor?: Actor },
): Promise<{ previousStartsAt: Date | null; startsAt: Date }> {
  const hours = await workingHours(tx);
  assertBookableSlot(deps, startsAt, hours);
  await lockSlot(tx, startsAt);
  const row = await lockBookingRow(tx, bookingId);
  if (!row) throw notFound();
  if (!standingStatuses.includes(row.status)) {
    throw new DomainError('CONFLICT', 'Only a confirmed booking can be rescheduled.');
  }
  if (row.startsAt?.getTime() === startsAt.getTime()) return { previousStartsAt: row.startsAt, startsAt };
  if (!(await slotHasRoom(tx, deps, startsAt, row.id))) throw new DomainError('CONFLICT', slotTakenMessage);
  if (row.kind === 'on_demand') {
    // Leaving the line for a scheduled time (a timed-out customer's choice, or their own): not once a notary took the call.
    const entry = await lockLineEntry(tx, row.id);
    if (entry?.status === 'accepted') throw new DomainError('CONFLICT', onDemandMessages.alreadyAccepted);
    if (entry) await closeLineEntry(tx, row.id, 'schedule');
  }
  // A new SEQUENCE so calendars replace the entry they hold (RFC 5546 §2.1.4).
  await updateBooking(tx, row.id, { startsAt, kind: 'scheduled', reminderSentAt: null, calendarSequence: row.calendarSequence + 1 });
  slotsChanged();
  await writeAudit(tx, {
    ...actor,
    action: 'booking.rescheduled',
    entityType: 'booking',
    entityId: row.id,
    data: { from: row.startsAt?.toISOString() ?? null, to: startsAt.toISOString() },
  });
  // The notary comes along only if they work the new time (issue 28).
  await assignAfterMove(tx, deps, row, startsAt, hours);
  return { previousStartsAt: row.startsAt, startsAt };
}

/**
 * Cancels (status → cancelled), which frees the slot at once. Refunds and
 * notifications are the caller's (payments `refundBookingPayment`,
 * notifications `onBookingCancelled`). Idempotent for an already cancelled booking.
 */
export async function cancelBookingRecord(
  tx: Tx,
  deps: Deps,
  { bookingId, reason, by, actorId = null }: { bookingId: string; reason: string; by: 'customer' | 'staff' | 'system'; actorId?: string | null },
): Promise<{ alreadyCancelled: boolean; previousStatus: BookingStatus }> {
  const row = await lockBooking(tx, bookingId);
  if (!row) throw notFound();
  if (row.status === 'cancelled') return { alreadyCancelled: true, previousStatus: row.status };
  await cancelRow(tx, deps, row, reason, { actorType: by, actorId });
  return { alreadyCancelled: false, previousStatus: row.status };
}

function cancelRow(tx: DbOrTx, deps: Pick<Deps, 'now'>, row: BookingRow, reason: string, actor: Actor, data: Record<string, unknown> = {}) {
  slotsChanged();
  // A new SEQUENCE: the customer's calendar replaces its entry with the cancelled one (RFC 5546 §2.1.4).
  return transition(
    tx,
    row,
    'cancelled',
    actor,
    { cancelledAt: deps.now(), cancellationReason: reason, holdExpiresAt: null, calendarSequence: row.calendarSequence + 1 },
    { reason, ...data },
  );
}

/**
 * Retention's cancellation of an unpaid booking left alone (docs/product.md
 * §10.2): the same transition and audit as every other cancellation, on a row
 * the caller has already locked (it claims rows FOR UPDATE SKIP LOCKED). The
 * slot lock is not taken: cancelling only frees capacity, and taking it after
 * the row lock would invert the lock order. False when the booking is no
 * longer unpaid (paid or cancelled meanwhile): nothing changes.
 */
export async function cancelAbandonedBooking(
  tx: Tx,
  deps: Pick<Deps, 'now'>,
  { bookingId, data }: { bookingId: string; data: Record<string, unknown> },
): Promise<boolean> {
  const row = await findBooking(tx, bookingId);
  if (!row || !isEditable(row.status)) return false;
  await cancelRow(tx, deps, row, 'abandoned', { actorType: 'system' }, data);
  return true;
}

/** Staff record how a confirmed appointment went. */
export async function markBookingOutcome(
  tx: Tx,
  _deps: Deps,
  { bookingId, outcome, staffId }: { bookingId: string; outcome: 'completed' | 'no_show' | 'not_completed'; staffId: string },
): Promise<void> {
  const row = await lockBooking(tx, bookingId);
  if (!row) throw notFound();
  if (row.status === outcome) return;
  await transition(tx, row, outcome, { actorType: 'staff', actorId: staffId });
}

/**
 * A customer row from someone who wrote to us (the contact form): customers are
 * the booking feature's table, so other features create them here. Answers its id.
 */
export async function createCustomer(tx: DbOrTx, contact: { firstName: string; lastName: string; email: string; phone: string | null }): Promise<string> {
  return insertCustomer(tx, contact);
}
