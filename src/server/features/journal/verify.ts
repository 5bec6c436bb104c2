import { verifyChain, type ChainFields, type ChainReport, type CheckpointFacts } from './chain.ts';
import { decodeCheckpoint, factsOf, journalKeyName, keyFromSeed, type DecodedCheckpoint, type JournalKey, type TokenCheck } from './checkpoint.ts';

/**
 * The journal's check (what `npm run journal:verify` and the console's
 * "verify" run): entries and checkpoints read a batch at a time by keyset,
 * each batch's rows dropped before the next is read, in SQL of its own with
 * no ORM and no schema objects (decision 128) — a million entries in the
 * memory of a thousand. Used by the service (over Drizzle's connection) and
 * by the script (over a bare `pg` pool).
 */

/** One statement's rows: `$1`, `$2`… are `values`, each used once and in order. */
export type JournalQuery = (text: string, values: unknown[]) => Promise<Record<string, unknown>[]>;

export interface JournalVerification extends ChainReport {
  ok: boolean;
}

/** Instants as milliseconds since 1970 (a float8 the driver gives as a number, whatever its date parsing). */
const millis = (column: string) => `(extract(epoch from ${column}) * 1000)::float8`;

/** Where the kept journal starts after retention removed older entries (recorded in the audit log). */
async function pruneAnchor(query: JournalQuery): Promise<{ seq: number; hash: string } | null> {
  const [row] = await query(`select data from audit_log where action = 'journal.pruned' and entity_type = 'journal' order by id desc limit $1`, [1]);
  const data = row?.data as { uptoSeq?: number; lastHash?: string } | undefined;
  return data?.uptoSeq && data.lastHash ? { seq: data.uptoSeq, hash: data.lastHash } : null;
}

/** Entries after `afterSeq`, oldest first, `size` at a time (ordered by the column, not by its text in the answer). */
async function* entries(query: JournalQuery, afterSeq: number, size: number): AsyncGenerator<ChainFields & { hash: string }> {
  let last = afterSeq;
  while (true) {
    const rows = await query(
      `select seq::text as seq, notary_id, booking_id, kind, corrects_seq::text as corrects_seq, ${millis('performed_at')} as performed_ms,
              data, prev_hash, hash, ${millis('created_at')} as created_ms, chain_version
       from journal_entries e where e.seq > $1::bigint order by e.seq limit $2`,
      [String(last), size],
    );
    for (const r of rows) {
      yield {
        seq: Number(r.seq),
        notaryId: r.notary_id as string,
        bookingId: (r.booking_id as string | null) ?? null,
        kind: r.kind as ChainFields['kind'],
        correctsSeq: r.corrects_seq === null ? null : Number(r.corrects_seq),
        performedAt: new Date(Number(r.performed_ms)),
        data: r.data,
        prevHash: r.prev_hash as string,
        hash: r.hash as string,
        createdAt: new Date(Number(r.created_ms)),
        chainVersion: Number(r.chain_version),
      };
    }
    if (rows.length < size) return;
    last = Number(rows.at(-1)!.seq);
  }
}

/**
 * The timestamp authority's token check, loaded the first time a checkpoint
 * carries a token (its CMS code is the largest thing the check would load).
 */
function tokenChecker(): () => Promise<TokenCheck> {
  let loaded: Promise<TokenCheck> | undefined;
  return () => (loaded ??= import('../../crypto/timestamp-authority.ts').then((m) => m.verifyTimestampToken));
}

/** Stored checkpoints of entries after `afterSeq`, in entry order, `size` at a time (a row comparison: each batch is one range of the (seq, id) index). */
async function* storedCheckpoints(query: JournalQuery, key: JournalKey | null, afterSeq: number, size: number, checker: () => Promise<TokenCheck>): AsyncGenerator<CheckpointFacts> {
  let cursor = { seq: String(afterSeq), id: String(Number.MAX_SAFE_INTEGER) };
  while (true) {
    const rows = await query(
      `select id::text as id, seq::text as seq, head_hash, ${millis('taken_at')} as taken_ms, encoded, timestamp_authority
       from journal_checkpoints c where (c.seq, c.id) > ($1::bigint, $2::bigint) order by c.seq, c.id limit $3`,
      [cursor.seq, cursor.id, size],
    );
    for (const row of rows) {
      const seq = Number(row.seq);
      const decoded = decodeCheckpoint(row.encoded as string);
      const facts: CheckpointFacts = decoded
        ? factsOf(decoded, key, 'stored', decoded.token ? await checker() : noToken)
        : { seq, hash: row.head_hash as string, takenAt: new Date(Number(row.taken_ms)), signed: false, source: 'stored' };
      // The row's own columns must say what its signed payload says.
      if (facts.seq !== seq || facts.hash !== row.head_hash) facts.signed = false;
      facts.timestampAuthority = decoded?.token ? ((row.timestamp_authority as string | null) ?? 'a timestamp authority') : null;
      yield facts;
    }
    if (rows.length < size) return;
    cursor = { seq: rows.at(-1)!.seq as string, id: rows.at(-1)!.id as string };
  }
}

/**
 * Rows per batch. Small enough that a batch's rows die young: with the
 * script's 1 MB young generation, a batch of 1,000 (~5 MB of parsed rows)
 * was promoted whole to the old generation, which grew to its cap between
 * collections (113 MB peak at 1M entries against 98 MB with 200; decision 128).
 */
const batchRows = 200;

const noToken: TokenCheck = () => {
  throw new Error('no token');
};

/**
 * Checks the whole chain against the signed checkpoints (decision 090):
 * `key` is the platform's journal key (null when it has none: no checkpoint
 * is then signed); `outside` are checkpoints kept outside the database (an
 * export, an email), checked like the stored ones.
 */
export async function verifyJournalWith(query: JournalQuery, key: JournalKey | null, options: { outside?: DecodedCheckpoint[]; batchSize?: number } = {}): Promise<JournalVerification> {
  const size = options.batchSize ?? batchRows;
  const anchor = await pruneAnchor(query);
  const checker = tokenChecker();
  const outside: CheckpointFacts[] = [];
  for (const c of options.outside ?? []) outside.push(factsOf(c, key, 'copy kept outside the database', c.token ? await checker() : noToken));
  outside.sort((a, b) => a.seq - b.seq);
  /** Stored and outside checkpoints merged in seq order. */
  async function* checkpoints(): AsyncGenerator<CheckpointFacts> {
    let i = 0;
    for await (const cp of storedCheckpoints(query, key, anchor?.seq ?? 0, size, checker)) {
      while (i < outside.length && outside[i]!.seq <= cp.seq) yield outside[i++]!;
      yield cp;
    }
    while (i < outside.length) yield outside[i++]!;
  }
  const report = await verifyChain(entries(query, anchor?.seq ?? 0, size), checkpoints(), anchor);
  return { ok: !report.problem, ...report };
}

/**
 * The journal key as the check needs it, without creating one: the seed in
 * JOURNAL_SIGNING_KEY, else the platform's own key opened with `open` (the
 * secret box of DATA_ENCRYPTION_KEY), else none.
 */
export async function journalKeyForCheck(query: JournalQuery, seed: Buffer | null, open: (sealed: string, purpose: string) => Buffer): Promise<JournalKey | null> {
  if (seed) return keyFromSeed(seed);
  const [row] = await query('select sealed_private_key from platform_keys where name = $1', [journalKeyName]);
  return row ? keyFromSeed(open(row.sealed_private_key as string, `platform-key:${journalKeyName}`)) : null;
}
