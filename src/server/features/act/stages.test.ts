import { describe, expect, it } from 'vitest';
import { actStageMessages as m, actStages, type ActStage } from '../../../shared/act-stages.ts';
import { kbaMessages } from '../../../shared/kba.ts';
import { actMessages } from '../../../shared/notarial-act.ts';
import { sessionMessages } from '../../../shared/session.ts';
import { actTransitions, finishRefusals, refusalOf, stageOf, type ActFacts, type ActTransition } from './stages.ts';

/**
 * The act's state machine as a table (decision 073): for each stage, a
 * representative set of facts, the stage they derive to, and what every
 * transition answers there — allowed (null) or the guard's refusal.
 */
const base: ActFacts = {
  bookingStatus: 'confirmed',
  outcome: null,
  identityVerified: false,
  identityConfirmed: false,
  kbaPassed: false,
  recordingRunning: false,
  recordingSaving: false,
  recordingStored: false,
  locationGiven: false,
  consentGiven: false,
  signerAbroad: false,
  abroadConfirmed: false,
  oathRequested: false,
  oathTaken: false,
  documents: [{ signed: false, sealed: false, excluded: false }],
  owedFields: [],
  oathOwedBy: [],
  abroadUnclearedFor: [],
  credibleOathOwedBy: [],
};
const proven = { ...base, identityVerified: true, kbaPassed: true };
const confirmed = { ...proven, recordingRunning: true, identityConfirmed: true };
const answered = { ...confirmed, locationGiven: true, consentGiven: true };
const abroad = { ...answered, signerAbroad: true };
const at = {
  waiting: base,
  identity_proven: proven,
  recording: { ...proven, recordingRunning: true },
  location_and_consent: confirmed,
  oath: { ...answered, oathRequested: true },
  signing: answered,
  sealed: { ...answered, documents: [{ signed: true, sealed: true, excluded: false }] },
  finished: { ...proven, identityConfirmed: true, recordingStored: true, outcome: 'completed' as const, bookingStatus: 'completed' as const },
  not_completed: { ...base, outcome: 'not_completed' as const, bookingStatus: 'not_completed' as const },
  no_show: { ...base, outcome: 'no_show' as const, bookingStatus: 'no_show' as const },
} satisfies Record<ActStage, ActFacts>;

/** Rows beyond one per stage: the cases a stage hides (a signer abroad, identity questions not passed). */
const more = {
  'a signer abroad, not yet confirmed by the notary': { stage: 'location_and_consent', facts: abroad },
  'a signer abroad, confirmed by the notary': { stage: 'signing', facts: { ...abroad, abroadConfirmed: true } },
  'signing without the identity questions passed': { stage: 'signing', facts: { ...answered, kbaPassed: false } },
} satisfies Record<string, { stage: ActStage; facts: ActFacts }>;

const ok = null;
const ended = { startRecording: m.finished, confirmIdentity: m.finished, giveConsent: m.finished, confirmAbroad: m.finished, administerOath: m.finished, answerOath: m.finished, adoptSignature: m.finished, recordCredibleWitness: m.finished, seal: m.finished, finish: 'Only a confirmed booking can be finished.' };
// Rows: facts; columns: every transition (seal as an acknowledgment; finish as completed).
const table: Record<keyof typeof at | keyof typeof more, Record<ActTransition, string | null>> = {
  waiting: { startRecording: m.identityNotVerified, confirmIdentity: m.recordingRequired, giveConsent: m.recordingRequired, confirmAbroad: m.recordingRequired, administerOath: m.recordingRequired, answerOath: m.recordingRequired, adoptSignature: m.recordingRequired, recordCredibleWitness: m.recordingRequired, seal: m.recordingRequired, finish: sessionMessages.recordingRequired },
  identity_proven: { startRecording: ok, confirmIdentity: m.recordingRequired, giveConsent: m.recordingRequired, confirmAbroad: m.recordingRequired, administerOath: m.recordingRequired, answerOath: m.recordingRequired, adoptSignature: m.recordingRequired, recordCredibleWitness: m.recordingRequired, seal: m.recordingRequired, finish: sessionMessages.recordingRequired },
  recording: { startRecording: ok, confirmIdentity: ok, giveConsent: m.identityNotConfirmed, confirmAbroad: m.identityNotConfirmed, administerOath: m.identityNotConfirmed, answerOath: m.oathNotAsked, adoptSignature: m.identityNotConfirmed, recordCredibleWitness: ok, seal: actMessages.identityFirst, finish: sessionMessages.recordingActive },
  location_and_consent: { startRecording: ok, confirmIdentity: ok, giveConsent: ok, confirmAbroad: m.notAbroad, administerOath: ok, answerOath: m.oathNotAsked, adoptSignature: m.consentRequired, recordCredibleWitness: ok, seal: ok, finish: sessionMessages.recordingActive },
  oath: { startRecording: ok, confirmIdentity: ok, giveConsent: ok, confirmAbroad: m.notAbroad, administerOath: ok, answerOath: ok, adoptSignature: ok, recordCredibleWitness: ok, seal: ok, finish: sessionMessages.recordingActive },
  signing: { startRecording: ok, confirmIdentity: ok, giveConsent: ok, confirmAbroad: m.notAbroad, administerOath: ok, answerOath: m.oathNotAsked, adoptSignature: ok, recordCredibleWitness: ok, seal: ok, finish: sessionMessages.recordingActive },
  sealed: { startRecording: ok, confirmIdentity: ok, giveConsent: ok, confirmAbroad: m.notAbroad, administerOath: ok, answerOath: m.oathNotAsked, adoptSignature: ok, recordCredibleWitness: ok, seal: ok, finish: sessionMessages.recordingActive },
  finished: ended,
  not_completed: ended,
  no_show: ended,
  'a signer abroad, not yet confirmed by the notary': { startRecording: ok, confirmIdentity: ok, giveConsent: ok, confirmAbroad: ok, administerOath: ok, answerOath: m.oathNotAsked, adoptSignature: m.abroadNotConfirmed, recordCredibleWitness: ok, seal: m.abroadNotConfirmed, finish: sessionMessages.recordingActive },
  'a signer abroad, confirmed by the notary': { startRecording: ok, confirmIdentity: ok, giveConsent: ok, confirmAbroad: ok, administerOath: ok, answerOath: m.oathNotAsked, adoptSignature: ok, recordCredibleWitness: ok, seal: ok, finish: sessionMessages.recordingActive },
  'signing without the identity questions passed': { startRecording: ok, confirmIdentity: ok, giveConsent: ok, confirmAbroad: m.notAbroad, administerOath: ok, answerOath: m.oathNotAsked, adoptSignature: kbaMessages.notaryPending, recordCredibleWitness: ok, seal: actMessages.identityFirst, finish: sessionMessages.recordingActive },
};
const rows: [string, ActStage, ActFacts][] = [
  ...Object.entries(at).map(([stage, facts]): [string, ActStage, ActFacts] => [stage, stage as ActStage, facts]),
  ...Object.entries(more).map(([label, row]): [string, ActStage, ActFacts] => [label, row.stage, row.facts]),
];

describe('the act state machine', () => {
  it('every stage has a row', () => {
    expect(Object.keys(at).sort()).toEqual([...actStages].sort());
  });

  it.each(rows)('the facts of %s derive the stage %s', (_label, stage, facts) => {
    expect(stageOf(facts)).toBe(stage);
  });

  for (const [label, , facts] of rows) {
    it.each(actTransitions)(`at ${label}: %s`, (transition) => {
      expect(refusalOf(transition, facts, { actType: 'acknowledgment', outcome: 'completed' })).toBe(table[label as keyof typeof table][transition]);
    });
  }

  it('a jurat is sealed only after the oath is answered', () => {
    expect(refusalOf('seal', at.signing, { actType: 'jurat' })).toBe(m.oathRequired);
    expect(refusalOf('seal', at.oath, { actType: 'jurat' })).toBe(m.oathRequired);
    expect(refusalOf('seal', { ...at.oath, oathTaken: true }, { actType: 'jurat' })).toBeNull();
  });

  it('sealing waits for every signer still taking part, named; the document sealed is the one whose fields count (decision 123)', () => {
    const owed = { ...at.signing, owedFields: [{ documentId: 'd1', signer: 'Alan Turing', empty: 2 }, { documentId: 'd1', signer: 'Grace Hopper', empty: 1 }, { documentId: 'd2', signer: 'Ada Lovelace', empty: 1 }] };
    expect(refusalOf('seal', owed, { actType: 'acknowledgment', documentId: 'd1' })).toBe(m.notSignedBy(['Alan Turing', 'Grace Hopper'], 3));
    expect(m.notSignedBy(['Alan Turing', 'Grace Hopper'], 3)).toBe('Alan Turing and Grace Hopper have not filled every field yet (3 still empty).');
    expect(refusalOf('seal', owed, { actType: 'acknowledgment', documentId: 'd2' })).toBe('Ada Lovelace has not filled every field yet (1 still empty).');
    expect(refusalOf('seal', owed, { actType: 'acknowledgment', documentId: 'd3' })).toBeNull();
    // A jurat waits for every co-signer's oath too.
    const sworn = { ...at.signing, oathRequested: true, oathTaken: true };
    expect(refusalOf('seal', { ...sworn, oathOwedBy: ['Alan Turing'] }, { actType: 'jurat' })).toBe(m.oathOwedBy(['Alan Turing']));
    expect(refusalOf('seal', sworn, { actType: 'jurat' })).toBeNull();
  });

  it('sealing waits for each co-signer or witness abroad to be cleared, by name, and for every credible witness’s oath whatever the act (decisions 106, 134)', () => {
    expect(refusalOf('seal', { ...at.signing, abroadUnclearedFor: ['Alan Turing'] }, { actType: 'acknowledgment' })).toBe(
      'Alan Turing is outside the United States: the notary must first confirm the act is allowed for a signer abroad.',
    );
    expect(refusalOf('seal', { ...at.signing, credibleOathOwedBy: ['Ada Lovelace'] }, { actType: 'acknowledgment' })).toBe(
      'A credible witness swears or affirms before the seal: waiting for Ada Lovelace.',
    );
    expect(refusalOf('seal', at.signing, { actType: 'acknowledgment' })).toBeNull();
  });

  it('finishing as completed: the recording stored (not running, not being saved) and every document sealed or set aside', () => {
    const done = { ...at.sealed, recordingRunning: false, recordingStored: true };
    expect(finishRefusals(done, 'completed')).toEqual([]);
    expect(finishRefusals({ ...done, recordingSaving: true, recordingStored: false }, 'completed')).toEqual([sessionMessages.recordingSaving]);
    expect(finishRefusals({ ...done, documents: [{ signed: false, sealed: false, excluded: false }] }, 'completed')).toEqual([actMessages.notSealed]);
    expect(finishRefusals({ ...done, documents: [{ signed: false, sealed: false, excluded: true }] }, 'completed')).toEqual([]);
    expect(finishRefusals(at.waiting, 'no_show')).toEqual([]);
    expect(stageOf({ ...done, documents: [{ signed: false, sealed: false, excluded: true }, { signed: true, sealed: true, excluded: false }] })).toBe('sealed');
  });
});
