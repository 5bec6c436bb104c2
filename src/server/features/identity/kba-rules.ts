import { kbaRules } from '../../../shared/kba.ts';
import type { KbaStatus } from './kba-repository.ts';

/**
 * The quiz rules as pure functions of the attempts and the clock, so every
 * provider obeys the same ones and they are tested without a database
 * (docs/decisions/085-knowledge-based-authentication.md).
 */

/** Answers sent in the last moment still count if they arrive this soon after the deadline (transit). */
export const answerGraceMs = 5_000;

export interface AttemptFacts {
  attempt: number;
  status: KbaStatus;
  expiresAt: Date;
  finishedAt: Date | null;
}

/** An open quiz whose time (and grace) has run out is failed, whether or not anyone noticed yet. */
export function isTimedOut(a: Pick<AttemptFacts, 'status' | 'expiresAt'>, now: Date): boolean {
  return a.status === 'open' && now.getTime() > a.expiresAt.getTime() + answerGraceMs;
}

/** Whether answers arriving `now` are in time. */
export function inTime(expiresAt: Date, now: Date): boolean {
  return now.getTime() <= expiresAt.getTime() + answerGraceMs;
}

export const passes = (correct: number) => correct >= kbaRules.passMark;

/** When the quiz may first be taken: `freshnessHours` before the session starts. */
export function opensAt(startsAt: Date, freshnessHours: number): Date {
  return new Date(startsAt.getTime() - freshnessHours * 3_600_000);
}

/** A pass counts for a session only if it happened within `freshnessHours` before the start. */
export function isFresh(passedAt: Date, startsAt: Date | null, freshnessHours: number): boolean {
  return !!startsAt && passedAt.getTime() >= opensAt(startsAt, freshnessHours).getTime();
}

/** How many questions of `next` were already asked in `previous`. */
export function repeatedQuestions(previous: string[], next: string[]): number {
  const seen = new Set(previous);
  return next.filter((id) => seen.has(id)).length;
}

export type Standing<A extends AttemptFacts> =
  | { state: 'in_progress'; open: A; attemptsLeft: number }
  | { state: 'passed'; passed: A }
  | { state: 'locked'; lockedUntil: Date; last: A }
  | { state: 'failed'; attemptsLeft: number; last: A }
  | { state: 'ready'; attemptsLeft: number; stalePass: A | null };

/**
 * Where the signer stands. Attempts are counted in rounds: a failure is the
 * first of a round, a second failure ends it with a 24-hour lockout, after
 * which a new round of two begins; a pass ends the round too. A pass that is
 * not fresh for the session's start no longer counts ("asked again").
 */
export function standing<A extends AttemptFacts>(attempts: A[], now: Date, options: { startsAt: Date | null; freshnessHours: number }): Standing<A> {
  const ordered = [...attempts].sort((a, b) => a.attempt - b.attempt);
  let failures = 0;
  let lockedUntil: Date | null = null;
  let lastPass: A | null = null;
  let last: A | null = null;
  for (const a of ordered) {
    if (a.status === 'open' || a.status === 'checking') {
      if (!isTimedOut(a, now)) return { state: 'in_progress', open: a, attemptsLeft: kbaRules.attemptsPerRound - failures };
    }
    last = a;
    if (a.status === 'passed') {
      lastPass = a;
      failures = 0;
      continue;
    }
    // failed, or timed out while open
    failures++;
    if (failures >= kbaRules.attemptsPerRound) {
      const ended = a.finishedAt ?? a.expiresAt;
      lockedUntil = new Date(ended.getTime() + kbaRules.lockoutHours * 3_600_000);
      failures = 0;
    }
  }
  if (lastPass && last === lastPass && isFresh(lastPass.finishedAt ?? lastPass.expiresAt, options.startsAt, options.freshnessHours)) {
    return { state: 'passed', passed: lastPass };
  }
  if (lockedUntil && lockedUntil.getTime() > now.getTime() && last) return { state: 'locked', lockedUntil, last };
  const left = kbaRules.attemptsPerRound - failures;
  if (last && last.status !== 'passed' && failures > 0) return { state: 'failed', attemptsLeft: left, last };
  return { state: 'ready', attemptsLeft: left, stalePass: lastPass && last === lastPass ? lastPass : null };
}
