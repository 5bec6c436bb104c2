import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { bookingManageTokens, bookings } from '../../db/schema.ts';

/** A link's hash → its booking and purpose ('confirmation' for the one on the booking row). */
export async function findLinkByHash(db: DbOrTx, hash: string): Promise<{ bookingId: string; purpose: string } | null> {
  const [row] = await db.select({ id: bookings.id }).from(bookings).where(eq(bookings.manageTokenHash, hash));
  if (row) return { bookingId: row.id, purpose: 'confirmation' };
  // Links in later emails (reminder, no-show, document ready) carry tokens of their own.
  const [extra] = await db
    .select({ bookingId: bookingManageTokens.bookingId, purpose: bookingManageTokens.purpose })
    .from(bookingManageTokens)
    .where(eq(bookingManageTokens.tokenHash, hash));
  return extra ?? null;
}

export async function insertLink(db: DbOrTx, entry: { bookingId: string; tokenHash: string; purpose: string }): Promise<void> {
  await db.insert(bookingManageTokens).values(entry);
}

export async function findSealedConfirmationLink(db: DbOrTx, bookingId: string): Promise<string | null> {
  const [row] = await db.select({ sealed: bookings.manageTokenSealed }).from(bookings).where(eq(bookings.id, bookingId));
  return row?.sealed ?? null;
}
