import { describe, expect, it } from 'vitest';
import { kbaRules } from '../../../shared/kba.ts';
import { answerGraceMs, inTime, isFresh, passes, repeatedQuestions, standing, type AttemptFacts } from './kba-rules.ts';

/** The quiz rules without a database: timer, pass mark, rounds and lockout, freshness. */
const t0 = new Date('2027-03-10T15:00:00Z');
const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);
const startsAt = at(6 * 60); // the session, six hours after t0
const options = { startsAt, freshnessHours: 24 };

function attempt(n: number, status: AttemptFacts['status'], startedMinutes: number, finishedMinutes: number | null = startedMinutes + 1): AttemptFacts {
  return { attempt: n, status, expiresAt: at(startedMinutes + kbaRules.seconds / 60), finishedAt: finishedMinutes === null ? null : at(finishedMinutes) };
}

describe('identity question rules', () => {
  it('the clock: answers count until the deadline plus a few seconds of transit, not after', () => {
    const deadline = at(2);
    expect(inTime(deadline, deadline)).toBe(true);
    expect(inTime(deadline, new Date(deadline.getTime() + answerGraceMs))).toBe(true);
    expect(inTime(deadline, new Date(deadline.getTime() + answerGraceMs + 1))).toBe(false);
  });

  it('passes with 4 or 5 of 5 correct, not 3', () => {
    expect([0, 1, 2, 3, 4, 5].map(passes)).toEqual([false, false, false, false, true, true]);
  });

  it('no attempts: ready with two attempts', () => {
    expect(standing([], t0, options)).toEqual({ state: 'ready', attemptsLeft: 2, stalePass: null });
  });

  it('an open quiz is in progress until its time runs out, then it counts as a failure', () => {
    const open = attempt(1, 'open', 0, null);
    expect(standing([open], at(1), options)).toMatchObject({ state: 'in_progress', attemptsLeft: 2 });
    expect(standing([open], at(3), options)).toMatchObject({ state: 'failed', attemptsLeft: 1 });
  });

  it('one failure leaves one retry; a pass on the retry passes', () => {
    const failed = attempt(1, 'failed', 0);
    expect(standing([failed], at(2), options)).toMatchObject({ state: 'failed', attemptsLeft: 1 });
    const passed = attempt(2, 'passed', 3);
    expect(standing([failed, passed], at(5), options)).toMatchObject({ state: 'passed', passed });
  });

  it('two failures lock the signer out for 24 hours from the second; then a new round of two', () => {
    const rows = [attempt(1, 'failed', 0), attempt(2, 'failed', 3, 4)];
    const locked = standing(rows, at(5), options);
    expect(locked).toMatchObject({ state: 'locked', lockedUntil: new Date(at(4).getTime() + 24 * 3_600_000) });
    expect(standing(rows, at(4 + 24 * 60 - 1), options).state).toBe('locked');
    expect(standing(rows, at(4 + 24 * 60 + 1), options)).toMatchObject({ state: 'ready', attemptsLeft: 2 });
    // A third failure after the lockout leaves one more try, a fourth locks again.
    const more = [...rows, attempt(3, 'failed', 24 * 60 + 10)];
    expect(standing(more, at(24 * 60 + 12), options)).toMatchObject({ state: 'failed', attemptsLeft: 1 });
    expect(standing([...more, attempt(4, 'failed', 24 * 60 + 20)], at(24 * 60 + 22), options).state).toBe('locked');
  });

  it('fresh within 24 hours before the start; a pass from earlier is asked again', () => {
    expect(isFresh(at(-18 * 60), startsAt, 24)).toBe(true);
    expect(isFresh(new Date(startsAt.getTime() - 24 * 3_600_000 - 1), startsAt, 24)).toBe(false);
    expect(isFresh(at(0), null, 24)).toBe(false);
    const early = attempt(1, 'passed', -17 * 60); // 23 hours before the start
    // The session moved a day later: the pass is stale, the signer is ready to answer again.
    const moved = { startsAt: new Date(startsAt.getTime() + 24 * 3_600_000), freshnessHours: 24 };
    expect(standing([early], at(7 * 60), options).state).toBe('passed');
    expect(standing([early], at(7 * 60), moved)).toMatchObject({ state: 'ready', attemptsLeft: 2, stalePass: early });
    // Configurable: 48 hours keeps it.
    expect(standing([early], at(7 * 60), { ...moved, freshnessHours: 48 }).state).toBe('passed');
  });

  it('counts the questions a retry repeats', () => {
    expect(repeatedQuestions(['a', 'b', 'c', 'd', 'e'], ['a', 'f', 'g', 'h', 'b'])).toBe(2);
  });
});
