import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Secrets at rest (docs/decisions/023-secrets-at-rest.md): anything the server
 * must be able to read back but a database dump must not reveal — TOTP keys,
 * the manage-link token an email carries, a notary's PKCS#12 file — is sealed
 * with AES-256-GCM under a key that lives outside the database
 * (`DATA_ENCRYPTION_KEY`, or a key generated once under DATA_DIR for local runs).
 *
 * Sealed form: `sb1.<key id>.<iv>.<ciphertext>.<tag>` (base64url parts). The
 * key id (8 hex digits of the key's SHA-256) says which key opens it, so the
 * previous key (`DATA_ENCRYPTION_KEY_PREVIOUS`) still opens old values during a
 * rotation. `purpose` is bound as additional data: a value sealed as one user's
 * TOTP key cannot be swapped into another row and opened there.
 */
export interface SecretBox {
  seal(plaintext: string | Uint8Array, purpose: string): string;
  /** The plaintext; throws if the value was not sealed by one of our keys for `purpose` or was altered. */
  open(sealed: string, purpose: string): Buffer;
  openText(sealed: string, purpose: string): string;
  /** Whether `value` is in sealed form (legacy rows may hold plaintext until they are re-sealed). */
  isSealed(value: string): boolean;
  /** Whether `value` was sealed with an older key and should be sealed again with the current one. */
  needsReseal(sealed: string): boolean;
}

const prefix = 'sb1';

export class SecretBoxError extends Error {
  readonly code = 'SECRET_BOX' as const;
}

export function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/** A 32-byte key from base64, base64url or hex text; null if it is not one. */
export function parseKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (/^[0-9a-f]{64}$/i.test(trimmed)) return Buffer.from(trimmed, 'hex');
  const bytes = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return bytes.length === 32 ? bytes : null;
}

export function createSecretBox(current: Buffer, previous: Buffer[] = []): SecretBox {
  if (current.length !== 32) throw new SecretBoxError('the data-encryption key must be 32 bytes');
  const keys = new Map<string, Buffer>([[keyId(current), current], ...previous.map((k) => [keyId(k), k] as [string, Buffer])]);
  const currentId = keyId(current);

  const open = (sealed: string, purpose: string): Buffer => {
    const parts = sealed.split('.');
    if (parts.length !== 5 || parts[0] !== prefix) throw new SecretBoxError('not a sealed value');
    const key = keys.get(parts[1]!);
    if (!key) throw new SecretBoxError(`sealed with an unknown key (${parts[1]}); set DATA_ENCRYPTION_KEY_PREVIOUS to the key in use before`);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(parts[2]!, 'base64url'));
      decipher.setAAD(Buffer.from(purpose));
      decipher.setAuthTag(Buffer.from(parts[4]!, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(parts[3]!, 'base64url')), decipher.final()]);
    } catch {
      throw new SecretBoxError('sealed value does not open (altered, or sealed for another purpose)');
    }
  };

  return {
    seal(plaintext, purpose) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', current, iv);
      cipher.setAAD(Buffer.from(purpose));
      const body = Buffer.concat([cipher.update(typeof plaintext === 'string' ? Buffer.from(plaintext) : plaintext), cipher.final()]);
      return [prefix, currentId, iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
    },
    open,
    openText: (sealed, purpose) => open(sealed, purpose).toString('utf8'),
    isSealed: (value) => value.startsWith(`${prefix}.`),
    needsReseal: (sealed) => sealed.split('.')[1] !== currentId,
  };
}

/** Where a local run keeps its generated key when `DATA_ENCRYPTION_KEY` is not set. */
export function generatedKeyPath(dataDir: string): string {
  return path.resolve(dataDir, 'data-encryption.key');
}

/**
 * The secret box from configuration: `DATA_ENCRYPTION_KEY` (and
 * `DATA_ENCRYPTION_KEY_PREVIOUS` during a rotation), or — so `npm start` needs
 * nothing — a key generated once and kept (mode 600) under DATA_DIR.
 */
export function secretBoxFromConfig(config: {
  DATA_ENCRYPTION_KEY?: string;
  DATA_ENCRYPTION_KEY_PREVIOUS?: string;
  DATA_DIR: string;
}): SecretBox {
  const previous = config.DATA_ENCRYPTION_KEY_PREVIOUS ? [requireKey(config.DATA_ENCRYPTION_KEY_PREVIOUS, 'DATA_ENCRYPTION_KEY_PREVIOUS')] : [];
  if (config.DATA_ENCRYPTION_KEY) return createSecretBox(requireKey(config.DATA_ENCRYPTION_KEY, 'DATA_ENCRYPTION_KEY'), previous);
  const file = generatedKeyPath(config.DATA_DIR);
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    // Written whole under a temporary name, then linked into place: two processes
    // starting together on one DATA_DIR never read a half-written key, and the
    // second keeps the first one's key (link fails if the name exists).
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600 });
    try {
      linkSync(temporary, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      rmSync(temporary, { force: true });
    }
  }
  return createSecretBox(requireKey(readFileSync(file, 'utf8'), file), previous);
}

function requireKey(text: string, name: string): Buffer {
  const key = parseKey(text);
  if (!key) throw new Error(`Invalid configuration in the environment:\n  ${name}: must be 32 random bytes in base64 or hex (e.g. \`openssl rand -base64 32\`)`);
  return key;
}
