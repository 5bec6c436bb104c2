import { randomBytes } from 'node:crypto';
import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding';

/** 20 random bytes (160 bits) as lower-case base32: session and invite tokens. */
export function generateToken(): string {
  return encodeBase32LowerCaseNoPadding(randomBytes(20));
}

