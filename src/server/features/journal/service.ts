import { DomainError } from '../../errors.ts';
import { sql } from 'drizzle-orm';
import { queryRows, type Db, type DbOrTx, type Tx } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import type { StaffIdentity } from '../staff/session.ts';
import { staffMay } from '../access/service.ts';
import { writeAudit } from '../audit.ts';
import { checkpointIfDue, journalKey, takeCheckpoint, type DecodedCheckpoint } from './anchor.ts';
import { currentChainVersion, entryHash, genesisHash } from './chain.ts';
import { verifyJournalWith, type JournalQuery, type JournalVerification } from './verify.ts';
import {
  deleteCheckpointsUpTo,
  deleteEntriesUpTo,
  findActEntry,
  findEntry,
  insertEntry,
  lastEntry,
  lastPruneRecord,
  latestCheckpoint,
  listEntries,
  lockJournal,
  oldestEntries,
  type EntryRow,
} from './repository.ts';

/** The fees already attributed to acts of a booking (the seal splits the session's fee by it, decision 074). */
export { journaledFeeCents } from './repository.ts';

/**
 * The notary journal: one entry per notarial act (and per correction),
 * appended under a transaction-scoped advisory lock so the chain has one
 * order, never edited (a database trigger refuses UPDATE/DELETE).
 */

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
  /** The witness who identified this signer (decision 124), and their oath or affirmation (decision 134). */
  credibleWitness?: { name: string; participantId: string; verificationId: string | null; recordedAt: string; oath?: { kind: 'swear' | 'affirm'; at: string } | null } | null;
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

export type JournalRow = EntryRow;

export async function appendJournalEntry(
  tx: Tx,
  entry: { notaryId: string; bookingId: string | null; kind: 'act' | 'correction'; correctsSeq?: number | null; performedAt: Date; data: Record<string, unknown> },
): Promise<JournalRow> {
  await lockJournal(tx);
  const last = await lastEntry(tx);
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
  return insertEntry(tx, { ...fields, hash: entryHash(fields) });
}

/** Where the kept journal starts after retention removed older entries (recorded in the audit log). */
async function pruneAnchor(db: DbOrTx): Promise<{ seq: number; hash: string } | null> {
  const data = (await lastPruneRecord(db)) as { uptoSeq?: number; lastHash?: string } | undefined;
  return data?.uptoSeq && data.lastHash ? { seq: data.uptoSeq, hash: data.lastHash } : null;
}

export type { JournalVerification } from './verify.ts';

/**
 * Checks the whole chain against the signed checkpoints (what the console's
 * "verify" runs; `npm run journal:verify` runs the same check over a bare
 * connection): verify.ts, over this database's connection. `outside` are
 * checkpoints kept outside the database (an export, an email).
 */
export async function verifyJournal(
  deps: Pick<Deps, 'config' | 'db' | 'secrets'>,
  options: { outside?: DecodedCheckpoint[]; batchSize?: number } = {},
): Promise<JournalVerification> {
  return verifyJournalWith(queryOver(deps.db), await journalKey(deps), options);
}

/** verify.ts's statements through Drizzle: the text's `$n` become bound values, in order. */
function queryOver(db: DbOrTx): JournalQuery {
  return (text, values) => {
    const parts = text.split(/\$\d+/);
    if (parts.length !== values.length + 1) throw new Error('each value is used once, in order');
    return queryRows<Record<string, unknown>>(db, sql.join(parts.flatMap((part, i) => (i < values.length ? [sql.raw(part), sql`${values[i]}`] : [sql.raw(part)]))));
  };
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
    const original = await findEntry(tx, input.seq);
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
  const rows = await listEntries(db, {
    notaryId: owner,
    from: range.from ? new Date(`${range.from}T00:00:00Z`) : undefined,
    before: range.to ? new Date(new Date(`${range.to}T00:00:00Z`).getTime() + 86_400_000) : undefined,
  });
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
    await lockJournal(tx);
    const old = await oldestEntries(tx, 1000);
    const prefix = [];
    for (const row of old) {
      if (row.performedAt.getTime() >= cutoff.getTime()) break;
      prefix.push(row);
    }
    const last = prefix.at(-1);
    if (!last) return 0;
    await deleteEntriesUpTo(tx, last.seq);
    await deleteCheckpointsUpTo(tx, last.seq);
    await writeAudit(tx, { actorType: 'system', action: 'journal.pruned', entityType: 'journal', entityId: String(last.seq), data: { uptoSeq: last.seq, lastHash: last.hash } });
    return prefix.length;
  });
}
