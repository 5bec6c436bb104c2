import { describe, expect, it } from 'vitest';
import { kbaRules, noneOfTheAbove, type KbaPerson } from '../../../shared/kba.ts';
import { repeatedQuestions } from '../../features/identity/kba-rules.ts';
import { createTestKbaProvider, testProfile } from './test-provider.ts';
import type { KbaQuestion } from './types.ts';

/** The TEST MODE provider: deterministic profile, well-formed quizzes, fresh retries, documented pass and fail. */
const grace: KbaPerson = { firstName: 'Grace', lastName: 'Hopper', dateOfBirth: '1980-12-09', street: '1 Main St', city: 'Des Moines', state: 'IA', zip: '50309', ssnLast4: '1234' };
const provider = createTestKbaProvider();

/** Answers as a tester would from the answer sheet: the profile's facts. */
function answersFromSheet(person: KbaPerson, questions: KbaQuestion[]) {
  const facts = provider.answerSheet!(person).facts.map((f) => f.value).join(' | ');
  return Object.fromEntries(
    questions.map((q) => {
      const right = q.choices.find((c) => c.label !== noneOfTheAbove && facts.includes(c.label)) ?? q.choices.find((c) => c.label === noneOfTheAbove)!;
      return [q.id, right.id];
    }),
  );
}

async function quiz(person: KbaPerson, attempt = 1, previousQuestionIds: string[] = []) {
  const started = await provider.start(person, { attempt, previousQuestionIds, previousReference: null });
  if (started.kind !== 'quiz') throw new Error('declined');
  return started;
}

describe('TEST MODE KBA provider', () => {
  it('the same details give the same fictional record; other details another', () => {
    expect(testProfile(grace)).toEqual(testProfile({ ...grace, ssnLast4: '9999', street: 'elsewhere' }));
    expect(testProfile({ ...grace, dateOfBirth: '1981-01-01' })).not.toEqual(testProfile(grace));
  });

  it('five questions from at least two sources, each with at least five choices ending with None of the above', async () => {
    const q = await quiz(grace);
    expect(q.questions).toHaveLength(kbaRules.questions);
    expect(new Set(q.questions.map((x) => x.id)).size).toBe(5);
    for (const question of q.questions) {
      expect(question.choices.length).toBeGreaterThanOrEqual(kbaRules.minChoices);
      expect(question.choices.at(-1)!.label).toBe(noneOfTheAbove);
      expect(new Set(question.choices.map((c) => c.label)).size).toBe(question.choices.length);
    }
    expect(provider.answerSheet!(grace).sources.length).toBeGreaterThanOrEqual(2);
    // The questions shown carry no answer: the key is separate and stays on the server.
    expect(JSON.stringify(q.questions)).not.toContain('correct');
  });

  it('the answer sheet passes, answers against it fail', async () => {
    const q = await quiz(grace);
    const right = answersFromSheet(grace, q.questions);
    expect(await provider.answer(q, right)).toMatchObject({ correct: 5, total: 5, reference: q.reference });
    const wrong = Object.fromEntries(q.questions.map((x) => [x.id, x.choices.find((c) => c.id !== right[x.id])!.id]));
    expect((await provider.answer(q, wrong)).correct).toBe(0);
  });

  it('the last name KbaFail always fails, even with the sheet', async () => {
    const person = { ...grace, lastName: 'KbaFail' };
    const q = await quiz(person);
    expect((await provider.answer(q, answersFromSheet(person, q.questions))).correct).toBe(0);
  });

  it('a retry is a fresh set: at most two questions of the first again', async () => {
    const first = await quiz(grace, 1);
    const retry = await quiz(grace, 2, first.questions.map((x) => x.id));
    expect(repeatedQuestions(first.questions.map((x) => x.id), retry.questions.map((x) => x.id))).toBeLessThanOrEqual(kbaRules.maxRepeated);
  });
});
