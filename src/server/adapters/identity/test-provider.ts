import { randomUUID } from 'node:crypto';
import type { IdentityOutcome, IdentityProvider } from './types.ts';

/**
 * The built-in TEST MODE identity provider, used when Stripe is not configured.
 * It takes real image uploads (their bytes are checked and stored privately by
 * the identity service) and answers with documented outcomes chosen by the
 * name typed as it appears on the ID:
 *
 * - a last name of "Fail" (e.g. "Ida Fail"): the ID is not recognised — the attempt fails;
 * - a last name of "Mismatch": the selfie does not match the ID photo — fails;
 * - a last name of "Expired": the ID has expired — fails;
 * - any other name: verified (an Iowa driver's license ending 4821, expiring in four years).
 *
 * See docs/decisions/034-identity-provider.md.
 */
export const testIdentityOutcomes = {
  fail: 'We could not read your ID. Please upload clear photos of the front and back of a valid government photo ID.',
  mismatch: 'Your selfie does not match the photo on your ID. Please take the selfie again, facing the camera in good light.',
  expired: 'Your ID has expired. Please use a valid, unexpired government photo ID.',
} as const;

export interface TestIdentityProvider extends IdentityProvider {
  mode: 'test';
  newSessionId(): string;
  /** Judges a submission: the name on the ID decides the outcome (see above). */
  evaluate(input: { bookingId: string; nameOnId: string; images: Buffer[]; now: Date }): IdentityOutcome;
}

export function createTestIdentityProvider(): TestIdentityProvider {
  return {
    mode: 'test',
    newSessionId: () => `vs_test_${randomUUID().replace(/-/g, '')}`,
    evaluate({ bookingId, nameOnId, now }) {
      const last = nameOnId.trim().split(/\s+/).at(-1)?.toLowerCase() ?? '';
      const failure = last === 'fail' ? testIdentityOutcomes.fail : last === 'mismatch' ? testIdentityOutcomes.mismatch : last === 'expired' ? testIdentityOutcomes.expired : null;
      const expires = new Date(now);
      expires.setUTCFullYear(expires.getUTCFullYear() + (last === 'expired' ? -1 : 4));
      return {
        status: failure ? 'failed' : 'verified',
        failureMessage: failure,
        nameOnId: nameOnId.trim(),
        documentType: 'driving_license',
        issuingState: 'IA',
        expiresOn: expires.toISOString().slice(0, 10),
        selfieMatch: last !== 'mismatch',
        documentNumberLast4: '4821',
        bookingId,
      };
    },
  };
}
