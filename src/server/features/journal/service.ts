import { DomainError } from '../../errors.ts';
import { and, asc, desc, eq, gte, lt, lte, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import { auditLog, journalEntries, staffUsers } from '../../db/schema.ts';
import type { Deps } from '../../deps.ts';
import type { StaffIdentity } from '../staff/session.ts';
import { staffMay } from '../access/service.ts';
import { writeAudit } from '../audit.ts';
import { checkpointFacts, checkpointIfDue, decodeCheckpoint, journalKey, takeCheckpoint, type DecodedCheckpoint } from './anchor.ts';
import { currentChainVersion, entryHash, genesisHash, verifyChain, type ChainReport, type CheckpointFacts } from './chain.ts';
import { checkpointBatches, deleteCheckpointsUpTo, entryBatches, findActEntry, latestCheckpoint } from './repository.ts';

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
  /** A co-signer's entry (issue 29): their participant row; absent or null for the booking's customer. */
  participantId?: string | null;
  recordingRef: string | null;
  sealedSha256: string;
  notaryName: string;
  bookingReference: string;
  /** Printed on the certificate page; the public /verify page finds the act by it (decision 091). */
  verificationCode: string;
  /** The commission as it stood at the act (the profile may change later). */
  commissionNumber: string | null;
  commissionState: string;
  commissionExpiresOn: string | null;
  signatureLevel: string;
  timestampAuthority: string | null;
  /** "Where are you right now?": a US state's code or "Outside the United States: {country}" (absent on entries before issue 26). */
  signerLocation?: string | null;
  /** A signer abroad: the notary's confirmation of RULONA's conditions (decision 106). */
  abroadConfirmation?: { confirmedAt: string; confirmedBy: string | null; statement: string } | null;
  /** A witness of the session the notary recorded as identifying this signer (decision 124): their name, their own identity proofing's reference, when. */
  credibleWitness?: { name: string; participantId: string; verificationId: string | null; recordedAt: string } | null;
}

/** An act as the public /verify page may show it: the notary and the act, nothing of the signer. */
export interface ActForVerification {
  sealedSha256: string;
  notaryName: string;
  commissionNumber: string | null;
  commissionState: string | null;
  commissionExpiresOn: string | null;
  actType: string;
  performedAt: Date;
  signatureLevel: string | null;
  timestampAuthority: string | null;
  verificationCode: string | null;
}

/** The journalled act with this verification code or sealed-file SHA-256 (kept after the file is deleted). */
export async function findActForVerification(db: DbOrTx, by: { code: string } | { sha256: string }): Promise<ActForVerification | null> {
  const row = await findActEntry(db, by);
  if (!row) return null;
  const d = row.data as Partial<Record<keyof JournalActData, unknown>>;
  const text = (v: unknown) => (typeof v === 'string' && v ? v : null);
  return {
    sealedSha256: String(d.sealedSha256 ?? ''),
    notaryName: text(d.notaryName) ?? 'Notary',
    commissionNumber: text(d.commissionNumber),
    commissionState: text(d.commissionState),
    commissionExpiresOn: text(d.commissionExpiresOn),
    actType: text(d.actType) ?? 'notarial act',
    performedAt: row.performedAt,
    signatureLevel: text(d.signatureLevel),
    timestampAuthority: text(d.timestampAuthority),
    verificationCode: text(d.verificationCode),
  };
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
  // created_at is hashed too (chain version 2), so the app writes it rather than the column default.
  const fields = {
    seq,
    notaryId: entry.notaryId,
    bookingId: entry.bookingId,
    kind: entry.kind,
    correctsSeq: entry.correctsSeq ?? null,
    performedAt: entry.performedAt,
    data,
    prevHash,
    createdAt: new Date(),
    chainVersion: currentChainVersion,
  };
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

export interface JournalVerification extends ChainReport {
  ok: boolean;
}

/**
 * Checks the whole chain against the signed checkpoints (what `npm run
 * journal:verify` runs): entries and checkpoints stream in batches, so memory
 * stays flat whatever the journal's length. `outside` are checkpoints kept
 * outside the database (an export, an email), checked like the stored ones.
 */
export async function verifyJournal(
  deps: Pick<Deps, 'config' | 'db' | 'secrets'>,
  options: { outside?: DecodedCheckpoint[]; batchSize?: number } = {},
): Promise<JournalVerification> {
  const { db } = deps;
  const size = options.batchSize ?? 1000;
  const anchor = await pruneAnchor(db);
  const key = await journalKey(deps);
  const outside = (options.outside ?? []).map((c) => checkpointFacts(c, key, 'copy kept outside the database')).sort((a, b) => a.seq - b.seq);
  async function* entries() {
    for await (const batch of entryBatches(db, anchor?.seq ?? 0, size)) {
      for (const r of batch) yield { ...r, bookingId: r.bookingId ?? null, correctsSeq: r.correctsSeq ?? null };
    }
  }
  async function* stored(): AsyncGenerator<CheckpointFacts> {
    for await (const batch of checkpointBatches(db, anchor?.seq ?? 0, size)) {
      for (const row of batch) {
        const decoded = decodeCheckpoint(row.encoded);
        const facts: CheckpointFacts = decoded
          ? checkpointFacts(decoded, key, 'stored')
          : { seq: row.seq, hash: row.headHash, takenAt: row.takenAt, signed: false, source: 'stored' };
        // The row's own columns must say what its signed payload says.
        if (facts.seq !== row.seq || facts.hash !== row.headHash) facts.signed = false;
        facts.timestampAuthority = decoded?.token ? (row.timestampAuthority ?? 'a timestamp authority') : null;
        yield facts;
      }
    }
  }
  /** Stored and outside checkpoints merged in seq order. */
  async function* checkpoints(): AsyncGenerator<CheckpointFacts> {
    let i = 0;
    for await (const cp of stored()) {
      while (i < outside.length && outside[i]!.seq <= cp.seq) yield outside[i++]!;
      yield cp;
    }
    while (i < outside.length) yield outside[i++]!;
  }
  const report = await verifyChain(entries(), checkpoints(), anchor);
  return { ok: !report.problem, ...report };
}

/**
 * After an act (or a correction) is committed: a signed checkpoint of the new
 * head. A failure is logged, not thrown: the act stands, and the periodic
 * checkpoint (retention job, hourly) takes it up.
 */
export async function checkpointAfterAct(deps: Deps): Promise<void> {
  try {
    await takeCheckpoint(deps);
  } catch (error) {
    deps.log.error({ err: error }, 'journal: checkpoint after an act failed (the hourly one will take it)');
  }
}

/** The hourly checkpoint (retention job): only when the head moved or the latest is a day old. */
export async function periodicCheckpoint(deps: Deps): Promise<void> {
  await checkpointIfDue(deps);
}

/** The newest stored checkpoint, for exports: one string an operator keeps outside the database. */
export async function latestCheckpointForExport(db: DbOrTx): Promise<{ seq: number; takenAt: Date; encoded: string; timestampAuthority: string | null } | null> {
  const row = await latestCheckpoint(db);
  return row ? { seq: row.seq, takenAt: row.takenAt, encoded: row.encoded, timestampAuthority: row.timestampAuthority } : null;
}

/** A correction is a new entry naming the one it corrects; the original stays as it was. */
export async function correctJournalEntry(deps: Deps, staff: StaffIdentity, input: { seq: number; note: string; changes: Record<string, string> }) {
  const correction = await deps.db.transaction(async (tx) => {
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
  await checkpointAfterAct(deps);
  return correction;
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
    await deleteCheckpointsUpTo(tx, last.seq);
    await writeAudit(tx, { actorType: 'system', action: 'journal.pruned', entityType: 'journal', entityId: String(last.seq), data: { uptoSeq: last.seq, lastHash: last.hash } });
    return prefix.length;
  });
}
