import { z } from 'zod';

/**
 * The public verification page (/verify, docs/decisions/091-public-verification.md):
 * its texts, the short code printed on every sealed document, and what the
 * server answers. No signer's personal data crosses this boundary.
 */
export const verifyCopy = {
  title: 'Verify a notarized document',
  intact: 'This document is intact',
  changed: 'This document was changed after it was notarized',
  unknown: 'We have no record of this document',
  submit: 'Check document',
} as const;

/** Crockford base32 without I, L, O, U: nothing to misread on paper. */
const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** 12 symbols (60 bits) in three groups: ABCD-EFGH-JKMN. */
export function formatVerificationCode(bytes: Uint8Array): string {
  let symbols = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && symbols.length < 12) {
      symbols += alphabet[(value >> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (symbols.length < 12) throw new RangeError('a verification code needs 8 random bytes');
  return `${symbols.slice(0, 4)}-${symbols.slice(4, 8)}-${symbols.slice(8, 12)}`;
}

/** What a visitor typed, as the code it means (lower case, spaces, O for 0, I/L for 1), or null. */
export function normalizeVerificationCode(text: string): string | null {
  const plain = text
    .toUpperCase()
    .replace(/[\s-]/g, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1');
  if (!/^[0-9A-HJKMNP-TV-Z]{12}$/.test(plain)) return null;
  return `${plain.slice(0, 4)}-${plain.slice(4, 8)}-${plain.slice(8, 12)}`;
}

/** The code as printed in a sealed PDF's verification link (`/verify?code=…`). */
export const verificationLinkPattern = /\/verify\?code=([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})/;

export const verifyInput = z
  .object({
    code: z.string().trim().max(40).optional(),
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/, 'Not a SHA-256 digest.')
      .optional(),
  })
  .refine((v) => !!v.code || !!v.sha256, { message: 'Choose the notarized PDF or type its verification code.' });
export type VerifyInput = z.infer<typeof verifyInput>;

export const verifyMessages = {
  nothing: 'Choose the notarized PDF or type its verification code.',
  badCode: 'A verification code has 12 letters and digits, like ABCD-EFGH-JKMN.',
} as const;

/** What the page shows about a notarial act: the notary and the act, never the signer. */
export interface VerifiedAct {
  notaryName: string;
  commissionNumber: string | null;
  commissionState: string | null;
  commissionExpiresOn: string | null;
  actType: string;
  performedAt: string;
  signatureLevel: string | null;
  timestampAuthority: string | null;
  verificationCode: string | null;
}

export type VerifyResult =
  | { outcome: 'intact'; act: VerifiedAct; checkedBy: 'file' | 'code' }
  | { outcome: 'changed'; act: VerifiedAct }
  | { outcome: 'unknown' };

export const actTypeLabels: Record<string, string> = {
  acknowledgment: 'Acknowledgment',
  jurat: 'Jurat (verification on oath or affirmation)',
  signature_witnessing: 'Signature witnessing',
  copy_certification: 'Copy certification',
};
