import type { BookingStatus } from '../../../shared/booking.ts';
import { actStageMessages as m, type ActStage } from '../../../shared/act-stages.ts';
import { actMessages } from '../../../shared/notarial-act.ts';
import { kbaMessages } from '../../../shared/kba.ts';
import { sessionMessages, type SessionOutcome } from '../../../shared/session.ts';

/**
 * The act's state machine, pure (docs/decisions/073-act-state-machine.md):
 * the facts the database holds, the stage they put the act in, and each
 * transition's named guard — a refusal message, or null when allowed. The
 * service (service.ts) reads the facts under the booking's lock, asks the
 * guard, makes the change and writes the audit trail; the table test
 * (stages.test.ts) runs every transition against every stage.
 */
export interface ActFacts {
  bookingStatus: BookingStatus;
  /** The session was finished, with this outcome. */
  outcome: SessionOutcome | null;
  identityVerified: boolean;
  identityConfirmed: boolean;
  /** Identity questions (KBA) passed, fresh for this session (decision 085). */
  kbaPassed: boolean;
  recordingRunning: boolean;
  recordingSaving: boolean;
  recordingStored: boolean;
  locationGiven: boolean;
  consentGiven: boolean;
  /** The signer answered "Where are you right now?" with a country outside the US. */
  signerAbroad: boolean;
  /** The notary confirmed the act is allowed for a signer abroad (RULONA; decision 106). */
  abroadConfirmed: boolean;
  oathRequested: boolean;
  oathTaken: boolean;
  /** Documents to notarize (set-aside ones are `excluded`). */
  documents: { signed: boolean; sealed: boolean; excluded: boolean }[];
  /**
   * Fields still empty, by document and signer, of the signers still taking
   * part (decision 123): the customer and every co-signer or witness not
   * removed or marked not completed — theirs are left out of the seal.
   */
  owedFields: { documentId: string; signer: string; empty: number }[];
  /** Co-signers taking part who have not answered the oath (a jurat waits for them too). */
  oathOwedBy: string[];
  /** Co-signers and witnesses taking part who said they are abroad and whom the notary has not cleared (each signer's own answer, decision 106). */
  abroadUnclearedFor: string[];
  /** Credible witnesses taking part who have not answered the oath (decision 134): every act waits for them. */
  credibleOathOwedBy: string[];
}

/**
 * The facts of one signer (the customer's are the act's own; a co-signer's
 * or witness's replace them when they take a signer's step: their own
 * identity, identity questions, location, consent, oath).
 */
export type SignerFacts = Pick<ActFacts, 'identityVerified' | 'identityConfirmed' | 'kbaPassed' | 'locationGiven' | 'consentGiven' | 'signerAbroad' | 'abroadConfirmed' | 'oathTaken'>;

/** The stage and finishing do not depend on the identity questions (signing and sealing do, through their guards). */
export type StageFacts = Omit<ActFacts, 'kbaPassed'>;

export function stageOf(f: StageFacts): ActStage {
  if (f.outcome === 'completed') return 'finished';
  if (f.outcome === 'not_completed') return 'not_completed';
  if (f.outcome === 'no_show') return 'no_show';
  const toSeal = f.documents.filter((d) => !d.excluded);
  if (toSeal.length > 0 && toSeal.every((d) => d.sealed)) return 'sealed';
  if (f.recordingRunning) {
    if (!f.identityConfirmed) return 'recording';
    if (!f.locationGiven || !f.consentGiven || (f.signerAbroad && !f.abroadConfirmed)) return 'location_and_consent';
    if (f.oathRequested && !f.oathTaken) return 'oath';
    return 'signing';
  }
  return f.identityVerified ? 'identity_proven' : 'waiting';
}

export const actTransitions = ['startRecording', 'confirmIdentity', 'giveConsent', 'confirmAbroad', 'administerOath', 'answerOath', 'adoptSignature', 'recordCredibleWitness', 'seal', 'finish'] as const;
export type ActTransition = (typeof actTransitions)[number];

/** What a transition may depend on beyond the facts (the act type being sealed, the outcome asked for). */
export interface TransitionInput {
  actType?: string;
  outcome?: SessionOutcome;
  /** The document being sealed (its signers' fields are waited for). */
  documentId?: string;
}

type Guard = (f: ActFacts, input: TransitionInput) => string | null;

const ended: Guard = (f) => (f.outcome !== null || f.bookingStatus !== 'confirmed' ? m.finished : null);
const recorded: Guard = (f) => (f.recordingRunning ? null : m.recordingRequired);
const confirmed: Guard = (f) => (f.identityConfirmed ? null : m.identityNotConfirmed);
/** Identity proofing's second method (decision 085): asked before signing and sealing, after the notary's own look. */
const kba: Guard = (f) => (f.kbaPassed ? null : kbaMessages.notaryPending);
/** A signer abroad signs only once the notary has confirmed RULONA's conditions (decision 106). */
const abroadCleared: Guard = (f) => (f.signerAbroad && !f.abroadConfirmed ? m.abroadNotConfirmed : null);
const all =
  (...guards: Guard[]): Guard =>
  (f, input) => {
    for (const guard of guards) {
      const refusal = guard(f, input);
      if (refusal) return refusal;
    }
    return null;
  };

/** Each transition's guard, by name; `who` takes it (the access module decides whether this person is that role). */
export const transitionGuards: Record<ActTransition, { who: 'notary' | 'signer'; guard: Guard }> = {
  /** Recording starts once the provider has verified the ID, before the notary's confirmation (so it is recorded). */
  startRecording: { who: 'notary', guard: all(ended, (f) => (f.identityVerified ? null : m.identityNotVerified)) },
  /** The notary compares the ID with the person on camera: on the recording. */
  confirmIdentity: { who: 'notary', guard: all(ended, recorded, (f) => (f.identityVerified ? null : m.identityNotVerified)) },
  /** "Where are you right now?" and "I consent to sign electronically". */
  giveConsent: { who: 'signer', guard: all(ended, recorded, confirmed) },
  /** The notary confirms the act is allowed for a signer outside the US (RULONA, decision 106). */
  confirmAbroad: { who: 'notary', guard: all(ended, recorded, confirmed, (f) => (f.signerAbroad ? null : m.notAbroad)) },
  administerOath: { who: 'notary', guard: all(ended, recorded, confirmed) },
  answerOath: { who: 'signer', guard: all(ended, recorded, (f) => (f.oathRequested ? null : m.oathNotAsked)) },
  adoptSignature: { who: 'signer', guard: all(ended, recorded, confirmed, (f) => (f.locationGiven && f.consentGiven ? null : m.consentRequired), abroadCleared, kba) },
  /** The notary records a witness who identifies a named signer (decision 124): on the recording. */
  recordCredibleWitness: { who: 'notary', guard: all(ended, recorded) },
  seal: {
    who: 'notary',
    guard: all(
      ended,
      recorded,
      (f) => (f.identityConfirmed ? null : actMessages.identityFirst),
      (f, input) => (input.actType === 'jurat' && !f.oathTaken ? m.oathRequired : null),
      (f, input) => (input.actType === 'jurat' && f.oathOwedBy.length > 0 ? m.oathOwedBy(f.oathOwedBy) : null),
      // Identity proofing complete, identity questions included (decision 085).
      (f) => (f.kbaPassed ? null : actMessages.identityFirst),
      abroadCleared,
      (f) => (f.abroadUnclearedFor.length > 0 ? m.abroadNotConfirmedFor(f.abroadUnclearedFor) : null),
      (f) => (f.credibleOathOwedBy.length > 0 ? m.credibleWitnessOathOwedBy(f.credibleOathOwedBy) : null),
      // Every signer still taking part has filled their fields of this document (decision 123), named.
      (f, input) => {
        const owed = f.owedFields.filter((o) => input.documentId === undefined || o.documentId === input.documentId);
        return owed.length === 0 ? null : m.notSignedBy([...new Set(owed.map((o) => o.signer))], owed.reduce((n, o) => n + o.empty, 0));
      },
    ),
  },
  finish: { who: 'notary', guard: (f, input) => finishRefusals(f, input.outcome ?? 'completed')[0] ?? null },
};

/** Every reason finishing with `outcome` is refused now (the room lists them); empty when allowed. */
export function finishRefusals(f: StageFacts, outcome: SessionOutcome): string[] {
  const refusals: string[] = [];
  if (f.bookingStatus !== 'confirmed' || f.outcome !== null) return ['Only a confirmed booking can be finished.'];
  if (outcome === 'no_show') return refusals;
  if (f.recordingRunning) refusals.push(sessionMessages.recordingActive);
  else if (f.recordingSaving) refusals.push(sessionMessages.recordingSaving);
  else if (!f.recordingStored) refusals.push(sessionMessages.recordingRequired);
  if (outcome === 'completed' && !f.documents.every((d) => d.sealed || d.excluded)) refusals.push(actMessages.notSealed);
  return refusals;
}

export function refusalOf(transition: ActTransition, facts: ActFacts, input: TransitionInput = {}): string | null {
  return transitionGuards[transition].guard(facts, input);
}
