import { and, eq, exists } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { bookings, identityVerifications } from '../../db/schema.ts';

/** What the access policy needs to know of a booking: its notary. */
export async function bookingNotary(db: DbOrTx, bookingId: string): Promise<{ notaryId: string | null } | null> {
  const [row] = await db.select({ notaryId: bookings.notaryId }).from(bookings).where(eq(bookings.id, bookingId));
  return row ?? null;
}

/** Whether the booking's customer has passed identity proofing (the provider said verified). */
export async function signerVerified(db: DbOrTx, bookingId: string): Promise<boolean> {
  const [row] = await db
    .select({ verified: exists(db.select({ one: identityVerifications.id }).from(identityVerifications).where(and(eq(identityVerifications.bookingId, bookingId), eq(identityVerifications.status, 'verified')))) })
    .from(bookings)
    .where(eq(bookings.id, bookingId));
  return row?.verified === true;
}
