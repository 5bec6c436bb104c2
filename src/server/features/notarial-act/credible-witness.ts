import type { Deps } from '../../deps.ts';
import { DomainError } from '../../errors.ts';
import { actStageMessages } from '../../../shared/act-stages.ts';
import type { StaffIdentity } from '../staff/session.ts';
import { authorise } from '../access/service.ts';
import { actChanged, takeTransition } from '../act/service.ts';
import { identityProofingStatus } from '../identity/service.ts';
import { activeParticipants, credibleWitnessesOf, saveCredibleWitness, type CredibleWitness } from '../participants/service.ts';

/**
 * A credible witness (docs/decisions/124-credible-witness.md): the notary
 * records, during the recording, that a witness of the session identifies a
 * named signer (the customer, or a co-signer still taking part). The witness
 * is identified like a signer first (credential analysis, the identity
 * questions, the notary's confirmation on camera). A step of the act
 * (`act.recordCredibleWitness` on its audit trail); sealing writes it into
 * that signer's journal entry. Recording it again for the same signer changes
 * nothing; for another signer, it is re-pointed (and audited again).
 */
export async function recordCredibleWitness(deps: Deps, staff: StaffIdentity, input: { bookingId: string; witnessId: string; signerParticipantId: string | null }): Promise<CredibleWitness[]> {
  await authorise(deps, { staff }, 'verify_identity', { bookingId: input.bookingId });
  const changed = await deps.db.transaction(async (tx) => {
    const people = await activeParticipants(tx, input.bookingId);
    const witness = people.find((p) => p.id === input.witnessId);
    if (!witness || witness.role !== 'witness') throw new DomainError('BAD_REQUEST', actStageMessages.credibleWitnessNotWitness);
    if (input.signerParticipantId !== null && !people.some((p) => p.id === input.signerParticipantId && p.role === 'signer')) throw new DomainError('BAD_REQUEST', actStageMessages.credibleWitnessUnknownSigner);
    return takeTransition(
      deps,
      tx,
      { bookingId: input.bookingId, transition: 'recordCredibleWitness', actor: { type: 'staff', id: staff.user.id }, data: { witnessId: witness.id, signerParticipantId: input.signerParticipantId } },
      async () => {
        if (!(await identityProofingStatus(deps, input.bookingId, tx, witness.id)).complete) throw new DomainError('PRECONDITION_FAILED', actStageMessages.credibleWitnessIdentityFirst(witness.name));
        const saved = await saveCredibleWitness(tx, { bookingId: input.bookingId, witnessId: witness.id, signerParticipantId: input.signerParticipantId, at: deps.now(), staffId: staff.user.id });
        return { changed: saved, result: saved };
      },
    );
  });
  if (changed) actChanged(deps, input.bookingId);
  return credibleWitnessesOf(deps.db, input.bookingId);
}
