import type { DbOrTx, Tx } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import { DomainError } from '../../errors.ts';
import { actStageMessages, actTexts, type ActStage } from '../../../shared/act-stages.ts';
import type { SessionOutcome } from '../../../shared/session.ts';
import { controlCharacters } from '../../../shared/fields.ts';
import { writeAudit, type ActorType } from '../audit.ts';
import * as repo from './repository.ts';
import { participantRemovedMessage } from '../access/service.ts';
import { finishRefusals, refusalOf, stageOf, type ActFacts, type ActTransition, type StageFacts, type TransitionInput } from './stages.ts';

/**
 * The one home of the act's state (docs/decisions/073-act-state-machine.md).
 * Every change to the act — starting the recording, confirming identity, the
 * signer's consent and location, the oath, adopting a signature, sealing,
 * finishing — goes through `takeTransition`: under the booking's row lock it
 * reads the facts, asks the transition's named guard (stages.ts), makes the
 * change, and writes `act.<transition>` with the stages before and after to
 * the act's audit trail. Repeating a transition that changes nothing is
 * allowed where the caller says so (idempotent). After the commit,
 * `actChanged` tells both participants (the room's `session:updated`): the
 * only bus, replacing the session's notifier registry and the second
 * "session events" bus.
 */

export { actStages, actStageLabels } from '../../../shared/act-stages.ts';
export type { ActFacts, ActTransition } from './stages.ts';

/** What the stage and finishing read: every fact but the identity questions' standing (which needs the clock and configuration). */
async function stageFacts(db: DbOrTx, bookingId: string): Promise<StageFacts> {
  const facts = await repo.loadFacts(db, bookingId);
  if (!facts) throw new DomainError('NOT_FOUND', 'Booking not found.');
  return facts;
}

/** Every fact the guards read, the identity questions (KBA, passed within KBA_FRESHNESS_HOURS before the start; decision 085) included. */
export async function actFacts(deps: Pick<Deps, 'config'>, db: DbOrTx, bookingId: string): Promise<ActFacts> {
  const facts = await repo.loadActFacts(db, bookingId, deps.config.KBA_FRESHNESS_HOURS);
  if (!facts) throw new DomainError('NOT_FOUND', 'Booking not found.');
  return { ...facts.stage, kbaPassed: facts.kbaPassed };
}

export async function actStage(db: DbOrTx, bookingId: string): Promise<{ stage: ActStage; facts: StageFacts }> {
  const facts = await stageFacts(db, bookingId);
  return { stage: stageOf(facts), facts };
}

/** Why finishing with `outcome` is refused now (every reason; empty when allowed). */
export async function finishRefusalsFor(db: DbOrTx, bookingId: string, outcome: SessionOutcome): Promise<string[]> {
  return finishRefusals(await stageFacts(db, bookingId), outcome);
}

export interface TransitionActor {
  type: ActorType;
  id?: string | null;
}

/**
 * Takes `transition` inside `tx`: locks the booking, refuses with the guard's
 * message (412; 409 once the act has ended), runs `change`, audits. `change`
 * answers whether it changed anything; a repeat that did not writes no audit.
 */
export async function takeTransition<T>(
  deps: Pick<Deps, 'config'>,
  tx: Tx,
  args: {
    bookingId: string;
    transition: ActTransition;
    actor: TransitionActor;
    input?: TransitionInput;
    data?: Record<string, unknown>;
    /**
     * The co-signer or witness taking a signer's step (their own fields, consent,
     * oath; decision 123): the guard reads their own identity and answers in
     * place of the customer's. Absent or null: the booking's customer.
     */
    participantId?: string | null;
  },
  change: (facts: ActFacts) => Promise<{ changed: boolean; result: T }>,
): Promise<T> {
  if (!(await repo.lockBookingForAct(tx, args.bookingId))) throw new DomainError('NOT_FOUND', 'Booking not found.');
  const before = await actFacts(deps, tx, args.bookingId);
  let asked: ActFacts = before;
  if (args.participantId) {
    const own = await repo.loadParticipantFacts(tx, args.bookingId, args.participantId, deps.config.KBA_FRESHNESS_HOURS);
    // Removed (or marked not completed) since the access check: their part has ended.
    if (!own) throw new DomainError('FORBIDDEN', participantRemovedMessage);
    asked = { ...before, ...own };
  }
  const refusal = refusalOf(args.transition, asked, args.input);
  // Starting and finishing answer 409 as the room always has; the act's own steps 412 (a precondition).
  if (refusal) throw new DomainError(refusal === actStageMessages.finished || args.transition === 'finish' || args.transition === 'startRecording' ? 'CONFLICT' : 'PRECONDITION_FAILED', refusal);
  const { changed, result } = await change(asked);
  if (changed) {
    const after = await stageFacts(tx, args.bookingId);
    await writeAudit(tx, {
      actorType: args.actor.type,
      actorId: args.actor.id ?? null,
      action: `act.${args.transition}`,
      entityType: 'booking',
      entityId: args.bookingId,
      data: { from: stageOf(before), to: stageOf(after), ...(args.participantId ? { participantId: args.participantId } : {}), ...args.data },
    });
  }
  return result;
}

// ---- Telling the room (the one bus) --------------------------------------------------

/** 'access': the booking was cancelled or (re)assigned — who may be in its room may have changed (session/socket.ts re-checks). */
export type ActChangeKind = 'act' | 'access';
type Listener = (bookingId: string, kind: ActChangeKind) => void;
const listeners = new WeakMap<Deps, Listener>();

/** The room (session socket) registers how to tell both participants; one per server. */
export function onActChanged(deps: Deps, listener: Listener): void {
  listeners.set(deps, listener);
}

/** Both participants refetch (through the Socket.IO adapter: every node). Call after the commit. */
export function actChanged(deps: Deps, bookingId: string, kind: ActChangeKind = 'act'): void {
  try {
    listeners.get(deps)?.(bookingId, kind);
  } catch (error) {
    deps.log.warn({ err: error, bookingId }, 'act change notification failed');
  }
}

// ---- Supporting files -------------------------------------------------------------------

/**
 * The customer marks a file as supporting when uploading it (an ID photo, a
 * reference copy): the same mark the notary sets in the room — shown, never
 * signed, sealed, journaled or charged, never waited for by Finish. Inside
 * the upload's transaction (the booking is still editable, so no act yet).
 */
export async function markSupportingAtUpload(tx: Tx, deps: Pick<Deps, 'now'>, input: { bookingId: string; documentId: string }): Promise<void> {
  await repo.markSupporting(tx, input.bookingId, input.documentId, deps.now());
}

// ---- The signer's location and consent, the oath --------------------------------------

const usStates = new Set(
  'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY PR GU VI AS MP'.split(' '),
);

/** A US state's code or `Outside the United States: {country}`. */
export function validLocation(location: string): boolean {
  if (usStates.has(location)) return true;
  const abroad = /^Outside the United States: (.{2,60})$/.exec(location);
  return !!abroad && !controlCharacters.test(abroad[1]!);
}

/**
 * The signer says where they are and consents to sign electronically (stored
 * with the time and address): the customer on the session row, a co-signer or
 * witness on their own row (each signer consents for themselves).
 */
export async function giveConsent(deps: Deps, bookingId: string, input: { location: string; address: string | null; participantId?: string | null }): Promise<void> {
  if (!validLocation(input.location)) throw new DomainError('BAD_REQUEST', 'Choose the state you are in, or name the country if you are outside the United States.');
  const participantId = input.participantId ?? null;
  await deps.db.transaction((tx) =>
    takeTransition(deps, tx, { bookingId, transition: 'giveConsent', actor: { type: 'customer' }, participantId, data: { location: input.location } }, async (facts) => {
      if (facts.consentGiven && facts.locationGiven) return { changed: false, result: undefined };
      const answers = { consentAt: deps.now(), consentAddress: input.address, signerLocation: input.location };
      if (participantId) await repo.updateParticipantAnswers(tx, participantId, answers);
      else await repo.updateActSession(tx, bookingId, answers);
      return { changed: true, result: undefined };
    }),
  );
  actChanged(deps, bookingId);
}

/**
 * A signer outside the US (RULONA 2018 §14A, Iowa Code 9B.14A; decision 106):
 * the notary confirms the document relates to a US matter, court or property
 * and the act is not prohibited where the signer is. Who and when go on the
 * session row, the act's audit trail and the journal entry.
 */
export async function confirmAbroad(deps: Deps, staffId: string, bookingId: string, participantId: string | null = null): Promise<void> {
  const changed = await deps.db.transaction((tx) =>
    takeTransition(deps, tx, { bookingId, transition: 'confirmAbroad', actor: { type: 'staff', id: staffId }, participantId, data: { statement: actTexts.abroadStatement } }, async (facts) => {
      if (facts.abroadConfirmed) return { changed: false, result: false };
      const confirmation = { abroadConfirmedAt: deps.now(), abroadConfirmedBy: staffId };
      if (participantId) await repo.updateParticipantAnswers(tx, participantId, confirmation);
      else await repo.updateActSession(tx, bookingId, confirmation);
      return { changed: true, result: true };
    }),
  );
  if (changed) actChanged(deps, bookingId);
}

/** The notary asks for the oath or affirmation (jurats). */
export async function administerOath(deps: Deps, staffId: string, bookingId: string): Promise<void> {
  await deps.db.transaction((tx) =>
    takeTransition(deps, tx, { bookingId, transition: 'administerOath', actor: { type: 'staff', id: staffId } }, async (facts) => {
      if (facts.oathRequested) return { changed: false, result: undefined };
      await repo.updateActSession(tx, bookingId, { oathRequestedAt: deps.now() });
      return { changed: true, result: undefined };
    }),
  );
  actChanged(deps, bookingId);
}

/** The signer answers "I swear" or "I affirm": the moment is marked on the running recording's timeline. */
export async function answerOath(deps: Deps, bookingId: string, kind: 'swear' | 'affirm', participantId: string | null = null): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const recording = await repo.runningRecording(tx, bookingId);
    const now = deps.now();
    const mark = recording ? { recordingId: recording.id, atMs: now.getTime() - recording.startedAt.getTime() } : {};
    await takeTransition(deps, tx, { bookingId, transition: 'answerOath', actor: { type: 'customer' }, participantId, data: { kind, ...mark } }, async (facts) => {
      if (facts.oathTaken) return { changed: false, result: undefined };
      const answer = { oathAnsweredAt: now, oathKind: kind };
      if (participantId) await repo.updateParticipantAnswers(tx, participantId, answer);
      else await repo.updateActSession(tx, bookingId, answer);
      return { changed: true, result: undefined };
    });
  });
  actChanged(deps, bookingId);
}

/** What the room shows of the act's answers: the customer's, or (participantId) a co-signer's or witness's own. */
export async function actAnswers(db: DbOrTx, bookingId: string, participantId: string | null = null) {
  const row = await repo.actSessionRow(db, bookingId);
  const own = participantId ? await repo.participantAnswers(db, participantId) : null;
  const answers = own ?? row;
  return {
    consentAt: answers?.consentAt ?? null,
    signerLocation: answers?.signerLocation ?? null,
    abroadConfirmedAt: answers?.abroadConfirmedAt ?? null,
    abroadConfirmedBy: answers?.abroadConfirmedBy ?? null,
    oathRequested: !!row?.oathRequestedAt,
    oathKind: answers?.oathKind ?? null,
  };
}

/** The act's recording as the journal names it: the one running, or the last one (not deleted). */
export async function actRecording(db: DbOrTx, bookingId: string): Promise<{ id: string } | null> {
  return repo.latestRecording(db, bookingId);
}
