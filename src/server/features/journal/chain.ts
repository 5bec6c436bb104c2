import { createHash } from 'node:crypto';

/**
 * The journal's hash chain (docs/decisions/036-journal-tamper-evidence.md):
 * each entry's hash is SHA-256 over a canonical serialisation of its fields
 * and the previous entry's hash. Canonical = JSON with object keys sorted at
 * every level, instants as ISO strings — what PostgreSQL's jsonb gives back
 * (keys reordered, whitespace dropped) hashes the same as what was written.
 */
export const genesisHash = '0'.repeat(64);

/**
 * Version 2 hashes every column, `created_at` included (decision 090); version
 * 1 entries (written before) are checked as written. A chain never goes back
 * from 2 to 1.
 */
export const currentChainVersion = 2;

export interface ChainFields {
  seq: number;
  notaryId: string;
  bookingId: string | null;
  kind: 'act' | 'correction';
  correctsSeq: number | null;
  performedAt: Date;
  data: unknown;
  prevHash: string;
  createdAt: Date;
  chainVersion: number;
}

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

export function entryHash(fields: ChainFields): string {
  const canonical = canonicalJson({
    v: fields.chainVersion === 1 ? 1 : 2,
    ...(fields.chainVersion === 1 ? {} : { createdAt: fields.createdAt.toISOString() }),
    seq: fields.seq,
    notaryId: fields.notaryId,
    bookingId: fields.bookingId,
    kind: fields.kind,
    correctsSeq: fields.correctsSeq,
    performedAt: fields.performedAt.toISOString(),
    data: fields.data,
    prevHash: fields.prevHash,
  });
  return createHash('sha256').update(canonical).digest('hex');
}

export interface ChainProblem {
  /** The first entry affected. */
  seq: number;
  reason: string;
}

/** A signed checkpoint as the verifier needs it (journal/anchor.ts decodes and checks the signature). */
export interface CheckpointFacts {
  seq: number;
  hash: string;
  takenAt: Date;
  /** The signature checks out with the platform's journal key. */
  signed: boolean;
  /** Where it came from, for the message: the database, or a copy kept outside it. */
  source: string;
  /** The RFC 3161 authority whose token it carries, if any. */
  timestampAuthority?: string | null;
}

export interface ChainReport {
  problem: ChainProblem | null;
  /** Entries walked. */
  entries: number;
  /** The newest checkpoint the kept entries were checked against. */
  latestCheckpoint: CheckpointFacts | null;
  /** Entries after the newest checkpoint (not yet anchored outside the chain). */
  unanchored: number;
}

const day = (at: Date) => at.toISOString().replace('T', ' ').slice(0, 16) + ' UTC';

/**
 * Walks entries in `seq` order against checkpoints in `seq` order, one of
 * each in memory at a time (both come in batches from the database), and
 * names the first entry affected:
 * - a missing entry (a gap), a broken link or an entry whose content no
 *   longer matches its hash (edited in place);
 * - an entry whose hash differs from a signed checkpoint of it: the chain was
 *   rewritten (every later hash recomputed with our own function) somewhere
 *   after the previous checkpoint that still matches;
 * - entries a checkpoint counts that are gone (the newest entries deleted).
 * `anchor` is where the kept journal starts when retention removed older
 * entries (the last removed entry's seq and hash).
 */
export async function verifyChain(
  entries: AsyncIterable<ChainFields & { hash: string }> | Iterable<ChainFields & { hash: string }>,
  checkpoints: AsyncIterable<CheckpointFacts> | Iterable<CheckpointFacts>,
  anchor: { seq: number; hash: string } | null,
): Promise<ChainReport> {
  let expectedSeq = (anchor?.seq ?? 0) + 1;
  let prevHash = anchor?.hash ?? genesisHash;
  let version = 1;
  let walked = 0;
  // The last entry a checkpoint (or the retention anchor) confirmed.
  let confirmed = anchor?.seq ?? 0;
  let latest: CheckpointFacts | null = null;
  const cps = (Symbol.asyncIterator in checkpoints ? checkpoints[Symbol.asyncIterator]() : (checkpoints as Iterable<CheckpointFacts>)[Symbol.iterator]()) as AsyncIterator<CheckpointFacts> | Iterator<CheckpointFacts>;
  let next = await cps.next();
  const report = (problem: ChainProblem | null): ChainReport => ({ problem, entries: walked, latestCheckpoint: latest, unanchored: problem ? 0 : expectedSeq - 1 - confirmed });
  const unsigned = (cp: CheckpointFacts): ChainProblem => ({
    seq: Math.max(cp.seq, (anchor?.seq ?? 0) + 1),
    reason: `the checkpoint of ${day(cp.takenAt)} (${cp.source}) is not signed with this platform's journal key: it was forged or altered`,
  });
  // Checkpoints of entries retention removed say nothing about the kept ones.
  while (!next.done && next.value.seq <= (anchor?.seq ?? 0)) next = await cps.next();

  for await (const entry of entries) {
    if (entry.seq !== expectedSeq) {
      return report({ seq: expectedSeq, reason: `entry ${expectedSeq} is missing (the next entry found is ${entry.seq})` });
    }
    if (entry.prevHash !== prevHash) return report({ seq: entry.seq, reason: `entry ${entry.seq} does not follow entry ${entry.seq - 1} (previous hash differs)` });
    if (entry.chainVersion < version) return report({ seq: entry.seq, reason: `entry ${entry.seq} claims an older hash version than the entry before it` });
    if (entryHash(entry) !== entry.hash) return report({ seq: entry.seq, reason: `entry ${entry.seq} was changed (its content no longer matches its hash)` });
    version = entry.chainVersion;
    walked += 1;
    while (!next.done && next.value.seq <= entry.seq) {
      const cp = next.value;
      if (!cp.signed) return report(unsigned(cp));
      if (cp.seq === entry.seq && cp.hash !== entry.hash) {
        const from = confirmed + 1;
        return report({
          seq: from,
          reason: `the chain was rewritten: entry ${entry.seq} differs from the signed checkpoint of ${day(cp.takenAt)} (${cp.source})${from < entry.seq ? `; the first entry affected is between ${from} and ${entry.seq}` : ''}`,
        });
      }
      confirmed = entry.seq;
      latest = cp;
      next = await cps.next();
    }
    prevHash = entry.hash;
    expectedSeq += 1;
  }
  // Checkpoints beyond the last entry: the newest entries were deleted.
  if (!next.done) {
    const cp = next.value;
    if (!cp.signed) return report(unsigned(cp));
    let newest = cp;
    while (!next.done) {
      if (!next.value.signed) return report(unsigned(next.value));
      if (next.value.seq > newest.seq) newest = next.value;
      next = await cps.next();
    }
    const last = expectedSeq - 1;
    return report({
      seq: expectedSeq,
      reason: `${newest.seq - last === 1 ? `entry ${expectedSeq} is` : `entries ${expectedSeq} to ${newest.seq} are`} missing: the signed checkpoint of ${day(newest.takenAt)} (${newest.source}) counts ${newest.seq} entries, the journal ends at entry ${last}`,
    });
  }
  return report(null);
}
