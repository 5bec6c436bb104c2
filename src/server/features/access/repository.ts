import { and, eq, exists, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { bookings, identityVerifications, notarialDocuments, sessionParticipants, type ParticipantRole, type ParticipantStatus } from '../../db/schema.ts';

/** What the access policy needs to know of a booking: its notary. */
export async function bookingNotary(db: DbOrTx, bookingId: string): Promise<{ notaryId: string | null } | null> {
  const [row] = await db.select({ notaryId: bookings.notaryId }).from(bookings).where(eq(bookings.id, bookingId));
  return row ?? null;
}

/**
 * Whether the booking's customer (participantId null) or one of its
 * participants has passed identity proofing (the provider said verified).
 * A participant's verification never counts for the customer, nor the reverse.
 */
export async function signerVerified(db: DbOrTx, bookingId: string, participantId: string | null = null): Promise<boolean> {
  const whose = participantId ? eq(identityVerifications.participantId, participantId) : isNull(identityVerifications.participantId);
  const [row] = await db
    .select({ verified: exists(db.select({ one: identityVerifications.id }).from(identityVerifications).where(and(eq(identityVerifications.bookingId, bookingId), whose, eq(identityVerifications.status, 'verified')))) })
    .from(bookings)
    .where(eq(bookings.id, bookingId));
  return row?.verified === true;
}

/** Whether a document is marked as a supporting file (an ID photo, a reference copy). */
export async function isSupportingFile(db: DbOrTx, documentId: string): Promise<boolean> {
  const [row] = await db.select({ supportingAt: notarialDocuments.supportingAt }).from(notarialDocuments).where(eq(notarialDocuments.documentId, documentId));
  return !!row?.supportingAt;
}

export interface ParticipantLinkRow {
  id: string;
  bookingId: string;
  role: ParticipantRole;
  status: ParticipantStatus;
  name: string;
}

/** A participant's own link (its SHA-256) → who they are. */
export async function findParticipantByHash(db: DbOrTx, hash: string): Promise<ParticipantLinkRow | null> {
  const [row] = await db
    .select({ id: sessionParticipants.id, bookingId: sessionParticipants.bookingId, role: sessionParticipants.role, status: sessionParticipants.status, name: sessionParticipants.name })
    .from(sessionParticipants)
    .where(eq(sessionParticipants.tokenHash, hash));
  return row ?? null;
}
