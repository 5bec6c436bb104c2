import { and, asc, eq, gt, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { documents } from '../../db/schema.ts';

/** The only module of the documents feature that speaks to the ORM. */

export type DocumentRow = typeof documents.$inferSelect;

export async function insertPendingDocument(
  tx: DbOrTx,
  values: { bookingId: string; originalName: string; storageKey: string; uploadTokenHash: string; uploadExpiresAt: Date },
): Promise<DocumentRow> {
  const [row] = await tx.insert(documents).values({ ...values, status: 'pending' }).returning();
  return row!;
}

/** Documents counting towards the per-booking limit: stored, infected, or an upload still possible. */
export async function countActiveDocuments(tx: DbOrTx, bookingId: string, now: Date): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(documents)
    .where(
      and(
        eq(documents.bookingId, bookingId),
        sql`(${documents.status} in ('stored', 'infected') or (${documents.status} = 'pending' and ${documents.uploadExpiresAt} > ${now.toISOString()}::timestamptz))`,
      ),
    );
  return Number(row?.n ?? 0);
}

/** Upload targets nobody used in time. */
export async function deleteExpiredPending(tx: DbOrTx, bookingId: string, now: Date): Promise<void> {
  await tx
    .delete(documents)
    .where(and(eq(documents.bookingId, bookingId), eq(documents.status, 'pending'), lt(documents.uploadExpiresAt, now)));
}

/**
 * Spends a one-time upload token: the first caller gets the row, and the token
 * can never be used again (its hash is cleared in the same statement).
 */
export async function claimUploadToken(tx: DbOrTx, tokenHash: string, now: Date): Promise<DocumentRow | null> {
  const [row] = await tx
    .update(documents)
    .set({ uploadTokenHash: null })
    .where(and(eq(documents.uploadTokenHash, tokenHash), eq(documents.status, 'pending'), gt(documents.uploadExpiresAt, now)))
    .returning();
  return row ?? null;
}

export async function findDocument(db: DbOrTx, bookingId: string, documentId: string): Promise<DocumentRow | null> {
  const [row] = await db
    .select()
    .from(documents)
    .where(and(eq(documents.id, documentId), eq(documents.bookingId, bookingId)));
  return row ?? null;
}

export async function lockDocument(tx: DbOrTx, id: string): Promise<DocumentRow | null> {
  const [row] = await tx.select().from(documents).where(eq(documents.id, id)).for('update');
  return row ?? null;
}

export async function updateDocument(tx: DbOrTx, id: string, patch: Partial<Omit<DocumentRow, 'id' | 'bookingId'>>): Promise<DocumentRow> {
  const [row] = await tx.update(documents).set(patch).where(eq(documents.id, id)).returning();
  return row!;
}

export async function deleteDocumentRow(tx: DbOrTx, id: string): Promise<void> {
  await tx.delete(documents).where(eq(documents.id, id));
}

/** Every document row of a booking, oldest first. */
export async function listBookingDocuments(db: DbOrTx, bookingId: string): Promise<DocumentRow[]> {
  return db.select().from(documents).where(eq(documents.bookingId, bookingId)).orderBy(asc(documents.createdAt));
}
