import { describe, expect, it } from 'vitest';
import { actStageMessages as m } from '../../../shared/act-stages.ts';
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
  recordingRunning: false,
  recordingSaving: false,
  recordingStored: false,
  locationGiven: false,
  consentGiven: false,
  oathRequested: false,
  oathTaken: false,
  documents: [{ signed: false, sealed: false, excluded: false }],
};
const at = {
  waiting: base,
  identity_proven: { ...base, identityVerified: true },
  recording: { ...base, identityVerified: true, recordingRunning: true },
  location_and_consent: { ...base, identityVerified: true, recordingRunning: true, identityConfirmed: true },
  oath: { ...base, identityVerified: true, recordingRunning: true, identityConfirmed: true, locationGiven: true, consentGiven: true, oathRequested: true },
  signing: { ...base, identityVerified: true, recordingRunning: true, identityConfirmed: true, locationGiven: true, consentGiven: true },
  sealed: { ...base, identityVerified: true, recordingRunning: true, identityConfirmed: true, locationGiven: true, consentGiven: true, documents: [{ signed: true, sealed: true, excluded: false }] },
  finished: { ...base, identityVerified: true, identityConfirmed: true, recordingStored: true, outcome: 'completed' as const, bookingStatus: 'completed' as const },
  not_completed: { ...base, outcome: 'not_completed' as const, bookingStatus: 'not_completed' as const },
  no_show: { ...base, outcome: 'no_show' as const, bookingStatus: 'no_show' as const },
} satisfies Record<string, ActFacts>;

const ok = null;
// Rows: stage; columns: transitions in `actTransitions` order (seal as an acknowledgment; finish as completed).
const table: Record<keyof typeof at, Record<ActTransition, string | null>> = {
  waiting: { startRecording: m.identityNotVerified, confirmIdentity: m.recordingRequired, giveConsent: m.recordingRequired, administerOath: m.recordingRequired, answerOath: m.recordingRequired, adoptSignature: m.recordingRequired, seal: m.recordingRequired, finish: sessionMessages.recordingRequired },
  identity_proven: { startRecording: ok, confirmIdentity: m.recordingRequired, giveConsent: m.recordingRequired, administerOath: m.recordingRequired, answerOath: m.recordingRequired, adoptSignature: m.recordingRequired, seal: m.recordingRequired, finish: sessionMessages.recordingRequired },
  recording: { startRecording: ok, confirmIdentity: ok, giveConsent: m.identityNotConfirmed, administerOath: m.identityNotConfirmed, answerOath: m.oathNotAsked, adoptSignature: m.identityNotConfirmed, seal: actMessages.identityFirst, finish: sessionMessages.recordingActive },
  location_and_consent: { startRecording: ok, confirmIdentity: ok, giveConsent: ok, administerOath: ok, answerOath: m.oathNotAsked, adoptSignature: m.consentRequired, seal: ok, finish: sessionMessages.recordingActive },
  oath: { startRecording: ok, confirmIdentity: ok, giveConsent: ok, administerOath: ok, answerOath: ok, adoptSignature: ok, seal: ok, finish: sessionMessages.recordingActive },
  signing: { startRecording: ok, confirmIdentity: ok, giveConsent: ok, administerOath: ok, answerOath: m.oathNotAsked, adoptSignature: ok, seal: ok, finish: sessionMessages.recordingActive },
  sealed: { startRecording: ok, confirmIdentity: ok, giveConsent: ok, administerOath: ok, answerOath: m.oathNotAsked, adoptSignature: ok, seal: ok, finish: sessionMessages.recordingActive },
  finished: { startRecording: m.finished, confirmIdentity: m.finished, giveConsent: m.finished, administerOath: m.finished, answerOath: m.finished, adoptSignature: m.finished, seal: m.finished, finish: 'Only a confirmed booking can be finished.' },
  not_completed: { startRecording: m.finished, confirmIdentity: m.finished, giveConsent: m.finished, administerOath: m.finished, answerOath: m.finished, adoptSignature: m.finished, seal: m.finished, finish: 'Only a confirmed booking can be finished.' },
  no_show: { startRecording: m.finished, confirmIdentity: m.finished, giveConsent: m.finished, administerOath: m.finished, answerOath: m.finished, adoptSignature: m.finished, seal: m.finished, finish: 'Only a confirmed booking can be finished.' },
};

describe('the act state machine', () => {
  it.each(Object.entries(at))('the facts of %s derive that stage', (stage, facts) => {
    expect(stageOf(facts)).toBe(stage);
  });

  for (const [stage, row] of Object.entries(table)) {
    it.each(actTransitions)(`at ${stage}: %s`, (transition) => {
      expect(refusalOf(transition, at[stage as keyof typeof at], { actType: 'acknowledgment', outcome: 'completed' })).toBe(row[transition]);
    });
  }

  it('a jurat is sealed only after the oath is answered', () => {
    expect(refusalOf('seal', at.signing, { actType: 'jurat' })).toBe(m.oathRequired);
    expect(refusalOf('seal', at.oath, { actType: 'jurat' })).toBe(m.oathRequired);
    expect(refusalOf('seal', { ...at.oath, oathTaken: true }, { actType: 'jurat' })).toBeNull();
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
