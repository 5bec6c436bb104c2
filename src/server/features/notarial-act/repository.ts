import { and, asc, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { notarialDocuments, notaryProfiles } from '../../db/schema.ts';

/**
 * The notarial act's tables: `notarial_documents` (one row per document with
 * an act: signature, seal claim and seal, set aside, supporting) and
 * `notary_profiles` (commission and signing certificate). Other features'
 * data (documents, the booking and its customer, recordings, the journal,
 * staff accounts) comes through their services.
 *
 * The writes that decide who seals: docs/decisions/070-sealing-once.md.
 */

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

/** The document's page count, known once the seal worker has counted it (fields are checked against it). */
export async function recordPageCount(tx: DbOrTx, bookingId: string, documentId: string, pageCount: number): Promise<void> {
  await tx.insert(notarialDocuments).values({ bookingId, documentId, pageCount }).onConflictDoUpdate({ target: notarialDocuments.documentId, set: { pageCount } });
}

// ---- The act's rows of a booking, and its writes beside the seal ---------------

export type ActRow = typeof notarialDocuments.$inferSelect;

/** Every act row of a booking (one per document that has one). */
export async function actsOfBooking(db: DbOrTx, bookingId: string): Promise<ActRow[]> {
  return db.select().from(notarialDocuments).where(eq(notarialDocuments.bookingId, bookingId));
}

/** The act row of one document. */
export async function actOfDocument(db: DbOrTx, documentId: string): Promise<ActRow | null> {
  const [row] = await db.select().from(notarialDocuments).where(eq(notarialDocuments.documentId, documentId));
  return row ?? null;
}

/** The signer's adopted signature on an act not sealed nor set aside; false when it is. */
export async function recordSignature(
  tx: DbOrTx,
  actId: string,
  values: Pick<typeof notarialDocuments.$inferInsert, 'signatureKind' | 'signatureText' | 'signaturePng' | 'signedAt'>,
): Promise<boolean> {
  const updated = await tx
    .update(notarialDocuments)
    .set(values)
    .where(and(eq(notarialDocuments.id, actId), isNull(notarialDocuments.sealedAt), isNull(notarialDocuments.notNotarizableAt)))
    .returning({ id: notarialDocuments.id });
  return updated.length > 0;
}

/** Creates the document's act row or changes it (set aside as not notarizable, marked supporting). */
export async function upsertAct(
  tx: DbOrTx,
  bookingId: string,
  documentId: string,
  values: Pick<Partial<typeof notarialDocuments.$inferInsert>, 'notNotarizableAt' | 'notNotarizableReason' | 'notNotarizableBy' | 'supportingAt'>,
): Promise<void> {
  await tx.insert(notarialDocuments).values({ bookingId, documentId, ...values }).onConflictDoUpdate({ target: notarialDocuments.documentId, set: values });
}

/** When the booking's first document was sealed (null: none yet). */
export async function firstSealedAt(db: DbOrTx, bookingId: string): Promise<Date | null> {
  const [first] = await db
    .select({ sealedAt: notarialDocuments.sealedAt })
    .from(notarialDocuments)
    .where(and(eq(notarialDocuments.bookingId, bookingId), isNotNull(notarialDocuments.sealedAt)))
    .orderBy(asc(notarialDocuments.sealedAt))
    .limit(1);
  return first?.sealedAt ?? null;
}

// ---- Notaries' commissions and signing certificates ---------------------------

export type NotaryProfileRow = typeof notaryProfiles.$inferSelect;

export async function findProfile(db: DbOrTx, staffUserId: string): Promise<NotaryProfileRow | undefined> {
  const [row] = await db.select().from(notaryProfiles).where(eq(notaryProfiles.staffUserId, staffUserId));
  return row;
}

export async function upsertProfile(db: DbOrTx, staffUserId: string, values: Omit<Partial<typeof notaryProfiles.$inferInsert>, 'staffUserId'>): Promise<void> {
  await db.insert(notaryProfiles).values({ staffUserId, ...values }).onConflictDoUpdate({ target: notaryProfiles.staffUserId, set: values });
}
