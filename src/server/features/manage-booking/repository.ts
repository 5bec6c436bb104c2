import { and, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { payments } from '../../db/schema.ts';

/** The latest payment with what was refunded (the booking view leaves refunds out). */
export async function latestPaymentWithRefund(db: DbOrTx, bookingId: string) {
  const [row] = await db
    .select({
      amountCents: payments.amountCents,
      refundedCents: payments.refundedCents,
      currency: payments.currency,
      status: payments.status,
      method: payments.method,
    })
    .from(payments)
    .where(and(eq(payments.bookingId, bookingId)))
    .orderBy(desc(payments.createdAt))
    .limit(1);
  return row ?? null;
}
