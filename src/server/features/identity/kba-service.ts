import { randomUUID } from 'node:crypto';
import { DomainError } from '../../errors.ts';
import {
  kbaLabels,
  kbaMessages,
  kbaRules,
  type CustomerKbaView,
  type KbaPerson,
  type NotaryKbaView,
} from '../../../shared/kba.ts';
import { formatInZone } from '../../../shared/time.ts';
import type { WaitingIdentity } from '../../../shared/on-demand.ts';
import { KbaProviderError, type KbaQuestion } from '../../adapters/kba/types.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import { writeAudit } from '../audit.ts';
import { authorise } from '../access/service.ts';
import { onKbaLockedOut } from '../notifications/events.ts';
import { actChanged } from '../act/service.ts';
import { inTime, isTimedOut, opensAt, passes, standing } from './kba-rules.ts';
import {
  bookingForKba,
  claimOpenAttempt,
  findKbaAttempt,
  finishAttempt,
  insertKbaAttempt,
  listKbaAttempts,
  releaseClaim,
  timedOutAttempts,
  customersKbaFacts,
  type KbaAttemptRow,
} from './kba-repository.ts';
import { customersVerified, latestVerified } from './repository.ts';

/**
 * Knowledge-based authentication before the session
 * (docs/decisions/085-knowledge-based-authentication.md). The provider asks
 * and marks; this service keeps the rules: credential analysis first, the
 * quiz open from KBA_FRESHNESS_HOURS before the start, two minutes enforced
 * here, 4 of 5 to pass, one retry, then 24 hours locked out and staff told.
 * The correct answers never leave the server and are deleted when the quiz
 * ends; the SSN digits go to the provider only; date of birth and address are
 * sealed (decision 023). Nothing personal is logged or audited.
 */
const personPurpose = (bookingId: string) => `kba-person:${bookingId}`;
const keyPurpose = (attemptId: string) => `kba-answer-key:${attemptId}`;

type StoredPerson = Omit<KbaPerson, 'ssnLast4'>;

function sealPerson(deps: Deps, bookingId: string, person: KbaPerson): string {
  const stored: StoredPerson = {
    firstName: person.firstName,
    lastName: person.lastName,
    dateOfBirth: person.dateOfBirth,
    street: person.street,
    city: person.city,
    state: person.state,
    zip: person.zip,
  };
  return deps.secrets.seal(JSON.stringify(stored), personPurpose(bookingId));
}

function openPerson(deps: Deps, row: KbaAttemptRow): StoredPerson {
  return JSON.parse(deps.secrets.openText(row.personSealed, personPurpose(row.bookingId))) as StoredPerson;
}

const standingOf = (deps: Deps, rows: KbaAttemptRow[], startsAt: Date | null) =>
  standing(rows, deps.now(), { startsAt, freshnessHours: deps.config.KBA_FRESHNESS_HOURS });

/** Records a quiz's failure and, when it ends a round, the lockout's staff email — in one transaction. */
async function recordFailure(tx: Tx, deps: Deps, row: KbaAttemptRow, startsAt: Date | null): Promise<void> {
  await writeAudit(tx, { actorType: 'customer', action: 'kba.failed', entityType: 'booking', entityId: row.bookingId, data: { attempt: row.attempt, reason: row.failureReason, correct: row.correctCount } });
  const now = standingOf(deps, await listKbaAttempts(tx, row.bookingId, row.participantId), startsAt);
  if (now.state === 'locked' && now.last.id === row.id) {
    deps.log.warn({ bookingId: row.bookingId, attempt: row.attempt }, 'identity questions failed twice; locked out, staff notified');
    await onKbaLockedOut(tx, deps, { bookingId: row.bookingId, attempt: row.attempt, lockedUntil: now.lockedUntil });
  }
}

/** Quizzes whose time ran out with no answer are failed (and may end a round). */
async function settleTimedOut(deps: Deps, bookingId: string, startsAt: Date | null): Promise<void> {
  const now = deps.now();
  const stale = await timedOutAttempts(deps.db, bookingId, now);
  for (const row of stale.filter((r) => isTimedOut(r, now))) {
    await deps.db.transaction(async (tx) => {
      const ended = await finishAttempt(tx, row.id, 'open', { status: 'failed', correctCount: null, failureReason: 'timeout', finishedAt: row.expiresAt });
      if (ended) await recordFailure(tx, deps, ended, startsAt);
    });
  }
}

async function loadBooking(deps: Deps, bookingId: string) {
  const booking = await bookingForKba(deps.db, bookingId);
  if (!booking) throw new DomainError('NOT_FOUND', 'Booking not found.');
  return booking;
}

function lockedMessage(lockedUntil: Date, timeZone: string): string {
  return `${kbaMessages.lockedOut(formatInZone(lockedUntil, timeZone).full)} ${kbaMessages.lockedOutReschedule}`;
}

/** Whose quizzes a link takes: the customer's (null) or the participant's own (decision 121). */
type Person = { id: string; name: string } | null;

function splitName(name: string): { firstName: string; lastName: string } {
  const at = name.indexOf(' ');
  return at < 0 ? { firstName: name, lastName: '' } : { firstName: name.slice(0, at), lastName: name.slice(at + 1) };
}

async function viewOf(deps: Deps, bookingId: string, person: Person): Promise<CustomerKbaView> {
  const booking = await loadBooking(deps, bookingId);
  await settleTimedOut(deps, bookingId, booking.startsAt);
  const rows = await listKbaAttempts(deps.db, bookingId, person?.id ?? null);
  const now = deps.now();
  const s = standingOf(deps, rows, booking.startsAt);
  // The score of the last quiz, if it was marked (a timed-out one has none).
  const last = rows.at(-1);
  const finished = last && last.correctCount !== null && (last.status === 'passed' || last.status === 'failed') ? last : undefined;
  const base: CustomerKbaView = {
    mode: deps.kba.mode,
    status: 'ready',
    message: null,
    attemptsLeft: kbaRules.attemptsPerRound,
    opensAt: booking.startsAt ? opensAt(booking.startsAt, deps.config.KBA_FRESHNESS_HOURS) : null,
    lockedUntil: null,
    passedAt: null,
    lastScore: finished ? { correct: finished.correctCount!, total: finished.questions.length || kbaRules.questions } : null,
    bookingName: person ? splitName(person.name) : { firstName: booking.firstName ?? '', lastName: booking.lastName ?? '' },
    quiz: null,
    timeZone: booking.timeZone,
  };
  if (s.state === 'passed') return { ...base, status: 'passed', passedAt: s.passed.finishedAt, message: kbaLabels.passed };
  if (booking.status !== 'confirmed') return { ...base, status: 'unavailable', message: kbaMessages.bookingNotOpen };
  if (!(await latestVerified(deps.db, bookingId, person?.id ?? null))) return { ...base, status: 'unavailable', message: kbaMessages.credentialFirst };
  if (s.state === 'in_progress') {
    const open = s.open;
    const answerSheet = deps.kba.answerSheet ? deps.kba.answerSheet({ ...openPerson(deps, open), ssnLast4: '' }) : null;
    return {
      ...base,
      status: 'in_progress',
      attemptsLeft: s.attemptsLeft,
      quiz: {
        attemptId: open.id,
        attempt: open.attempt,
        questions: open.questions.map((q) => ({ id: q.id, prompt: q.prompt, choices: q.choices })),
        secondsLeft: Math.max(0, Math.ceil((open.expiresAt.getTime() - now.getTime()) / 1000)),
        answerSheet,
      },
    };
  }
  if (s.state === 'locked') return { ...base, status: 'locked', attemptsLeft: 0, lockedUntil: s.lockedUntil, message: lockedMessage(s.lockedUntil, booking.timeZone) };
  if (base.opensAt && now < base.opensAt) {
    return { ...base, status: 'not_open_yet', attemptsLeft: s.attemptsLeft, message: kbaMessages.notOpenYet(formatInZone(base.opensAt, booking.timeZone).full) };
  }
  if (s.state === 'failed') {
    const reason = s.last.failureReason === 'timeout' ? ` ${kbaMessages.timeUp}` : '';
    return { ...base, status: 'failed', attemptsLeft: s.attemptsLeft, message: `${kbaLabels.notPassed}.${reason} ${kbaMessages.attemptsLeft(s.attemptsLeft)}` };
  }
  return { ...base, status: 'ready', attemptsLeft: s.attemptsLeft };
}

export async function customerKba(deps: Deps, token: string): Promise<CustomerKbaView> {
  const grant = await authorise(deps, { token }, 'view_identity');
  return viewOf(deps, grant.bookingId, grant.participant);
}

/** The signer's details go to the provider, which answers with a quiz; the clock starts now. */
export async function startKba(deps: Deps, token: string, person: KbaPerson): Promise<CustomerKbaView> {
  const grant = await authorise(deps, { token }, 'verify_identity');
  const { bookingId, participant } = grant;
  const view = await viewOf(deps, bookingId, participant);
  if (view.status === 'unavailable') throw new DomainError('PRECONDITION_FAILED', view.message!);
  if (view.status === 'passed') throw new DomainError('CONFLICT', kbaMessages.alreadyPassed);
  if (view.status === 'in_progress') throw new DomainError('CONFLICT', kbaMessages.inProgress);
  if (view.status === 'locked' || view.status === 'not_open_yet') throw new DomainError('PRECONDITION_FAILED', view.message!);

  const rows = await listKbaAttempts(deps.db, bookingId, participant?.id ?? null);
  const previous = rows.at(-1);
  const attempt = (previous?.attempt ?? 0) + 1;
  let started;
  try {
    started = await deps.kba.start(person, {
      attempt,
      previousQuestionIds: previous?.questions.map((q) => q.id) ?? [],
      previousReference: previous?.providerReference ?? null,
    });
    if (started.kind === 'quiz') assertWellFormed(started.questions);
  } catch (error) {
    if (!(error instanceof KbaProviderError)) throw error;
    deps.log.error({ bookingId, err: { name: error.name, message: error.message } }, 'identity questions: provider failed to start a quiz');
    throw new DomainError('SERVICE_UNAVAILABLE', kbaMessages.providerUnavailable);
  }

  const id = randomUUID();
  const now = deps.now();
  const booking = await loadBooking(deps, bookingId);
  await deps.db.transaction(async (tx) => {
    const row = await insertKbaAttempt(tx, {
      id,
      bookingId,
      participantId: participant?.id ?? null,
      attempt,
      provider: deps.kba.mode,
      providerReference: started.reference,
      status: started.kind === 'quiz' ? 'open' : 'failed',
      questions: started.kind === 'quiz' ? started.questions : [],
      answerKeySealed: started.kind === 'quiz' && started.answerKey !== null ? deps.secrets.seal(started.answerKey, keyPurpose(id)) : null,
      personSealed: sealPerson(deps, bookingId, person),
      expiresAt: new Date(now.getTime() + kbaRules.seconds * 1000),
      finishedAt: started.kind === 'quiz' ? null : now,
      failureReason: started.kind === 'quiz' ? null : 'provider',
    });
    // Two starts at once: the other one has the quiz.
    if (!row) throw new DomainError('CONFLICT', kbaMessages.inProgress);
    if (row.status === 'failed') await recordFailure(tx, deps, row, booking.startsAt);
    else await writeAudit(tx, { actorType: 'customer', action: 'kba.started', entityType: 'booking', entityId: bookingId, data: { attempt, provider: deps.kba.mode, participantId: participant?.id ?? null } });
  });
  return viewOf(deps, bookingId, participant);
}

function assertWellFormed(questions: KbaQuestion[]): void {
  const ids = new Set(questions.map((q) => q.id));
  if (questions.length !== kbaRules.questions || ids.size !== questions.length || questions.some((q) => q.choices.length < kbaRules.minChoices)) {
    throw new KbaProviderError(`the provider sent ${questions.length} questions; ${kbaRules.questions} with at least ${kbaRules.minChoices} choices each are required`);
  }
}

/**
 * The signer's answers. Refused with no change: a quiz of another booking, one
 * already answered (a replay, or a second browser a moment later), answers after
 * the time is up, an unknown choice or a question left out. Of two submissions
 * at once exactly one is marked (the claim is a single conditional UPDATE).
 */
export async function answerKba(deps: Deps, input: { token: string; attemptId: string; answers: { questionId: string; choiceId: string }[] }): Promise<CustomerKbaView> {
  const { bookingId, participant } = await authorise(deps, { token: input.token }, 'verify_identity');
  const row = await findKbaAttempt(deps.db, input.attemptId);
  // Only one's own quiz: the customer's link never answers a co-signer's, nor the reverse.
  if (!row || row.bookingId !== bookingId || row.participantId !== (participant?.id ?? null)) throw new DomainError('FORBIDDEN', kbaMessages.notYours);
  const booking = await loadBooking(deps, bookingId);
  if (row.status === 'failed' && row.failureReason === 'timeout') throw new DomainError('PRECONDITION_FAILED', kbaMessages.timeUp);
  if (row.status !== 'open') throw new DomainError('CONFLICT', kbaMessages.alreadyAnswered);
  if (!inTime(row.expiresAt, deps.now())) {
    await settleTimedOut(deps, bookingId, booking.startsAt);
    throw new DomainError('PRECONDITION_FAILED', kbaMessages.timeUp);
  }

  const chosen: Record<string, string> = {};
  for (const answer of input.answers) {
    const question = row.questions.find((q) => q.id === answer.questionId);
    if (!question || !question.choices.some((c) => c.id === answer.choiceId) || chosen[answer.questionId]) {
      throw new DomainError('BAD_REQUEST', kbaMessages.unknownChoice);
    }
    chosen[answer.questionId] = answer.choiceId;
  }
  if (row.questions.some((q) => !chosen[q.id])) throw new DomainError('BAD_REQUEST', kbaMessages.answerAll);

  const claimed = await claimOpenAttempt(deps.db, row.id);
  if (!claimed) throw new DomainError('CONFLICT', kbaMessages.alreadyAnswered);
  let outcome;
  try {
    const answerKey = claimed.answerKeySealed ? deps.secrets.openText(claimed.answerKeySealed, keyPurpose(claimed.id)) : null;
    outcome = await deps.kba.answer({ reference: claimed.providerReference, questions: claimed.questions, answerKey }, chosen);
  } catch (error) {
    await releaseClaim(deps.db, claimed.id);
    if (!(error instanceof KbaProviderError)) throw error;
    deps.log.error({ bookingId, err: { name: error.name, message: error.message } }, 'identity questions: provider failed to mark a quiz');
    throw new DomainError('SERVICE_UNAVAILABLE', kbaMessages.providerUnavailable);
  }

  const passed = !outcome.timedOut && passes(outcome.correct);
  await deps.db.transaction(async (tx) => {
    const ended = await finishAttempt(tx, claimed.id, 'checking', {
      status: passed ? 'passed' : 'failed',
      correctCount: outcome.correct,
      failureReason: passed ? null : outcome.timedOut ? 'timeout' : 'score',
      finishedAt: deps.now(),
      providerReference: outcome.reference,
    });
    if (!ended) throw new DomainError('CONFLICT', kbaMessages.alreadyAnswered);
    if (passed) await writeAudit(tx, { actorType: 'customer', action: 'kba.passed', entityType: 'booking', entityId: bookingId, data: { attempt: ended.attempt, correct: outcome.correct } });
    else await recordFailure(tx, deps, ended, booking.startsAt);
  });
  actChanged(deps, bookingId);
  return viewOf(deps, bookingId, participant);
}

// ---- For the notary, the act and the journal ----------------------------------------------

/** The KBA standing the notary sees and the act's precondition reads. */
export async function kbaForNotary(deps: Pick<Deps, 'now' | 'config'>, db: DbOrTx, bookingId: string, participantId: string | null = null): Promise<NotaryKbaView> {
  const booking = await bookingForKba(db, bookingId);
  const rows = await listKbaAttempts(db, bookingId, participantId);
  const s = standing(rows, deps.now(), { startsAt: booking?.startsAt ?? null, freshnessHours: deps.config.KBA_FRESHNESS_HOURS });
  const base: NotaryKbaView = { status: 'not_started', provider: null, passedOnAttempt: null, providerReference: null, passedAt: null, attemptsUsed: rows.length };
  if (s.state === 'passed') {
    return { ...base, status: 'passed', provider: s.passed.provider, passedOnAttempt: s.passed.attempt, providerReference: s.passed.providerReference, passedAt: s.passed.finishedAt };
  }
  if (s.state === 'in_progress') return { ...base, status: 'in_progress', provider: s.open.provider };
  if (s.state === 'locked') return { ...base, status: 'locked', provider: s.last.provider };
  if (s.state === 'failed') return { ...base, status: 'failed', provider: s.last.provider };
  if (s.stalePass) return { ...base, status: 'stale', provider: s.stalePass.provider, passedOnAttempt: s.stalePass.attempt, providerReference: s.stalePass.providerReference, passedAt: s.stalePass.finishedAt };
  return base;
}

/**
 * Where the customers of bookings in line stand with proving who they are
 * (the notary's list of waiting customers, issue 28): their ID verified, and
 * their identity questions by the same rules as `kbaForNotary` (a stale pass
 * counts as not started, a lockout as failed). Two statements for the whole
 * list, whatever its length.
 */
export async function customersIdentityInLine(
  deps: Pick<Deps, 'now' | 'config'>,
  db: DbOrTx,
  lines: { bookingId: string; startsAt: Date | null }[],
): Promise<Map<string, WaitingIdentity>> {
  const ids = lines.map((l) => l.bookingId);
  const [verified, attempts] = await Promise.all([customersVerified(db, ids), customersKbaFacts(db, ids)]);
  const attemptsOf = Map.groupBy(attempts, (a) => a.bookingId);
  const questionsOf = (line: { bookingId: string; startsAt: Date | null }): WaitingIdentity['questions'] => {
    const s = standing(
      attemptsOf.get(line.bookingId) ?? [],
      deps.now(),
      // In line, a customer has no start yet: accepted now, the session would start now.
      { startsAt: line.startsAt ?? deps.now(), freshnessHours: deps.config.KBA_FRESHNESS_HOURS },
    );
    if (s.state === 'passed') return 'passed';
    if (s.state === 'in_progress') return 'in_progress';
    if (s.state === 'locked' || s.state === 'failed') return 'failed';
    return 'not_started';
  };
  return new Map(lines.map((line) => [line.bookingId, { idVerified: verified.has(line.bookingId), questions: questionsOf(line) }]));
}

/** What the journal records of the KBA and the signer's address (opened from its sealed form). */
export async function kbaJournalFacts(
  deps: Deps,
  bookingId: string,
  participantId: string | null = null,
  db: DbOrTx = deps.db,
): Promise<{ address: string | null; kba: { provider: string; reference: string; attempt: number; passedAt: string; correct: number | null; total: number } | null }> {
  const rows = await listKbaAttempts(db, bookingId, participantId);
  const passed = [...rows].reverse().find((r) => r.status === 'passed');
  if (!passed) return { address: null, kba: null };
  const person = openPerson(deps, passed);
  return {
    address: `${person.street}, ${person.city}, ${person.state} ${person.zip}`,
    kba: {
      provider: passed.provider,
      reference: passed.providerReference,
      attempt: passed.attempt,
      passedAt: (passed.finishedAt ?? passed.createdAt).toISOString(),
      correct: passed.correctCount,
      total: passed.questions.length || kbaRules.questions,
    },
  };
}
