import { createHash, randomBytes, randomInt } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import {
  bookingLockedMessage,
  bookingNotFoundMessage,
  editableStatuses,
  selectTimeFirstMessage,
  slotTakenMessage,
  type BookingStatus,
  type BookingView,
  type ContactInput,
  type DocumentView,
} from '../../../shared/booking.ts';
import { sessionPriceCents } from '../../../shared/pricing.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import { writeAudit, type ActorType } from '../audit.ts';
import { onBookingConfirmed } from '../notifications/events.ts';
import {
  countStoredDocuments,
  countTaken,
  findBooking,
  isTransaction,
  findBookingIdByManageTokenHash,
  findCustomer,
  insertCustomer,
  insertDraft,
  latestPayment,
  lockBookingRow,
  lockSlot,
  updateBooking,
  updateCustomer,
  visibleDocuments,
  type BookingRow,
} from './repository.ts';
import { assertBookableSlot } from './slots.ts';

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
  confirmed: ['completed', 'no_show', 'cancelled'],
  completed: [],
  no_show: [],
  cancelled: [],
};

export function canTransition(from: BookingStatus, to: BookingStatus): boolean {
  return allowedTransitions[from].includes(to);
}

const notFound = () => new TRPCError({ code: 'NOT_FOUND', message: bookingNotFoundMessage });
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
    throw new TRPCError({ code: 'CONFLICT', message: `A ${row.status.replaceAll('_', ' ')} booking cannot become ${to.replaceAll('_', ' ')}.` });
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

/** Locks the booking's current slot, then its row (the documented lock order). */
async function lockBooking(tx: DbOrTx, bookingId: string): Promise<BookingRow | null> {
  if (!uuidPattern.test(bookingId)) return null;
  const peek = await findBooking(tx, bookingId);
  if (!peek) return null;
  if (peek.startsAt) await lockSlot(tx, peek.startsAt);
  const row = await lockBookingRow(tx, bookingId);
  // Moved between the peek and the row lock: lock the new slot as well.
  if (row?.startsAt && row.startsAt.getTime() !== peek.startsAt?.getTime()) await lockSlot(tx, row.startsAt);
  return row;
}

export function priceFor(deps: Pick<Deps, 'config'>, documentCount: number): number {
  return sessionPriceCents(
    { baseFeeCents: deps.config.BOOKING_BASE_FEE_CENTS, extraDocumentFeeCents: deps.config.BOOKING_EXTRA_DOCUMENT_FEE_CENTS },
    documentCount,
  );
}

/** Sets the price from the stored documents; the browser never sends an amount. */
export async function recomputePrice(tx: DbOrTx, deps: Pick<Deps, 'config'>, bookingId: string): Promise<number> {
  const priceCents = priceFor(deps, await countStoredDocuments(tx, bookingId));
  await updateBooking(tx, bookingId, { priceCents });
  return priceCents;
}

// ---- Reading ---------------------------------------------------------------

export async function getBookingView(db: DbOrTx, bookingId: string): Promise<BookingView | null> {
  if (!uuidPattern.test(bookingId)) return null;
  const row = await findBooking(db, bookingId);
  if (!row) return null;
  const reads = [
    () => visibleDocuments(db, bookingId),
    () => (row.customerId ? findCustomer(db, row.customerId) : Promise.resolve(null)),
    () => latestPayment(db, bookingId),
  ] as const;
  // A transaction is one connection: queries on it run one after another
  // anyway, and node-postgres warns when they are queued concurrently.
  // On the pool they run on separate connections, side by side.
  const [docs, contact, payment] =
    isTransaction(db)
      ? [await reads[0](), await reads[1](), await reads[2]()]
      : await Promise.all([reads[0](), reads[1](), reads[2]()]);
  return {
    id: row.id,
    reference: row.reference,
    status: row.status,
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
    })),
    contact: contact ? { ...contact, phone: contact.phone ?? '' } : null,
    payment,
  };
}

export async function requireBookingView(db: DbOrTx, bookingId: string): Promise<BookingView> {
  const view = await getBookingView(db, bookingId);
  if (!view) throw notFound();
  return view;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export async function findBookingIdByManageToken(db: DbOrTx, token: string): Promise<string | null> {
  if (!token || token.length > 200) return null;
  return findBookingIdByManageTokenHash(db, hashToken(token));
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

function assertEditable(row: BookingRow) {
  if (!editableStatuses.includes(row.status)) throw new TRPCError({ code: 'CONFLICT', message: bookingLockedMessage });
}

/**
 * Reserves one unit of `startsAt` for BOOKING_HOLD_MINUTES. Choosing another
 * slot moves the hold (the old unit is free as soon as this commits).
 */
export async function holdSlot(
  deps: Deps,
  { bookingId, startsAt, timeZone }: { bookingId: string; startsAt: Date; timeZone: string },
): Promise<{ startsAt: Date; holdExpiresAt: Date }> {
  assertBookableSlot(deps, startsAt);
  return deps.db.transaction(async (tx) => {
    await lockSlot(tx, startsAt);
    const row = await lockBookingRow(tx, bookingId);
    if (!row) throw notFound();
    assertEditable(row);
    const now = deps.now();
    const taken = await countTaken(tx, startsAt, now, bookingId);
    if (taken >= deps.config.BOOKING_SLOT_CAPACITY) throw new TRPCError({ code: 'CONFLICT', message: slotTakenMessage });
    const holdExpiresAt = new Date(now.getTime() + deps.config.BOOKING_HOLD_MINUTES * 60_000);
    const patch = { startsAt, timeZone, holdExpiresAt };
    const data = { startsAt: startsAt.toISOString(), previousStartsAt: row.startsAt?.toISOString() ?? null };
    if (row.status === 'draft') await transition(tx, row, 'held', customer, patch, data);
    else {
      await updateBooking(tx, row.id, patch);
      await writeAudit(tx, { ...customer, action: 'booking.hold_moved', entityType: 'booking', entityId: row.id, data });
    }
    return { startsAt, holdExpiresAt };
  });
}

/** Takes the hold again when it lapsed (if the slot still has room); otherwise leaves it. */
async function renewLapsedHold(tx: Tx, deps: Deps, row: BookingRow): Promise<Date> {
  const now = deps.now();
  if (row.holdExpiresAt && row.holdExpiresAt > now) return row.holdExpiresAt;
  const taken = await countTaken(tx, row.startsAt!, now, row.id);
  if (taken >= deps.config.BOOKING_SLOT_CAPACITY) throw new TRPCError({ code: 'CONFLICT', message: slotTakenMessage });
  const holdExpiresAt = new Date(now.getTime() + deps.config.BOOKING_HOLD_MINUTES * 60_000);
  await updateBooking(tx, row.id, { holdExpiresAt });
  return holdExpiresAt;
}

/**
 * The contact step (spec section 7 item 2): a customers row with first_name,
 * last_name, email and phone, attached to the booking, which then awaits payment.
 * Saving again updates the same customer row.
 */
export async function saveContact(deps: Deps, input: ContactInput & { bookingId: string }): Promise<BookingView> {
  await deps.db.transaction(async (tx) => {
    const row = await lockBooking(tx, input.bookingId);
    if (!row) throw notFound();
    assertEditable(row);
    if (!row.startsAt) throw new TRPCError({ code: 'BAD_REQUEST', message: selectTimeFirstMessage });
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

// ---- For payments, notifications and staff ------------------------------------

/**
 * Payment went through: the booking is confirmed, whatever happened to its
 * hold — the money was taken. If the slot filled up meanwhile it is confirmed
 * anyway and an 'booking.overbooked' audit entry tells staff. Idempotent: a
 * repeat returns `{ manageToken: null }` and changes nothing.
 */
export async function confirmBooking(tx: Tx, deps: Deps, { bookingId }: { bookingId: string }): Promise<{ manageToken: string | null }> {
  const row = await lockBooking(tx, bookingId);
  if (!row) throw notFound();
  if (row.status === 'confirmed' || row.status === 'completed' || row.status === 'no_show') return { manageToken: null };
  if (row.status === 'cancelled') {
    await writeAudit(tx, { ...provider, action: 'booking.paid_after_cancel', entityType: 'booking', entityId: row.id });
    deps.log.warn({ bookingId }, 'payment succeeded for a cancelled booking');
    return { manageToken: null };
  }
  if (!row.startsAt) throw new Error(`Booking ${bookingId} was paid without a time`);

  const now = deps.now();
  const others = await countTaken(tx, row.startsAt, now, row.id);
  if (others >= deps.config.BOOKING_SLOT_CAPACITY) {
    await writeAudit(tx, {
      ...provider,
      action: 'booking.overbooked',
      entityType: 'booking',
      entityId: row.id,
      data: { startsAt: row.startsAt.toISOString(), taken: others + 1, capacity: deps.config.BOOKING_SLOT_CAPACITY },
    });
    deps.log.warn({ bookingId, startsAt: row.startsAt }, 'booking confirmed into a full slot (hold had expired)');
  }
  const manageToken = randomBytes(32).toString('base64url');
  await transition(tx, row, 'confirmed', provider, { confirmedAt: now, holdExpiresAt: null, manageTokenHash: hashToken(manageToken) });
  await onBookingConfirmed(tx, deps, { bookingId, manageToken });
  return { manageToken };
}

/** Cash App Pay and other delayed methods: the slot stays taken while the money is on its way. */
export async function markPaymentProcessing(tx: Tx, _deps: Deps, { bookingId }: { bookingId: string }): Promise<void> {
  const row = await lockBooking(tx, bookingId);
  if (!row) throw notFound();
  if (row.status !== 'held' && row.status !== 'awaiting_payment') return; // already further along
  await transition(tx, row, 'payment_processing', provider, { holdExpiresAt: null });
}

/** A delayed payment failed: the visitor may pay again, and gets the slot back if it is still free. */
export async function markPaymentFailed(tx: Tx, deps: Deps, { bookingId }: { bookingId: string }): Promise<void> {
  const row = await lockBooking(tx, bookingId);
  if (!row) throw notFound();
  if (row.status !== 'payment_processing') return;
  const now = deps.now();
  const free = row.startsAt && (await countTaken(tx, row.startsAt, now, row.id)) < deps.config.BOOKING_SLOT_CAPACITY;
  const holdExpiresAt = free ? new Date(now.getTime() + deps.config.BOOKING_HOLD_MINUTES * 60_000) : null;
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
  assertBookableSlot(deps, startsAt);
  await lockSlot(tx, startsAt);
  const row = await lockBookingRow(tx, bookingId);
  if (!row) throw notFound();
  if (row.status !== 'confirmed' && row.status !== 'payment_processing') {
    throw new TRPCError({ code: 'CONFLICT', message: 'Only a confirmed booking can be rescheduled.' });
  }
  if (row.startsAt?.getTime() === startsAt.getTime()) return { previousStartsAt: row.startsAt, startsAt };
  const taken = await countTaken(tx, startsAt, deps.now(), row.id);
  if (taken >= deps.config.BOOKING_SLOT_CAPACITY) throw new TRPCError({ code: 'CONFLICT', message: slotTakenMessage });
  await updateBooking(tx, row.id, { startsAt, reminderSentAt: null });
  await writeAudit(tx, {
    ...actor,
    action: 'booking.rescheduled',
    entityType: 'booking',
    entityId: row.id,
    data: { from: row.startsAt?.toISOString() ?? null, to: startsAt.toISOString() },
  });
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
  await transition(
    tx,
    row,
    'cancelled',
    { actorType: by, actorId },
    { cancelledAt: deps.now(), cancellationReason: reason, holdExpiresAt: null },
    { reason },
  );
  return { alreadyCancelled: false, previousStatus: row.status };
}

/** Staff record how a confirmed appointment went. */
export async function markBookingOutcome(
  tx: Tx,
  _deps: Deps,
  { bookingId, outcome, staffId }: { bookingId: string; outcome: 'completed' | 'no_show'; staffId: string },
): Promise<void> {
  const row = await lockBooking(tx, bookingId);
  if (!row) throw notFound();
  if (row.status === outcome) return;
  await transition(tx, row, outcome, { actorType: 'staff', actorId: staffId });
}
