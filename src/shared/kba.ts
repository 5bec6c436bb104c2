import { z } from 'zod';
import { isSingleLine, singleLineMessage } from './fields.ts';
import { manageTokenSchema } from './manage-booking.ts';
import { site } from './site.ts';

/**
 * Knowledge-based authentication (KBA), both sides: the rules a quiz obeys,
 * the signer's details form, and every visitor-facing text once
 * (docs/decisions/085-knowledge-based-authentication.md).
 */
export const kbaRules = {
  questions: 5,
  /** Pass with at least this many correct. */
  passMark: 4,
  /** The whole quiz; enforced by the server. */
  seconds: 120,
  /** Quizzes before a lockout: the first and one retry. */
  attemptsPerRound: 2,
  lockoutHours: 24,
  /** A retry repeats at most this many questions of the quiz before it. */
  maxRepeated: 2,
  minChoices: 5,
} as const;

export const noneOfTheAbove = 'None of the above';

export const kbaLabels = {
  heading: 'Identity questions',
  start: 'Answer identity questions',
  submit: 'Submit answers',
  timeLeft: 'Time left',
  passed: 'Identity questions passed',
  notPassed: 'Identity questions not passed',
  answerSheet: 'TEST MODE answer sheet',
} as const;

export const kbaMessages = {
  intro: `Five multiple-choice questions about your own history — past addresses, vehicles, people and employers you have been associated with — drawn from public records. Answer at least ${kbaRules.passMark} correctly.`,
  timeLimit: `You have ${kbaRules.seconds / 60} minutes for the whole quiz once it starts. The time limit is part of the check, so it cannot be extended or paused.`,
  ssnWhy:
    'The last 4 digits of your Social Security number let the verification service find your public records (US persons only). They are passed to the verification provider for this check and never stored by us.',
  credentialFirst: 'Verify your identity with your ID and a selfie first; then the identity questions open.',
  notOpenYet: (when: string) => `Identity questions must be answered shortly before your appointment: they open on ${when}.`,
  lockedOut: (when: string) => `You can try again after ${when}.`,
  lockedOutReschedule: `Our staff have been told and will contact you to move your appointment, or call us at ${site.phone}.`,
  attemptsLeft: (n: number) => `Attempts left: ${n}`,
  timeUp: 'Time is up: the answers were not accepted.',
  notOpen: 'This quiz is no longer open. Start the identity questions again.',
  alreadyAnswered: 'These answers were already submitted.',
  notYours: 'This quiz does not belong to this booking.',
  unknownChoice: 'Please choose one of the answers given for each question.',
  answerAll: `Please answer all ${kbaRules.questions} questions.`,
  inProgress: 'A quiz is already under way: answer it, or wait until its time is up.',
  alreadyPassed: 'You have already passed the identity questions.',
  bookingNotOpen: 'Identity questions open once your booking is paid.',
  providerUnavailable: 'The verification service did not answer. Please try again in a few minutes.',
  notaryPending: 'The signer has not passed the identity questions (KBA) yet. They answer them from their booking page shortly before the session.',
} as const;

// ---- The signer's details -----------------------------------------------------------

const line = (label: string, max: number) =>
  z
    .string()
    .trim()
    .min(1, { message: `${label} is required`, abort: true })
    .max(max, `${label} is too long`)
    .refine(isSingleLine, singleLineMessage(label));

export const usStates = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME', 'MD', 'MA', 'MI', 'MN',
  'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA',
  'WV', 'WI', 'WY', 'PR', 'GU', 'VI', 'AS', 'MP',
] as const;

/** An adult alive today: 18 to 120 years before `today` (YYYY-MM-DD). */
export function isPlausibleBirthDate(value: string, today = new Date().toISOString().slice(0, 10)): boolean {
  const year = Number(today.slice(0, 4));
  const adult = `${year - 18}${today.slice(4)}`;
  const oldest = `${year - 120}${today.slice(4)}`;
  return value <= adult && value >= oldest;
}

export const kbaPersonSchema = z.object({
  firstName: line('First name', 100),
  lastName: line('Last name', 100),
  dateOfBirth: z.iso.date('Enter your date of birth.').refine((v) => isPlausibleBirthDate(v), 'Enter your date of birth (you must be 18 or older).'),
  street: line('Street address', 200),
  city: line('City', 100),
  state: z.enum(usStates, 'Choose your state.'),
  zip: z.string().trim().regex(/^\d{5}(-\d{4})?$/, 'Enter a 5-digit ZIP code.'),
  ssnLast4: z.string().trim().regex(/^\d{4}$/, 'Enter the last 4 digits of your Social Security number.'),
});
export type KbaPerson = z.infer<typeof kbaPersonSchema>;

export const kbaStartInput = z.object({ token: manageTokenSchema, person: kbaPersonSchema });

const choiceId = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, kbaMessages.unknownChoice);
export const kbaAnswerInput = z.object({
  token: manageTokenSchema,
  attemptId: z.uuid(kbaMessages.notOpen),
  answers: z
    .array(z.object({ questionId: choiceId, choiceId }))
    .min(1, kbaMessages.answerAll)
    .max(kbaRules.questions, kbaMessages.answerAll),
});

// ---- Views ---------------------------------------------------------------------------

export interface KbaQuestionView {
  id: string;
  prompt: string;
  choices: { id: string; label: string }[];
}

/** TEST MODE only: the fictional public record the test provider asks about. */
export interface KbaAnswerSheet {
  sources: string[];
  facts: { label: string; value: string }[];
}

export type CustomerKbaStatus = 'unavailable' | 'not_open_yet' | 'ready' | 'in_progress' | 'passed' | 'failed' | 'locked';

/** What the signer sees: never the correct answers (except the labelled TEST MODE sheet). */
export interface CustomerKbaView {
  mode: 'test' | 'idology';
  status: CustomerKbaStatus;
  message: string | null;
  attemptsLeft: number;
  opensAt: Date | null;
  lockedUntil: Date | null;
  passedAt: Date | null;
  /** The last finished quiz: how many were right. */
  lastScore: { correct: number; total: number } | null;
  /** Prefill of the details form: the booking's name. */
  bookingName: { firstName: string; lastName: string };
  quiz: { attemptId: string; attempt: number; questions: KbaQuestionView[]; secondsLeft: number; answerSheet: KbaAnswerSheet | null } | null;
  timeZone: string;
}

/** The KBA part of what the notary sees. */
export interface NotaryKbaView {
  status: 'not_started' | 'in_progress' | 'passed' | 'failed' | 'locked' | 'stale';
  provider: 'test' | 'idology' | null;
  passedOnAttempt: number | null;
  providerReference: string | null;
  passedAt: Date | null;
  attemptsUsed: number;
}
