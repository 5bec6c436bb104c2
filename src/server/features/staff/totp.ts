import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createTOTPKeyURI, generateHOTP } from '@oslojs/otp';
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

/**
 * Accepts the current code and the one either side (±30 s of clock drift) and
 * returns the time step it belongs to, or null. The caller records the step
 * (`claimTotpStep`) so the same code — or an older one — is never accepted
 * twice (RFC 6238 §5.2).
 */
export function verifyTotp(secret: string, code: string, now: Date = new Date()): number | null {
  const cleaned = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(cleaned)) return null;
  const key = decodeBase32IgnorePadding(secret);
  const current = Math.floor(now.getTime() / 1000 / periodSeconds);
  let matched: number | null = null;
  // Every candidate is compared (no early exit), in constant time.
  for (const step of [current - 1, current, current + 1]) {
    const expected = generateHOTP(key, BigInt(step), digits);
    if (timingSafeEqual(Buffer.from(expected), Buffer.from(cleaned)) && matched === null) matched = step;
  }
  return matched;
}
