import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KbaPerson } from '../../../shared/kba.ts';
import { startIdologyStandIn, type IdologyStandIn } from '../../../../tests/helpers/idology.ts';
import { createIdologyKbaProvider, parseXml } from './idology.ts';
import { KbaProviderError } from './types.ts';

/** The IDology ExpectID IQ adapter against a local stand-in speaking its documented form/XML format. */
const person: KbaPerson = { firstName: 'Grace', lastName: 'Hopper', dateOfBirth: '1980-12-09', street: '1 Main St', city: 'Des Moines', state: 'IA', zip: '50309', ssnLast4: '6789' };

describe('IDology ExpectID IQ adapter', () => {
  let standIn: IdologyStandIn;
  beforeAll(async () => {
    standIn = await startIdologyStandIn();
  });
  afterAll(() => standIn.close());
  const provider = () => createIdologyKbaProvider({ username: 'notary-api', password: 'stand-in-secret', apiBase: standIn.url });

  it('starts: the person as form fields (SSN last 4 and DOB split as documented), questions back with None of the above last', async () => {
    const started = await provider().start(person, { attempt: 1, previousQuestionIds: [], previousReference: null });
    expect(started.kind).toBe('quiz');
    if (started.kind !== 'quiz') return;
    expect(started.reference).toMatch(/^\d+$/);
    expect(started.answerKey).toBeNull();
    expect(started.questions).toHaveLength(5);
    expect(started.questions[0]).toMatchObject({ id: 'street.number', type: 'street.number', prompt: expect.stringContaining('STILLWOOD DR') });
    expect(started.questions[0]!.choices.map((c) => c.label)).toEqual(['1333', '1212', '8629', '518', '1811', 'None of the above']);
    expect(started.questions[4]!.choices[0]!.label).toBe('JOAN SMITH & ASSOC'); // entities decoded
    const sent = standIn.requests.at(-1)!;
    expect(sent).toMatchObject({ path: '/idiq.svc', contentType: 'application/x-www-form-urlencoded' });
    expect(sent.fields).toMatchObject({ username: 'notary-api', firstName: 'Grace', lastName: 'Hopper', address: '1 Main St', city: 'Des Moines', state: 'IA', zip: '50309', ssnLast4: '6789', dobMonth: '12', dobDay: '09', dobYear: '1980' });
  });

  it('answers: the chosen texts with their types; IDology marks them (5, then 3 correct)', async () => {
    const started = await provider().start(person, { attempt: 1, previousQuestionIds: [], previousReference: null });
    if (started.kind !== 'quiz') throw new Error('no quiz');
    const first = Object.fromEntries(started.questions.map((q) => [q.id, q.choices[0]!.id]));
    expect(await provider().answer(started, first)).toEqual({ correct: 5, total: 5, reference: started.reference });
    const sent = standIn.requests.at(-1)!;
    expect(sent.path).toBe('/idliveq-answers.svc');
    expect(sent.fields).toMatchObject({ idNumber: started.reference, question1Type: 'street.number', question1Answer: '1333', question5Answer: 'JOAN SMITH & ASSOC' });
    const twoWrong = { ...first, 'street.number': 'c6', county: 'c2' };
    expect((await provider().answer(started, twoWrong)).correct).toBe(3);
  });

  it('no records to ask about → declined; an <error>, bad credentials, a dead endpoint → a provider error (no stack, no SSN in the message)', async () => {
    expect((await provider().start({ ...person, lastName: 'Nobody' }, { attempt: 1, previousQuestionIds: [], previousReference: null })).kind).toBe('declined');
    await expect(provider().start({ ...person, lastName: 'Broken' }, { attempt: 1, previousQuestionIds: [], previousReference: null })).rejects.toThrow(KbaProviderError);
    const wrong = createIdologyKbaProvider({ username: 'notary-api', password: 'nope', apiBase: standIn.url });
    await expect(wrong.start(person, { attempt: 1, previousQuestionIds: [], previousReference: null })).rejects.toThrow(/Invalid username/);
    const dead = createIdologyKbaProvider({ username: 'a', password: 'b', apiBase: 'http://127.0.0.1:9', timeoutMs: 2000 });
    const error = await dead.start(person, { attempt: 1, previousQuestionIds: [], previousReference: null }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(KbaProviderError);
    expect(String((error as Error).message)).not.toContain('6789');
  });

  it('reads XML with declarations, CDATA and entities, and refuses a broken document', () => {
    const doc = parseXml('<?xml version="1.0"?><response><a>x &amp; y &#65;</a><b><![CDATA[<raw>]]></b><c/></response>');
    const response = doc.children[0]!;
    expect(response.children.map((c) => [c.name, c.text])).toEqual([['a', 'x & y A'], ['b', '<raw>'], ['c', '']]);
    expect(() => parseXml('<response><a></response>')).toThrow(KbaProviderError);
  });
});
