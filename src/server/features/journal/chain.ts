import { createHash } from 'node:crypto';

/**
 * The journal's hash chain (docs/decisions/036-journal-tamper-evidence.md):
 * each entry's hash is SHA-256 over a canonical serialisation of its fields
 * and the previous entry's hash. Canonical = JSON with object keys sorted at
 * every level, instants as ISO strings — what PostgreSQL's jsonb gives back
 * (keys reordered, whitespace dropped) hashes the same as what was written.
 */
export const genesisHash = '0'.repeat(64);

export interface ChainFields {
  seq: number;
  notaryId: string;
  bookingId: string | null;
  kind: 'act' | 'correction';
  correctsSeq: number | null;
  performedAt: Date;
  data: unknown;
  prevHash: string;
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
    v: 1,
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
  seq: number;
  reason: string;
}

/**
 * Walks entries in `seq` order. `anchor` is where the kept journal starts when
 * retention removed older entries (the last removed entry's seq and hash).
 */
export function verifyChain(entries: (ChainFields & { hash: string })[], anchor: { seq: number; hash: string } | null): ChainProblem | null {
  let expectedSeq = (anchor?.seq ?? 0) + 1;
  let prevHash = anchor?.hash ?? genesisHash;
  for (const entry of entries) {
    if (entry.seq !== expectedSeq) {
      return { seq: expectedSeq, reason: `entry ${expectedSeq} is missing (the next entry found is ${entry.seq})` };
    }
    if (entry.prevHash !== prevHash) return { seq: entry.seq, reason: `entry ${entry.seq} does not follow entry ${entry.seq - 1} (previous hash differs)` };
    if (entryHash(entry) !== entry.hash) return { seq: entry.seq, reason: `entry ${entry.seq} was changed (its content no longer matches its hash)` };
    prevHash = entry.hash;
    expectedSeq += 1;
  }
  return null;
}
