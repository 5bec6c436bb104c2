import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, bookings, identityVerifications, kbaAttempts, outbox } from '../../src/server/db/schema.ts';
import { identityProofingStatus } from '../../src/server/features/identity/service.ts';
import { identityMessages } from '../../src/shared/notarial-act.ts';
import { kbaLabels, kbaMessages, type CustomerKbaView, type KbaPerson } from '../../src/shared/kba.ts';
import { startTestApp, type TestServer } from '../helpers/app.ts';
import { bookableSlot, bookingIn } from '../helpers/bookings.ts';
import { dbKinds } from '../helpers/db.ts';
import { paymentClock } from '../helpers/payments.ts';
import { createStaffUser, trpcHttp, type TestStaffUser } from '../helpers/staff.ts';

/**
 * Identity questions (KBA) through the real HTTP surface with the TEST MODE
 * provider, on both databases: pass, fail and retry with a fresh set, two
 * failures → locked out with staff emailed, freshness, two browsers answering
 * at once, and hostile input refused with a clear message and no change.
 */
/** A row's text without its random ids, which may hold the SSN's four digits by chance (one UUID in about 2,000 does). */
const withoutIds = (json: string) => json.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<id>');
const person: KbaPerson = { firstName: 'Grace', lastName: 'Hopper', dateOfBirth: '1980-12-09', street: '17 Quarry Hollow Rd', city: 'Marion', state: 'IA', zip: '50309', ssnLast4: '6789' };

describe.each(dbKinds)('identity questions on %s', (kind) => {
  let app: TestServer;
  let clock: Date;
  let notary: TestStaffUser;

  beforeAll(async () => {
    app = await startTestApp(kind, { BOOKING_SLOT_CAPACITY: '100' });
    clock = paymentClock;
    app.deps.now = () => clock;
    notary = await createStaffUser(app.deps, { role: 'notary', name: 'Nora Notary' });
  });
  afterAll(() => app.close());

  const call = async <T = CustomerKbaView>(route: string, input: unknown, type: 'query' | 'mutation' = 'mutation', cookie?: string) => {
    const res = await trpcHttp(app.url, route, { input, type, cookie, headers: { origin: app.url } });
    return { status: res.status, data: res.body.result?.data.json as T, message: res.body.error?.json.message };
  };
  const view = (token: string) => call('manageAct.kba', { token }, 'query');
  const start = (token: string, details: Partial<KbaPerson> = {}) => call('manageAct.startKba', { token, person: { ...person, ...details } });
  const answer = (token: string, attemptId: string, answers: { questionId: string; choiceId: string }[]) => call('manageAct.answerKba', { token, attemptId, answers });

  /** A paid booking two days ahead, credential analysis verified, the clock 2 hours before the start. */
  async function readyBooking() {
    clock = paymentClock;
    const startsAt = bookableSlot(clock);
    const b = await bookingIn(app.deps, 'confirmed', { startsAt });
    await app.deps.db.update(bookings).set({ notaryId: notary.id }).where(eq(bookings.id, b.bookingId));
    await app.deps.db.insert(identityVerifications).values({
      bookingId: b.bookingId,
      provider: 'test',
      providerSessionId: `vs_test_${randomUUID().replace(/-/g, '')}`,
      attempt: 1,
      status: 'verified',
      documentType: 'driving_license',
      issuingState: 'IA',
      documentNumberLast4: '4821',
      expiresOn: '2031-01-01',
      selfieMatch: true,
    });
    clock = new Date(startsAt.getTime() - 2 * 3_600_000);
    return { ...b, token: b.manageToken!, startsAt };
  }

  /** The right choices, read from the sealed answer key (what only the server holds). */
  async function key(attemptId: string): Promise<Record<string, string>> {
    const [row] = await app.deps.db.select().from(kbaAttempts).where(eq(kbaAttempts.id, attemptId));
    return (JSON.parse(app.deps.secrets.openText(row!.answerKeySealed!, `kba-answer-key:${attemptId}`)) as { correct: Record<string, string> }).correct;
  }
  const rightAnswers = async (quiz: NonNullable<CustomerKbaView['quiz']>, wrong = 0) => {
    const correct = await key(quiz.attemptId);
    return quiz.questions.map((q, i) => ({ questionId: q.id, choiceId: i < wrong ? q.choices.find((c) => c.id !== correct[q.id])!.id : correct[q.id]! }));
  };
  const attempts = async (bookingId: string) => app.deps.db.select().from(kbaAttempts).where(eq(kbaAttempts.bookingId, bookingId)).orderBy(kbaAttempts.attempt);

  it('opens after credential analysis and within 24 hours of the start; a pass is recorded without the SSN, details sealed, the key deleted', async () => {
    clock = paymentClock;
    const b = await bookingIn(app.deps, 'confirmed', { startsAt: bookableSlot(clock) });
    expect((await view(b.manageToken!)).data).toMatchObject({ status: 'unavailable', message: kbaMessages.credentialFirst, mode: 'test' });
    expect(await start(b.manageToken!)).toMatchObject({ status: 412, message: kbaMessages.credentialFirst });

    const r = await readyBooking();
    clock = new Date(r.startsAt.getTime() - 30 * 3_600_000);
    const early = await view(r.token);
    expect(early.data.status).toBe('not_open_yet');
    expect((await start(r.token)).status).toBe(412);
    clock = new Date(r.startsAt.getTime() - 2 * 3_600_000);

    const started = await start(r.token);
    expect(started.status).toBe(200);
    const quiz = started.data.quiz!;
    expect(started.data).toMatchObject({ status: 'in_progress', attemptsLeft: 2 });
    expect(quiz.questions).toHaveLength(5);
    expect(quiz.secondsLeft).toBe(120);
    expect(quiz.answerSheet!.sources.length).toBeGreaterThanOrEqual(2);
    // The browser gets the questions and choices, never which one is right.
    const correct = await key(quiz.attemptId);
    expect(JSON.stringify(started.data)).not.toContain('correct');
    expect(Object.keys(correct)).toHaveLength(5);

    const [row] = await attempts(r.bookingId);
    expect(row!.personSealed).toMatch(/^sb1\./);
    const stored = withoutIds(JSON.stringify(row));
    for (const secret of ['6789', '1980-12-09', 'Quarry Hollow']) expect(stored).not.toContain(secret);

    const done = await answer(r.token, quiz.attemptId, await rightAnswers(quiz, 1));
    expect(done.data).toMatchObject({ status: 'passed', message: kbaLabels.passed, lastScore: { correct: 4, total: 5 }, quiz: null });
    const [after] = await attempts(r.bookingId);
    expect(after).toMatchObject({ status: 'passed', correctCount: 4, answerKeySealed: null });
    const audit = await app.deps.db.select().from(auditLog).where(eq(auditLog.entityId, r.bookingId));
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['kba.started', 'kba.passed']));
    expect(withoutIds(JSON.stringify(audit))).not.toMatch(/6789|1980-12-09|Quarry Hollow/);

    // The notary sees it; the act now waits only for the notary's own confirmation.
    const seen = await call<{ kba: { status: string; passedOnAttempt: number; providerReference: string }; startBlocker: string }>('act.identity', { bookingId: r.bookingId }, 'query', await notary.sessionCookie());
    expect(seen.data.kba).toMatchObject({ status: 'passed', passedOnAttempt: 1, providerReference: after!.providerReference });
    expect(seen.data.startBlocker).toBe(identityMessages.notConfirmed);
    expect(await start(r.token)).toMatchObject({ status: 409, message: kbaMessages.alreadyPassed });

    // Fresh: moved two days later, the pass no longer counts and the signer is asked again.
    await app.deps.db.update(bookings).set({ startsAt: new Date(r.startsAt.getTime() + 2 * 86_400_000) }).where(eq(bookings.id, r.bookingId));
    clock = new Date(r.startsAt.getTime() + 2 * 86_400_000 - 3_600_000);
    expect((await view(r.token)).data.status).toBe('ready');
    expect((await identityProofingStatus(app.deps, r.bookingId)).blocker).toBe(kbaMessages.notaryPending);
  });

  it('3 of 5 fails; the retry is a fresh set and passes; two failures lock out for 24 hours with staff emailed', async () => {
    const r = await readyBooking();
    const first = (await start(r.token)).data.quiz!;
    const failed = await answer(r.token, first.attemptId, await rightAnswers(first, 2));
    expect(failed.data).toMatchObject({ status: 'failed', attemptsLeft: 1, lastScore: { correct: 3, total: 5 } });
    expect(failed.data.message).toBe(`${kbaLabels.notPassed}. ${kbaMessages.attemptsLeft(1)}`);
    const retry = (await start(r.token)).data.quiz!;
    const repeated = retry.questions.filter((q) => first.questions.some((f) => f.id === q.id)).length;
    expect(repeated).toBeLessThanOrEqual(2);
    expect((await answer(r.token, retry.attemptId, await rightAnswers(retry))).data.status).toBe('passed');

    const l = await readyBooking();
    const one = (await start(l.token)).data.quiz!;
    await answer(l.token, one.attemptId, await rightAnswers(one, 5));
    const two = (await start(l.token)).data.quiz!;
    const locked = await answer(l.token, two.attemptId, await rightAnswers(two, 3));
    expect(locked.data).toMatchObject({ status: 'locked', attemptsLeft: 0 });
    expect(locked.data.message).toMatch(/^You can try again after \w+ \d{1,2}, \d{4} at \d{1,2}:\d{2} (AM|PM) \(.+\)\. Our staff have been told and will contact you to move your appointment, or call us at .+\.$/);
    const lockedUntil = new Date(locked.data.lockedUntil!);
    expect(lockedUntil.getTime() - clock.getTime()).toBe(24 * 3_600_000);
    expect((await start(l.token)).message).toBe(locked.data.message);
    const mail = await app.deps.db.select().from(outbox).where(eq(outbox.dedupeKey, `kba-locked:${l.bookingId}:2`));
    expect(mail).toHaveLength(1);
    expect(withoutIds(JSON.stringify(mail[0]!.payload))).not.toMatch(/6789|1980-12-09|Quarry Hollow/);
    // After 24 hours (the booking moved), a new round of two.
    await app.deps.db.update(bookings).set({ startsAt: new Date(l.startsAt.getTime() + 2 * 86_400_000) }).where(eq(bookings.id, l.bookingId));
    clock = new Date(lockedUntil.getTime() + 86_400_000);
    expect((await view(l.token)).data).toMatchObject({ status: 'ready', attemptsLeft: 2 });
  });

  it('the last name KbaFail always fails; a quiz left unanswered fails when its two minutes are up', async () => {
    const r = await readyBooking();
    const quiz = (await start(r.token, { lastName: 'KbaFail' })).data.quiz!;
    expect((await answer(r.token, quiz.attemptId, await rightAnswers(quiz))).data).toMatchObject({ status: 'failed', lastScore: { correct: 0 } });
    await start(r.token);
    clock = new Date(clock.getTime() + 126_000);
    const timedOut = await view(r.token);
    expect(timedOut.data).toMatchObject({ status: 'locked' });
    const rows = await attempts(r.bookingId);
    expect(rows[1]).toMatchObject({ status: 'failed', failureReason: 'timeout', answerKeySealed: null });
  });

  it('two browsers answer the same quiz at once: one outcome', async () => {
    const r = await readyBooking();
    const quiz = (await start(r.token)).data.quiz!;
    const right = await rightAnswers(quiz);
    const wrong = await rightAnswers(quiz, 5);
    const results = await Promise.all([answer(r.token, quiz.attemptId, right), answer(r.token, quiz.attemptId, wrong)]);
    expect(results.map((x) => x.status).sort()).toEqual([200, 409]);
    expect(results.find((x) => x.status === 409)!.message).toBe(kbaMessages.alreadyAnswered);
    const rows = await attempts(r.bookingId);
    expect(rows).toHaveLength(1);
    const outcome = results.find((x) => x.status === 200)!.data.status;
    expect(rows[0]!.status).toBe(outcome);
    const audit = await app.deps.db.select().from(auditLog).where(and(eq(auditLog.entityId, r.bookingId)));
    expect(audit.filter((a) => a.action === 'kba.passed' || a.action === 'kba.failed')).toHaveLength(1);
  });

  it('hostile input: another signer’s quiz, a replay, answers after the time, an unknown choice, control characters — refused, nothing changes', async () => {
    const a = await readyBooking();
    const b = await readyBooking();
    const quizA = (await start(a.token)).data.quiz!;
    const answersA = await rightAnswers(quizA);
    const before = JSON.stringify(await attempts(a.bookingId));

    expect(await answer(b.token, quizA.attemptId, answersA)).toMatchObject({ status: 403, message: kbaMessages.notYours });
    expect(await answer(a.token, quizA.attemptId, [{ ...answersA[0]!, choiceId: 'c99' }, ...answersA.slice(1)])).toMatchObject({ status: 400, message: kbaMessages.unknownChoice });
    expect(await answer(a.token, quizA.attemptId, [{ ...answersA[0]!, questionId: 'not-asked' }, ...answersA.slice(1)])).toMatchObject({ status: 400, message: kbaMessages.unknownChoice });
    expect(await answer(a.token, quizA.attemptId, answersA.slice(1))).toMatchObject({ status: 400, message: kbaMessages.answerAll });
    expect(await answer(a.token, quizA.attemptId, [{ questionId: 'x', choiceId: '<script>' }])).toMatchObject({ status: 400 });
    expect(JSON.stringify(await attempts(a.bookingId))).toBe(before);

    for (const [field, value, message] of [
      ['street', '17 Quarry Hollow Rd\r\nBcc: x@example.com', 'Street address cannot contain line breaks or control characters.'],
      ['lastName', 'Hopper\u202e', 'Last name cannot contain line breaks or control characters.'],
      ['city', 'Des\u0000Moines', 'City cannot contain line breaks or control characters.'],
      ['ssnLast4', '12a4', 'Enter the last 4 digits of your Social Security number.'],
      ['dateOfBirth', '2020-01-01', 'Enter your date of birth (you must be 18 or older).'],
    ] as const) {
      const refused = await start(b.token, { [field]: value });
      expect(refused.status, field).toBe(400);
      expect(refused.message, field).toContain(message);
    }
    expect(await attempts(b.bookingId)).toHaveLength(0);

    // Replay: the same answers again after they were marked.
    const passed = await answer(a.token, quizA.attemptId, answersA);
    expect(passed.data.status).toBe('passed');
    expect(await answer(a.token, quizA.attemptId, answersA)).toMatchObject({ status: 409, message: kbaMessages.alreadyAnswered });
    expect((await attempts(a.bookingId))[0]!.status).toBe('passed');

    // After the time (and its few seconds of grace): refused, the quiz failed by its clock.
    const quizB = (await start(b.token)).data.quiz!;
    const answersB = await rightAnswers(quizB);
    clock = new Date(clock.getTime() + 126_000);
    expect(await answer(b.token, quizB.attemptId, answersB)).toMatchObject({ status: 412, message: kbaMessages.timeUp });
    expect(await answer(b.token, quizB.attemptId, answersB)).toMatchObject({ status: 412, message: kbaMessages.timeUp });
    expect((await attempts(b.bookingId))[0]).toMatchObject({ status: 'failed', failureReason: 'timeout', correctCount: null });
  });
});
