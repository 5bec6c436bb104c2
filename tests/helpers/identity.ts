import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { bookings, identityVerifications, kbaAttempts } from '../../src/server/db/schema.ts';
import type { Deps } from '../../src/server/deps.ts';

/**
 * A booking whose signer passed identity proofing (TEST MODE providers:
 * credential analysis and the identity questions) and whose notary confirmed
 * it against the person on camera: the session room's start precondition,
 * for tests about something else.
 */
export async function identityConfirmed(deps: Pick<Deps, 'db' | 'secrets' | 'now'>, bookingId: string, notaryId: string): Promise<void> {
  await deps.db.insert(identityVerifications).values({
    bookingId,
    provider: 'test',
    providerSessionId: `vs_test_${randomUUID().replace(/-/g, '')}`,
    attempt: 1,
    status: 'verified',
    nameOnId: 'Test Signer',
    documentType: 'driving_license',
    issuingState: 'IA',
    documentNumberLast4: '4821',
    expiresOn: '2031-01-01',
    selfieMatch: true,
    confirmedAt: new Date(),
    confirmedBy: notaryId,
  });
  await kbaPassed(deps, bookingId);
}

/** The identity questions passed (attempt 1, 5 of 5), fresh for the booking's start; by the customer, or by a co-signer or witness. */
export async function kbaPassed(deps: Pick<Deps, 'db' | 'secrets' | 'now'>, bookingId: string, participantId: string | null = null, street = '400 Locust St'): Promise<void> {
  const [booking] = await deps.db.select({ startsAt: bookings.startsAt }).from(bookings).where(eq(bookings.id, bookingId));
  const now = deps.now();
  // Within the 24 hours before the start, however far ahead the test booked it.
  const passedAt = booking?.startsAt && booking.startsAt.getTime() - now.getTime() > 12 * 3_600_000 ? new Date(booking.startsAt.getTime() - 3_600_000) : now;
  const person = { firstName: 'Test', lastName: 'Signer', dateOfBirth: '1980-01-01', street, city: 'Des Moines', state: 'IA', zip: '50309' };
  await deps.db.insert(kbaAttempts).values({
    bookingId,
    participantId,
    attempt: 1,
    provider: 'test',
    providerReference: `kba_test_${randomUUID().replace(/-/g, '').slice(0, 24)}`,
    status: 'passed',
    questions: [],
    personSealed: deps.secrets.seal(JSON.stringify(person), `kba-person:${bookingId}`),
    expiresAt: new Date(passedAt.getTime() + 60_000),
    finishedAt: passedAt,
    correctCount: 5,
  });
}
