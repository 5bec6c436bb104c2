import type { Deps } from '../../deps.ts';
import { DomainError } from '../../errors.ts';
import { fieldMessages } from '../../../shared/document-fields.ts';
import { authorise } from '../access/service.ts';

/**
 * Whose fields a link fills: the one place that answers it
 * (docs/decisions/123-each-signer-their-own-fields.md). The access policy
 * admits the verified customer, co-signer and witness to `sign`; here a field
 * is theirs when its `participant_id` is their own — NULL for the booking's
 * customer, the participant's id for a co-signer or witness. Every fill
 * (signature, initials, date, text) and every signer's answer (consent,
 * location, oath) goes through `authoriseSigner`, and every field it touches
 * through `ownsField`.
 */

export interface Signer {
  bookingId: string;
  /** The co-signer or witness by their own link; null for the booking's customer. */
  participantId: string | null;
}

export async function authoriseSigner(deps: Deps, token: string): Promise<Signer> {
  const grant = await authorise(deps, { token }, 'sign');
  return { bookingId: grant.bookingId, participantId: grant.participant?.id ?? null };
}

export function ownsField(signer: Signer, field: { participantId: string | null }): boolean {
  return field.participantId === signer.participantId;
}

/** Refuses, with the reason, a field that is another signer's (nothing changes). */
export function assertOwnField(signer: Signer, field: { participantId: string | null }): void {
  if (!ownsField(signer, field)) throw new DomainError('FORBIDDEN', fieldMessages.notYours);
}
