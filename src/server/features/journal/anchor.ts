import { createHash, createPublicKey, generateKeyPairSync, sign } from 'node:crypto';
import type { Deps } from '../../deps.ts';
import { parseKey } from '../../crypto/secret-box.ts';
import { requestTimestamp, verifyTimestampToken } from '../../crypto/timestamp-authority.ts';
import { canonicalJson, type CheckpointFacts } from './chain.ts';
import { encodeCheckpoint, factsOf, isSignedBy, journalKeyName, keyFromSeed, rawPublic, type CheckpointPayload, type DecodedCheckpoint, type JournalKey } from './checkpoint.ts';
import { chainHead, insertCheckpoint, latestCheckpoint, platformKey, storePlatformKey, type CheckpointRow } from './repository.ts';

/**
 * The journal's anchor (docs/decisions/090-journal-anchor.md): a checkpoint —
 * the chain head's seq and hash — signed with the platform journal key
 * (Ed25519) and, when a timestamp authority is configured, timestamped
 * (RFC 3161, over the SHA-256 of the signed payload). Someone who rewrites or
 * truncates the journal with full database rights cannot sign a checkpoint
 * for the result; someone who also deletes the newest checkpoints is caught
 * by a copy kept outside the database (the export, the notary's email) given
 * to `npm run journal:verify -- --checkpoint`.
 *
 * One checkpoint is one string, `njc1.<payload>.<signature>.<token>` (base64url;
 * the token empty without a TSA): short enough to paste into an email.
 */

export interface Timestamper {
  /** Named in exports and by journal:verify. */
  authority: string;
  /** An RFC 3161 TimeStampToken (DER) over this SHA-256 digest. */
  timestamp(sha256: Buffer): Promise<Buffer>;
}

export { decodeCheckpoint, encodeCheckpoint, type CheckpointPayload, type DecodedCheckpoint, type JournalKey } from './checkpoint.ts';

const keyName = journalKeyName;

const keys = new WeakMap<object, Promise<JournalKey>>();

/**
 * The platform journal key: JOURNAL_SIGNING_KEY, or — so a local run needs
 * nothing — one generated on first use and kept in the database sealed with
 * DATA_ENCRYPTION_KEY (the public key is derived from the opened private key,
 * never read from a column someone could replace).
 */
export function journalKey(deps: Pick<Deps, 'config' | 'db' | 'secrets'>): Promise<JournalKey> {
  // One per configuration (the server's Deps has one; a test may build several).
  let key = keys.get(deps.config);
  if (!key) {
    key = loadKey(deps);
    keys.set(deps.config, key);
    key.catch(() => keys.delete(deps.config));
  }
  return key;
}

async function loadKey(deps: Pick<Deps, 'config' | 'db' | 'secrets'>): Promise<JournalKey> {
  if (deps.config.JOURNAL_SIGNING_KEY) {
    const seed = parseKey(deps.config.JOURNAL_SIGNING_KEY);
    if (!seed) throw new Error('Invalid configuration in the environment:\n  JOURNAL_SIGNING_KEY: must be 32 random bytes in base64 or hex (e.g. `openssl rand -base64 32`)');
    return keyFromSeed(seed);
  }
  let row = await platformKey(deps.db, keyName);
  if (!row) {
    const { privateKey } = generateKeyPairSync('ed25519');
    const seed = privateKey.export({ format: 'der', type: 'pkcs8' }).subarray(-32);
    row = await storePlatformKey(deps.db, {
      name: keyName,
      sealedPrivateKey: deps.secrets.seal(seed, `platform-key:${keyName}`),
      publicKey: rawPublic(createPublicKey(privateKey)).toString('base64'),
    });
  }
  return keyFromSeed(deps.secrets.open(row.sealedPrivateKey, `platform-key:${keyName}`));
}

/** Whether the checkpoint is signed by `key`, its timestamp token (if any) checked too (checkpoint.ts). */
export function checkpointIsSigned(decoded: DecodedCheckpoint, key: JournalKey): boolean {
  return isSignedBy(decoded, key, verifyTimestampToken);
}

/** The timestamp authority of TSA_URL (the seal's, decision 060), or none. */
export function configuredTimestamper(config: Pick<Deps['config'], 'TSA_URL' | 'TSA_USERNAME' | 'TSA_PASSWORD'>): Timestamper | null {
  if (!config.TSA_URL) return null;
  const tsa = { url: config.TSA_URL, username: config.TSA_USERNAME, password: config.TSA_PASSWORD };
  return {
    authority: new URL(config.TSA_URL).host,
    timestamp: async (sha256) => (await requestTimestamp(tsa, sha256)).token,
  };
}

export function checkpointFacts(decoded: DecodedCheckpoint, key: JournalKey, source: string): CheckpointFacts {
  return factsOf(decoded, key, source, verifyTimestampToken);
}

/**
 * Signs (and timestamps) a checkpoint of the chain head as it is now, and
 * stores it. Nothing to anchor in an empty journal: null.
 */
export async function takeCheckpoint(
  deps: Pick<Deps, 'config' | 'db' | 'secrets' | 'now'> & { log?: Deps['log'] },
  options: { timestamper?: Timestamper | null } = {},
): Promise<CheckpointRow | null> {
  const head = await chainHead(deps.db);
  if (!head) return null;
  const key = await journalKey(deps);
  const takenAt = deps.now();
  const payload: CheckpointPayload = { v: 1, seq: head.seq, hash: head.hash, takenAt: takenAt.toISOString(), keyId: key.id };
  const payloadBytes = Buffer.from(canonicalJson(payload));
  const signature = sign(null, payloadBytes, key.privateKey);
  const timestamper = options.timestamper === undefined ? configuredTimestamper(deps.config) : options.timestamper;
  let token: Buffer | null = null;
  if (timestamper) {
    try {
      token = await timestamper.timestamp(createHash('sha256').update(payloadBytes).digest());
    } catch (error) {
      // A signed checkpoint without trusted time still anchors the chain; the next one tries the TSA again.
      deps.log?.warn({ err: error }, 'journal: the timestamp authority did not answer; checkpoint stored without a timestamp');
    }
  }
  return insertCheckpoint(deps.db, {
    seq: head.seq,
    headHash: head.hash,
    entryCount: head.seq,
    takenAt,
    keyId: key.id,
    encoded: encodeCheckpoint(payloadBytes, signature, token),
    timestampAuthority: token ? timestamper!.authority : null,
  });
}

/** The periodic checkpoint: when the head moved since the latest one, or that one is a day old. */
export async function checkpointIfDue(
  deps: Pick<Deps, 'config' | 'db' | 'secrets' | 'now'> & { log?: Deps['log'] },
  options: { timestamper?: Timestamper | null } = {},
): Promise<CheckpointRow | null> {
  const [head, latest] = await Promise.all([chainHead(deps.db), latestCheckpoint(deps.db)]);
  if (!head) return null;
  const fresh = latest && latest.seq === head.seq && latest.headHash === head.hash && deps.now().getTime() - latest.takenAt.getTime() < 86_400_000;
  return fresh ? null : takeCheckpoint(deps, options);
}
