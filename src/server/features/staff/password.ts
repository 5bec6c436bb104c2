import { hash, verify } from '@node-rs/argon2';

/**
 * argon2id with OWASP's baseline (19 MiB, 2 passes, 1 lane): ~20–40 ms here,
 * cheap for one login, expensive for an offline guesser. `algorithm: 2` is
 * Argon2id (the package's const enum cannot be imported under type stripping).
 */
const options = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1, outputLen: 32 } as const;

export const minimumPasswordLength = 12;
export const weakPasswordMessage = `Use at least ${minimumPasswordLength} characters for the password.`;

export function passwordProblem(password: string): string | null {
  if (password.length < minimumPasswordLength) return weakPasswordMessage;
  if (password.length > 256) return 'Use at most 256 characters for the password.';
  if (new Set(password).size < 4) return 'That password is too easy to guess. Choose another.';
  return null;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

let dummyHash: Promise<string> | undefined;

/**
 * Checks a password. With no stored hash (unknown email, invited user) it
 * still runs one argon2 verification against a throwaway hash, so the answer
 * takes as long as for a real account and timing does not reveal which
 * emails exist.
 */
export async function verifyPassword(storedHash: string | null | undefined, password: string): Promise<boolean> {
  if (!storedHash) {
    dummyHash ??= hashPassword('not-a-real-password-000000');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}
