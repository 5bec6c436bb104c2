import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { journalCheckpoints, journalEntries, platformKeys } from '../../db/schema.ts';

/**
 * The journal's anchor tables (docs/decisions/090-journal-anchor.md): signed
 * checkpoints and the platform key that signs them (the check reads its
 * batches in verify.ts).
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
