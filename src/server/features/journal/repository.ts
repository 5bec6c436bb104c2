import { and, asc, desc, eq, gt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { journalCheckpoints, journalEntries, platformKeys } from '../../db/schema.ts';

/**
 * The journal's anchor tables (docs/decisions/090-journal-anchor.md): signed
 * checkpoints, the platform key that signs them, and the entries read in
 * batches so that checking a journal of any length takes the same memory.
 */

export type CheckpointRow = typeof journalCheckpoints.$inferSelect;
export type EntryRow = typeof journalEntries.$inferSelect;

export async function chainHead(db: DbOrTx): Promise<{ seq: number; hash: string } | null> {
  const [row] = await db.select({ seq: journalEntries.seq, hash: journalEntries.hash }).from(journalEntries).orderBy(desc(journalEntries.seq)).limit(1);
  return row ?? null;
}

export async function latestCheckpoint(db: DbOrTx): Promise<CheckpointRow | null> {
  const [row] = await db.select().from(journalCheckpoints).orderBy(desc(journalCheckpoints.seq), desc(journalCheckpoints.id)).limit(1);
  return row ?? null;
}

export async function insertCheckpoint(db: DbOrTx, row: Omit<CheckpointRow, 'id'>): Promise<CheckpointRow> {
  const [inserted] = await db.insert(journalCheckpoints).values(row).returning();
  return inserted!;
}

/** Entries after `afterSeq`, oldest first, `size` at a time. */
export async function* entryBatches(db: DbOrTx, afterSeq: number, size: number): AsyncGenerator<EntryRow[]> {
  let last = afterSeq;
  while (true) {
    const rows = await db.select().from(journalEntries).where(gt(journalEntries.seq, last)).orderBy(asc(journalEntries.seq)).limit(size);
    if (rows.length > 0) yield rows;
    if (rows.length < size) return;
    last = rows.at(-1)!.seq;
  }
}

/** Checkpoints of entries after `afterSeq`, in entry order, `size` at a time. */
export async function* checkpointBatches(db: DbOrTx, afterSeq: number, size: number): AsyncGenerator<CheckpointRow[]> {
  let cursor = { seq: afterSeq, id: Number.MAX_SAFE_INTEGER };
  while (true) {
    const rows = await db
      .select()
      .from(journalCheckpoints)
      // A row comparison, so the (seq, id) index answers each batch directly (an OR would rescan from the start).
      .where(sql`(${journalCheckpoints.seq}, ${journalCheckpoints.id}) > (${cursor.seq}, ${cursor.id})`)
      .orderBy(asc(journalCheckpoints.seq), asc(journalCheckpoints.id))
      .limit(size);
    if (rows.length > 0) yield rows;
    if (rows.length < size) return;
    cursor = { seq: rows.at(-1)!.seq, id: rows.at(-1)!.id };
  }
}

/** Retention removed entries up to `seq`: their checkpoints go too (inside the pruning transaction). */
export async function deleteCheckpointsUpTo(db: DbOrTx, seq: number): Promise<void> {
  await db.delete(journalCheckpoints).where(sql`${journalCheckpoints.seq} <= ${seq}`);
}

export async function platformKey(db: DbOrTx, name: string) {
  const [row] = await db.select().from(platformKeys).where(eq(platformKeys.name, name));
  return row ?? null;
}

/** Stores a generated key unless another node stored one first; returns the one kept. */
export async function storePlatformKey(db: DbOrTx, row: { name: string; sealedPrivateKey: string; publicKey: string }) {
  await db.insert(platformKeys).values(row).onConflictDoNothing();
  return (await platformKey(db, row.name))!;
}

/** The act a /verify lookup names: by the printed code or by the sealed file's SHA-256. */
export async function findActEntry(db: DbOrTx, by: { code: string } | { sha256: string }): Promise<EntryRow | null> {
  const where = 'code' in by ? sql`${journalEntries.data}->>'verificationCode' = ${by.code}` : sql`${journalEntries.data}->>'sealedSha256' = ${by.sha256}`;
  const [row] = await db
    .select()
    .from(journalEntries)
    .where(and(eq(journalEntries.kind, 'act'), where))
    .orderBy(asc(journalEntries.seq))
    .limit(1);
  return row ?? null;
}
