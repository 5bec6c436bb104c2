import { and, asc, desc, eq, gte, lt, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { auditLog, journalCheckpoints, journalEntries, platformKeys, staffUsers } from '../../db/schema.ts';

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

// ---- Entries: appending, correcting, listing, pruning --------------------------

/** One appender at a time, on every node (the chain's next seq and prev hash). */
export const journalLockKey = 724_311_906;

export async function lockJournal(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${journalLockKey})`);
}

export async function lastEntry(tx: DbOrTx): Promise<{ seq: number; hash: string } | undefined> {
  const [last] = await tx.select({ seq: journalEntries.seq, hash: journalEntries.hash }).from(journalEntries).orderBy(desc(journalEntries.seq)).limit(1);
  return last;
}

export async function insertEntry(tx: DbOrTx, values: typeof journalEntries.$inferInsert): Promise<EntryRow> {
  const [row] = await tx.insert(journalEntries).values(values).returning();
  return row!;
}

export async function findEntry(db: DbOrTx, seq: number): Promise<EntryRow | undefined> {
  const [entry] = await db.select().from(journalEntries).where(eq(journalEntries.seq, seq));
  return entry;
}

/** The newest 'journal.pruned' record's data: where the kept journal starts after retention. */
export async function lastPruneRecord(db: DbOrTx): Promise<unknown> {
  const [row] = await db
    .select({ data: auditLog.data })
    .from(auditLog)
    .where(and(eq(auditLog.action, 'journal.pruned'), eq(auditLog.entityType, 'journal')))
    .orderBy(desc(auditLog.id))
    .limit(1);
  return row?.data;
}

/** Entries with their notary's name: one notary's (or everyone's, `notaryId` null) in a range of days, oldest first. */
export async function listEntries(db: DbOrTx, filter: { notaryId: string | null; from?: Date; before?: Date }) {
  const conditions = [];
  if (filter.notaryId) conditions.push(eq(journalEntries.notaryId, filter.notaryId));
  if (filter.from) conditions.push(gte(journalEntries.performedAt, filter.from));
  if (filter.before) conditions.push(lt(journalEntries.performedAt, filter.before));
  return db
    .select({ entry: journalEntries, notaryName: staffUsers.name, notaryEmail: staffUsers.email })
    .from(journalEntries)
    .leftJoin(staffUsers, eq(staffUsers.id, journalEntries.notaryId))
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(asc(journalEntries.seq))
    .limit(5000);
}

/** The oldest entries (retention looks for the prefix to remove). */
export async function oldestEntries(tx: DbOrTx, limit: number) {
  return tx
    .select({ seq: journalEntries.seq, hash: journalEntries.hash, performedAt: journalEntries.performedAt })
    .from(journalEntries)
    .orderBy(asc(journalEntries.seq))
    .limit(limit);
}

/** Removes entries up to `seq`: the append-only trigger lets it through only with this transaction's setting. */
export async function deleteEntriesUpTo(tx: DbOrTx, seq: number): Promise<void> {
  await tx.execute(sql`set local notary.journal_prune = 'on'`);
  await tx.delete(journalEntries).where(lte(journalEntries.seq, seq));
}

/** The fees already attributed to acts of this booking in the journal (the session's fee is split by decision 074). */
export async function journaledFeeCents(db: DbOrTx, bookingId: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<string | null>`coalesce(sum((${journalEntries.data}->>'feeCents')::bigint), 0)` })
    .from(journalEntries)
    .where(and(eq(journalEntries.bookingId, bookingId), eq(journalEntries.kind, 'act')));
  return Number(row?.total ?? 0);
}
