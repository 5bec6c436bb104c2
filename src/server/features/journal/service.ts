import { DomainError } from '../../errors.ts';
import { and, asc, desc, eq, gte, lt, lte, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import { auditLog, journalEntries, staffUsers } from '../../db/schema.ts';
import type { Deps } from '../../deps.ts';
import type { StaffIdentity } from '../staff/session.ts';
import { staffMay } from '../access/service.ts';
import { writeAudit } from '../audit.ts';
import { entryHash, genesisHash, verifyChain, type ChainProblem } from './chain.ts';

/**
 * The notary journal: one entry per notarial act (and per correction),
 * appended under a transaction-scoped advisory lock so the chain has one
 * order, never edited (a database trigger refuses UPDATE/DELETE).
 */
const journalLockKey = 724_311_906;

export interface JournalActData {
  actType: string;
  documentTitle: string;
  pageCount: number;
  signerName: string;
  signerAddress: string | null;
  identity: {
    provider: string;
    verificationId: string;
    idType: string | null;
    issuingState: string | null;
    expiresOn: string | null;
    /** The last 4 characters of the ID's number, never the whole number. */
    idNumberLast4?: string | null;
    selfieMatch?: boolean | null;
    /** The identity-proofing methods used and their results (docs/decisions/085). Never SSN digits or answers. */
    methods?: { method: 'credential_analysis' | 'knowledge_based_authentication' | 'notary_visual_confirmation'; result: string; provider?: string; reference?: string; attempt?: number; at?: string }[];
  };
  feeCents: number;
  currency: string;
  recordingRef: string | null;
  sealedSha256: string;
  notaryName: string;
  bookingReference: string;
}

export type JournalRow = typeof journalEntries.$inferSelect;

export async function appendJournalEntry(
  tx: Tx,
  entry: { notaryId: string; bookingId: string | null; kind: 'act' | 'correction'; correctsSeq?: number | null; performedAt: Date; data: Record<string, unknown> },
): Promise<JournalRow> {
  await tx.execute(sql`select pg_advisory_xact_lock(${journalLockKey})`);
  const [last] = await tx.select({ seq: journalEntries.seq, hash: journalEntries.hash }).from(journalEntries).orderBy(desc(journalEntries.seq)).limit(1);
  const anchor = last ? null : await pruneAnchor(tx);
  const seq = (last?.seq ?? anchor?.seq ?? 0) + 1;
  const prevHash = last?.hash ?? anchor?.hash ?? genesisHash;
  // What jsonb will give back: no undefined, plain values.
  const data = JSON.parse(JSON.stringify(entry.data)) as Record<string, unknown>;
  const fields = { seq, notaryId: entry.notaryId, bookingId: entry.bookingId, kind: entry.kind, correctsSeq: entry.correctsSeq ?? null, performedAt: entry.performedAt, data, prevHash };
  const [row] = await tx.insert(journalEntries).values({ ...fields, hash: entryHash(fields) }).returning();
  return row!;
}

/** Where the kept journal starts after retention removed older entries (recorded in the audit log). */
async function pruneAnchor(db: DbOrTx): Promise<{ seq: number; hash: string } | null> {
  const [row] = await db
    .select({ data: auditLog.data })
    .from(auditLog)
    .where(and(eq(auditLog.action, 'journal.pruned'), eq(auditLog.entityType, 'journal')))
    .orderBy(desc(auditLog.id))
    .limit(1);
  const data = row?.data as { uptoSeq?: number; lastHash?: string } | undefined;
  return data?.uptoSeq && data.lastHash ? { seq: data.uptoSeq, hash: data.lastHash } : null;
}

export interface JournalVerification {
  ok: boolean;
  entries: number;
  problem: ChainProblem | null;
}

/** Checks the whole chain (what `npm run journal:verify` runs). */
export async function verifyJournal(db: DbOrTx): Promise<JournalVerification> {
  const rows = await db.select().from(journalEntries).orderBy(asc(journalEntries.seq));
  const problem = verifyChain(
    rows.map((r) => ({ ...r, bookingId: r.bookingId ?? null, correctsSeq: r.correctsSeq ?? null })),
    await pruneAnchor(db),
  );
  return { ok: !problem, entries: rows.length, problem };
}

/** A correction is a new entry naming the one it corrects; the original stays as it was. */
export async function correctJournalEntry(deps: Deps, staff: StaffIdentity, input: { seq: number; note: string; changes: Record<string, string> }) {
  return deps.db.transaction(async (tx) => {
    const [original] = await tx.select().from(journalEntries).where(eq(journalEntries.seq, input.seq));
    if (!original) throw new DomainError('NOT_FOUND', 'Journal entry not found.');
    if (staff.user.role !== 'admin' && original.notaryId !== staff.user.id) throw new DomainError('FORBIDDEN', 'You may correct only your own journal.');
    const row = await appendJournalEntry(tx, {
      notaryId: original.notaryId,
      bookingId: original.bookingId,
      kind: 'correction',
      correctsSeq: original.seq,
      performedAt: deps.now(),
      data: { note: input.note, changes: input.changes, correctedBy: staff.user.id },
    });
    await writeAudit(tx, { actorType: 'staff', actorId: staff.user.id, action: 'journal.corrected', entityType: 'journal', entityId: String(original.seq), data: { correctionSeq: row.seq } });
    return row;
  });
}

export interface JournalListItem {
  seq: number;
  kind: 'act' | 'correction';
  correctsSeq: number | null;
  performedAt: Date;
  notaryName: string;
  data: Record<string, unknown>;
  hash: string;
}

/** A notary sees their own journal; an admin sees every notary's (the access policy's 'read_journal'). Others: refused. */
export async function listJournal(db: Db, staff: StaffIdentity, range: { from?: string; to?: string }): Promise<JournalListItem[]> {
  // Whose journal: a notary's own; an admin reads every notary's, so asks as an admin of no one's in particular.
  const owner = staff.user.role === 'admin' ? null : staff.user.id;
  if (!staffMay(staff.user, 'read_journal', owner)) throw new DomainError('FORBIDDEN', 'Only notaries and admins may see the journal.');
  const conditions = [];
  if (owner) conditions.push(eq(journalEntries.notaryId, owner));
  if (range.from) conditions.push(gte(journalEntries.performedAt, new Date(`${range.from}T00:00:00Z`)));
  if (range.to) conditions.push(lt(journalEntries.performedAt, new Date(new Date(`${range.to}T00:00:00Z`).getTime() + 86_400_000)));
  const rows = await db
    .select({ entry: journalEntries, notaryName: staffUsers.name, notaryEmail: staffUsers.email })
    .from(journalEntries)
    .leftJoin(staffUsers, eq(staffUsers.id, journalEntries.notaryId))
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(asc(journalEntries.seq))
    .limit(5000);
  return rows.map(({ entry, notaryName, notaryEmail }) => ({
    seq: entry.seq,
    kind: entry.kind,
    correctsSeq: entry.correctsSeq ?? null,
    performedAt: entry.performedAt,
    notaryName: notaryName || notaryEmail || entry.notaryId,
    data: entry.data as Record<string, unknown>,
    hash: entry.hash,
  }));
}

/**
 * Retention (JOURNAL_RETENTION_DAYS): removes the oldest entries as a prefix
 * and records the last removed entry's hash, so the kept chain still verifies
 * from that anchor. The trigger lets a DELETE through only with this setting.
 */
export async function pruneJournal(deps: Deps): Promise<number> {
  const cutoff = new Date(deps.now().getTime() - deps.config.JOURNAL_RETENTION_DAYS * 86_400_000);
  return deps.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${journalLockKey})`);
    const old = await tx
      .select({ seq: journalEntries.seq, hash: journalEntries.hash, performedAt: journalEntries.performedAt })
      .from(journalEntries)
      .orderBy(asc(journalEntries.seq))
      .limit(1000);
    const prefix = [];
    for (const row of old) {
      if (row.performedAt.getTime() >= cutoff.getTime()) break;
      prefix.push(row);
    }
    const last = prefix.at(-1);
    if (!last) return 0;
    await tx.execute(sql`set local notary.journal_prune = 'on'`);
    await tx.delete(journalEntries).where(lte(journalEntries.seq, last.seq));
    await writeAudit(tx, { actorType: 'system', action: 'journal.pruned', entityType: 'journal', entityId: String(last.seq), data: { uptoSeq: last.seq, lastHash: last.hash } });
    return prefix.length;
  });
}
