import type { KbaAnswerSheet, KbaPerson } from '../../../shared/kba.ts';

/**
 * The one seam to a knowledge-based authentication service: `start` takes the
 * signer's details and returns a quiz; `answer` takes the chosen answers and
 * returns how many were right with the provider's reference. Chosen once at
 * start-up: IDology ExpectID IQ when its credentials are set, otherwise the
 * built-in TEST MODE provider (docs/decisions/085-knowledge-based-authentication.md).
 * The service, not the provider, applies the pass mark, the timer, retries
 * and the lockout, so every provider obeys the same rules.
 */
export interface KbaQuestion {
  /** Stable per kind of question (a retry's repeats are counted by it). */
  id: string;
  /** The provider's question type (IDology sends it back with the answer). */
  type: string;
  prompt: string;
  /** At least five, the last "None of the above". */
  choices: { id: string; label: string }[];
}

export interface KbaStartContext {
  /** 1 for the first quiz of the booking, 2 for the retry… */
  attempt: number;
  /** The question ids of the quiz before (a retry repeats at most two). */
  previousQuestionIds: string[];
  /** The previous quiz's provider reference (IDology continues the same transaction). */
  previousReference: string | null;
}

export type KbaStarted =
  | {
      kind: 'quiz';
      reference: string;
      questions: KbaQuestion[];
      /** Provider-private state needed to mark the answers (sealed at rest, deleted after). */
      answerKey: string | null;
    }
  /** The provider found no records to ask about: the attempt fails. */
  | { kind: 'declined'; reference: string };

export interface KbaOutcome {
  correct: number;
  total: number;
  reference: string;
  /** The provider itself says the quiz ran out of time. */
  timedOut?: boolean;
}

export interface KbaProvider {
  mode: 'test' | 'idology';
  start(person: KbaPerson, context: KbaStartContext): Promise<KbaStarted>;
  /** `answers`: question id → chosen choice id (already checked to be among the choices). */
  answer(quiz: { reference: string; questions: KbaQuestion[]; answerKey: string | null }, answers: Record<string, string>): Promise<KbaOutcome>;
  /** TEST MODE only: the fictional public record a tester answers from. */
  answerSheet?(person: KbaPerson): KbaAnswerSheet;
}

/** A provider that did not answer in time or answered nonsense: the quiz is not charged to the signer. */
export class KbaProviderError extends Error {
  override name = 'KbaProviderError';
}
