import { and, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { journalEntries, notarialDocuments } from '../../db/schema.ts';

/** The act's own writes on `notarial_documents` that decide who seals (docs/decisions/070-sealing-once.md). */

/** Takes the seal claim unless the document is sealed or another claim is still within its lease. True when taken. */
export async function claimSeal(tx: DbOrTx, actId: string, claim: string, now: Date, until: Date): Promise<boolean> {
  const rows = await tx
    .update(notarialDocuments)
    .set({ sealClaim: claim, sealClaimUntil: until })
    .where(
      and(
        eq(notarialDocuments.id, actId),
        isNull(notarialDocuments.sealedAt),
        or(isNull(notarialDocuments.sealClaim), isNull(notarialDocuments.sealClaimUntil), lt(notarialDocuments.sealClaimUntil, now)),
      ),
    )
    .returning({ id: notarialDocuments.id });
  return rows.length > 0;
}

/** Gives the claim back (the seal failed): only our own claim. */
export async function releaseSeal(db: DbOrTx, actId: string, claim: string): Promise<void> {
  await db
    .update(notarialDocuments)
    .set({ sealClaim: null, sealClaimUntil: null })
    .where(and(eq(notarialDocuments.id, actId), eq(notarialDocuments.sealClaim, claim)));
}

/** Records the seal; false when the claim is no longer ours or the document is already sealed. */
export async function completeSeal(
  tx: DbOrTx,
  actId: string,
  claim: string,
  values: { actType: (typeof notarialDocuments.$inferInsert)['actType']; sealedKey: string; sealedSha256: string; signatureLevel: (typeof notarialDocuments.$inferInsert)['signatureLevel']; pageCount: number; sealedAt: Date; sealedBy: string },
): Promise<boolean> {
  const rows = await tx
    .update(notarialDocuments)
    .set({ ...values, sealClaim: null, sealClaimUntil: null })
    .where(and(eq(notarialDocuments.id, actId), eq(notarialDocuments.sealClaim, claim), isNull(notarialDocuments.sealedAt)))
    .returning({ id: notarialDocuments.id });
  return rows.length > 0;
}

/** Whether any document of the booking carries a seal (a notarial act happened). */
export async function anySealed(db: DbOrTx, bookingId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: notarialDocuments.id })
    .from(notarialDocuments)
    .where(and(eq(notarialDocuments.bookingId, bookingId), isNotNull(notarialDocuments.sealedAt)))
    .limit(1);
  return !!row;
}

/** The fees already attributed to acts of this booking in the journal (the session's fee is split by decision 074). */
export async function journaledFeeCents(db: DbOrTx, bookingId: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<string | null>`coalesce(sum((${journalEntries.data}->>'feeCents')::bigint), 0)` })
    .from(journalEntries)
    .where(and(eq(journalEntries.bookingId, bookingId), eq(journalEntries.kind, 'act')));
  return Number(row?.total ?? 0);
}

/** The document's page count, known once the seal worker has counted it (fields are checked against it). */
export async function recordPageCount(tx: DbOrTx, bookingId: string, documentId: string, pageCount: number): Promise<void> {
  await tx.insert(notarialDocuments).values({ bookingId, documentId, pageCount }).onConflictDoUpdate({ target: notarialDocuments.documentId, set: { pageCount } });
}
