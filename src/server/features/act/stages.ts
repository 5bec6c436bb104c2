import type { BookingStatus } from '../../../shared/booking.ts';
import { actStageMessages as m, type ActStage } from '../../../shared/act-stages.ts';
import { actMessages } from '../../../shared/notarial-act.ts';
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
  recordingRunning: boolean;
  recordingSaving: boolean;
  recordingStored: boolean;
  locationGiven: boolean;
  consentGiven: boolean;
  oathRequested: boolean;
  oathTaken: boolean;
  /** Documents to notarize (set-aside ones are `excluded`). */
  documents: { signed: boolean; sealed: boolean; excluded: boolean }[];
}

export function stageOf(f: ActFacts): ActStage {
  if (f.outcome === 'completed') return 'finished';
  if (f.outcome === 'not_completed') return 'not_completed';
  if (f.outcome === 'no_show') return 'no_show';
  const toSeal = f.documents.filter((d) => !d.excluded);
  if (toSeal.length > 0 && toSeal.every((d) => d.sealed)) return 'sealed';
  if (f.recordingRunning) {
    if (!f.identityConfirmed) return 'recording';
    if (!f.locationGiven || !f.consentGiven) return 'location_and_consent';
    if (f.oathRequested && !f.oathTaken) return 'oath';
    return 'signing';
  }
  return f.identityVerified ? 'identity_proven' : 'waiting';
}

export const actTransitions = ['startRecording', 'confirmIdentity', 'giveConsent', 'administerOath', 'answerOath', 'adoptSignature', 'seal', 'finish'] as const;
export type ActTransition = (typeof actTransitions)[number];

/** What a transition may depend on beyond the facts (the act type being sealed, the outcome asked for). */
export interface TransitionInput {
  actType?: string;
  outcome?: SessionOutcome;
}

type Guard = (f: ActFacts, input: TransitionInput) => string | null;

const ended: Guard = (f) => (f.outcome !== null || f.bookingStatus !== 'confirmed' ? m.finished : null);
const recorded: Guard = (f) => (f.recordingRunning ? null : m.recordingRequired);
const confirmed: Guard = (f) => (f.identityConfirmed ? null : m.identityNotConfirmed);
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
  administerOath: { who: 'notary', guard: all(ended, recorded, confirmed) },
  answerOath: { who: 'signer', guard: all(ended, recorded, (f) => (f.oathRequested ? null : m.oathNotAsked)) },
  adoptSignature: { who: 'signer', guard: all(ended, recorded, confirmed, (f) => (f.locationGiven && f.consentGiven ? null : m.consentRequired)) },
  seal: {
    who: 'notary',
    guard: all(ended, recorded, (f) => (f.identityConfirmed ? null : actMessages.identityFirst), (f, input) => (input.actType === 'jurat' && !f.oathTaken ? m.oathRequired : null)),
  },
  finish: { who: 'notary', guard: (f, input) => finishRefusals(f, input.outcome ?? 'completed')[0] ?? null },
};

/** Every reason finishing with `outcome` is refused now (the room lists them); empty when allowed. */
export function finishRefusals(f: ActFacts, outcome: SessionOutcome): string[] {
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
