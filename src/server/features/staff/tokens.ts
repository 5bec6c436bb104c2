import { randomBytes } from 'node:crypto';
import { sha256 } from '@oslojs/crypto/sha2';
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from '@oslojs/encoding';

/** 20 random bytes (160 bits) as lower-case base32: session and invite tokens. */
export function generateToken(): string {
  return encodeBase32LowerCaseNoPadding(randomBytes(20));
}

/** Only this digest is stored: a leaked table holds no usable token. */
export function hashToken(token: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(token)));
}
