import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { payments, processedEvents } from '../../db/schema.ts';

/** The only module of the payments feature that speaks to the ORM. */

export type PaymentRow = typeof payments.$inferSelect;
type NewPayment = Pick<typeof payments.$inferInsert, 'bookingId' | 'provider' | 'providerPaymentId' | 'amountCents' | 'currency' | 'status' | 'purpose'>;

/** Records an intent; a second insert of the same provider id (a repeat of the same intent) changes nothing. */
export async function insertPaymentOnce(db: DbOrTx, values: NewPayment): Promise<void> {
  await db.insert(payments).values(values).onConflictDoNothing({ target: payments.providerPaymentId });
}

export async function insertPayment(tx: DbOrTx, values: NewPayment): Promise<PaymentRow> {
  const [row] = await tx.insert(payments).values(values).returning();
  return row!;
}

export async function lockPaymentByProviderId(tx: DbOrTx, providerPaymentId: string): Promise<PaymentRow | null> {
  const [row] = await tx.select().from(payments).where(eq(payments.providerPaymentId, providerPaymentId)).for('update');
  return row ?? null;
}

export async function updatePayment(
  tx: DbOrTx,
  id: string,
  patch: Partial<Pick<PaymentRow, 'status' | 'method' | 'failureMessage' | 'refundedCents' | 'providerRefundId'>>,
): Promise<PaymentRow | null> {
  const [row] = await tx
    .update(payments)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(eq(payments.id, id))
    .returning();
  return row ?? null;
}

/**
 * Every captured payment of a booking (succeeded, or refunded in part or whole), oldest first,
 * locked for a refund: the booking's own and each co-signer's fee paid later (decision 125).
 */
export async function lockCapturedPayments(tx: DbOrTx, bookingId: string): Promise<PaymentRow[]> {
  return tx
    .select()
    .from(payments)
    .where(and(eq(payments.bookingId, bookingId), inArray(payments.status, ['succeeded', 'refunded'])))
    .orderBy(asc(payments.createdAt), asc(payments.id))
    .for('update');
}

/** A booking's payments of one purpose, oldest first (the co-signers' fees paid from the booking page). */
export async function paymentsOf(db: DbOrTx, bookingId: string, purpose: PaymentRow['purpose']): Promise<PaymentRow[]> {
  return db.select().from(payments).where(and(eq(payments.bookingId, bookingId), eq(payments.purpose, purpose))).orderBy(asc(payments.createdAt), asc(payments.id));
}

/** A refund the provider reports (possibly late or out of order). */
export async function recordRefund(
  tx: DbOrTx,
  { providerPaymentId, refundedCents, refundId, full }: { providerPaymentId: string; refundedCents: number; refundId: string | null; full: boolean },
): Promise<void> {
  await tx
    .update(payments)
    .set({
      // Refund totals only grow: an older event never lowers them.
      refundedCents: sql`greatest(${payments.refundedCents}, ${refundedCents})`,
      // An older (smaller) refund event does not replace the latest refund's id.
      providerRefundId: refundId
        ? sql`case when ${refundedCents} >= ${payments.refundedCents} then ${refundId} else ${payments.providerRefundId} end`
        : sql`${payments.providerRefundId}`,
      status: full ? 'refunded' : sql`${payments.status}`,
      updatedAt: sql`now()`,
    })
    .where(eq(payments.providerPaymentId, providerPaymentId));
}

/** Claims a provider event id; false when it was processed before (or is being processed now). */
export async function claimEvent(tx: DbOrTx, event: { id: string; provider: string; type: string }): Promise<boolean> {
  const fresh = await tx.insert(processedEvents).values(event).onConflictDoNothing().returning({ id: processedEvents.id });
  return fresh.length > 0;
}
