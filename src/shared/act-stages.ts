import type { SessionOutcome } from './session.ts';

/**
 * The stages of one notarial act, as both browsers, the console and the
 * manage page show them (docs/decisions/073-act-state-machine.md). The server
 * derives the stage from what has happened (src/server/features/act/stages.ts);
 * no page works it out for itself.
 */
export const actStages = [
  'waiting',
  'identity_proven',
  'recording',
  'location_and_consent',
  'oath',
  'signing',
  'sealed',
  'finished',
  'not_completed',
  'no_show',
] as const;
export type ActStage = (typeof actStages)[number];

export const actStageLabels: Record<ActStage, string> = {
  waiting: 'Waiting for the signer’s identity check',
  identity_proven: 'Identity checked — ready to record',
  recording: 'Recording — the notary confirms the signer’s identity',
  location_and_consent: 'Signer’s location and consent',
  oath: 'Oath or affirmation',
  signing: 'Signing',
  sealed: 'Sealed — ready to finish',
  finished: 'Finished',
  not_completed: 'Not completed',
  no_show: 'No-show',
};

/** The signer's answers and the oath, as the act records them. */
export const actTexts = {
  consent: 'I consent to sign electronically',
  location: 'Where are you right now?',
  outsideUs: 'Outside the United States',
  administerOath: 'Administer oath',
  swear: 'I swear',
  affirm: 'I affirm',
  /** RULONA (2018) §14A, Iowa Code 9B.14A: what the notary confirms for a signer outside the US (decision 106). */
  abroadStatement:
    'I confirm that the document is to be filed with or relates to a matter before a public official or court, governmental entity or other entity subject to the jurisdiction of the United States, or involves property located in the United States or a transaction substantially connected with the United States; and that making the statement or signing the document is not prohibited by the country where the signer is located.',
  confirmAbroad: 'Confirm the act is allowed',
  abroadWaiting: 'You are outside the United States: the notary confirms the document may be notarized for a signer abroad before you sign.',
} as const;

/** The prefix of a location outside the US, as the signer's answer is stored ("Outside the United States: France"). */
export const abroadPrefix = `${actTexts.outsideUs}: `;
export const isAbroad = (location: string | null | undefined): boolean => !!location?.startsWith(abroadPrefix);

export const actStageMessages = {
  recordingRequired: 'Start the recording first: the act must be recorded.',
  identityNotVerified: "The signer's identity is not verified yet. The session can start once the signer has verified their identity from their booking page.",
  identityNotConfirmed: 'The notary must first confirm that the verified ID matches the person on camera.',
  consentRequired: 'The signer must first say where they are and consent to sign electronically.',
  oathRequired: 'A jurat needs the oath or affirmation first: press “Administer oath” and wait for the signer’s answer.',
  oathNotAsked: 'The notary has not asked for an oath.',
  abroadNotConfirmed: 'The signer is outside the United States: the notary must first confirm the act is allowed for a signer abroad.',
  notAbroad: 'The signer has not said they are outside the United States.',
  finished: 'This session has ended.',
  /** Sealing waits for every signer still taking part (decision 123): who has not, by name. */
  notSignedBy: (names: string[], empty: number) =>
    `${namesInProse(names)} ${names.length === 1 ? 'has' : 'have'} not filled every field yet (${empty} still empty).`,
  oathOwedBy: (names: string[]) => `A jurat needs every signer’s oath or affirmation: waiting for ${namesInProse(names)}.`,
  /** A co-signer or witness abroad is cleared by the notary like the customer (RULONA, decision 106), each for their own answer. */
  abroadNotConfirmedFor: (names: string[]) =>
    `${namesInProse(names)} ${names.length === 1 ? 'is' : 'are'} outside the United States: the notary must first confirm the act is allowed for a signer abroad.`,
  /** A credible witness vouches under oath (decision 134): the seal waits for their answer. */
  credibleWitnessOathOwedBy: (names: string[]) => `A credible witness swears or affirms before the seal: waiting for ${namesInProse(names)}.`,
  /** A credible witness is recorded during the act, for a signer still taking part (decision 124). */
  credibleWitnessNotWitness: 'Only a witness of this session can be recorded as a credible witness.',
  credibleWitnessUnknownSigner: 'Choose a signer who is taking part in this session.',
  credibleWitnessIdentityFirst: (name: string) => `Confirm ${name}’s identity first: a credible witness is identified like a signer.`,
} as const;

/** "A", "A and B", "A, B and C": people as a sentence names them. */
export function namesInProse(names: string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

export type { SessionOutcome };
