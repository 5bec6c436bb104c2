import { randomBytes } from 'node:crypto';
import { createTOTPKeyURI, verifyTOTPWithGracePeriod } from '@oslojs/otp';
import { decodeBase32IgnorePadding, encodeBase32UpperCaseNoPadding } from '@oslojs/encoding';
import { site } from '../../../shared/site.ts';

/** RFC 6238 defaults every authenticator app understands. */
const periodSeconds = 30;
const digits = 6;

export function generateTotpKey(): { key: Uint8Array; secret: string } {
  const key = new Uint8Array(randomBytes(20));
  return { key, secret: encodeBase32UpperCaseNoPadding(key) };
}

export function totpUri(secret: string, accountName: string): string {
  return createTOTPKeyURI(site.brand, accountName, decodeBase32IgnorePadding(secret), periodSeconds, digits);
}

/** Accepts the current code and the one either side (±30 s of clock drift). */
export function verifyTotp(secret: string, code: string): boolean {
  const cleaned = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(cleaned)) return false;
  return verifyTOTPWithGracePeriod(decodeBase32IgnorePadding(secret), periodSeconds, digits, cleaned, periodSeconds);
}
