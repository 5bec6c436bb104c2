import { randomUUID } from 'node:crypto';
import { identityVerifications } from '../../src/server/db/schema.ts';
import type { Deps } from '../../src/server/deps.ts';

/**
 * A booking whose signer passed identity proofing (TEST MODE provider) and
 * whose notary confirmed it against the person on camera: the session room's
 * start precondition, for tests about something else.
 */
export async function identityConfirmed(deps: Pick<Deps, 'db'>, bookingId: string, notaryId: string): Promise<void> {
  await deps.db.insert(identityVerifications).values({
    bookingId,
    provider: 'test',
    providerSessionId: `vs_test_${randomUUID().replace(/-/g, '')}`,
    attempt: 1,
    status: 'verified',
    nameOnId: 'Test Signer',
    documentType: 'driving_license',
    issuingState: 'IA',
    expiresOn: '2031-01-01',
    selfieMatch: true,
    confirmedAt: new Date(),
    confirmedBy: notaryId,
  });
}
