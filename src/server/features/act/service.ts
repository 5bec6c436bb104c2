import type { DbOrTx, Tx } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import { DomainError } from '../../errors.ts';
import { actStageMessages, type ActStage } from '../../../shared/act-stages.ts';
import type { SessionOutcome } from '../../../shared/session.ts';
import { controlCharacters } from '../../../shared/fields.ts';
import { writeAudit, type ActorType } from '../audit.ts';
import * as repo from './repository.ts';
import { finishRefusals, refusalOf, stageOf, type ActFacts, type ActTransition, type TransitionInput } from './stages.ts';

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

export async function actFacts(db: DbOrTx, bookingId: string): Promise<ActFacts> {
  const facts = await repo.loadFacts(db, bookingId);
  if (!facts) throw new DomainError('NOT_FOUND', 'Booking not found.');
  return facts;
}

export async function actStage(db: DbOrTx, bookingId: string): Promise<{ stage: ActStage; facts: ActFacts }> {
  const facts = await actFacts(db, bookingId);
  return { stage: stageOf(facts), facts };
}

/** Why finishing with `outcome` is refused now (every reason; empty when allowed). */
export async function finishRefusalsFor(db: DbOrTx, bookingId: string, outcome: SessionOutcome): Promise<string[]> {
  return finishRefusals(await actFacts(db, bookingId), outcome);
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
  tx: Tx,
  args: { bookingId: string; transition: ActTransition; actor: TransitionActor; input?: TransitionInput; data?: Record<string, unknown> },
  change: (facts: ActFacts) => Promise<{ changed: boolean; result: T }>,
): Promise<T> {
  if (!(await repo.lockBookingForAct(tx, args.bookingId))) throw new DomainError('NOT_FOUND', 'Booking not found.');
  const before = await actFacts(tx, args.bookingId);
  const refusal = refusalOf(args.transition, before, args.input);
  // Starting and finishing answer 409 as the room always has; the act's own steps 412 (a precondition).
  if (refusal) throw new DomainError(refusal === actStageMessages.finished || args.transition === 'finish' || args.transition === 'startRecording' ? 'CONFLICT' : 'PRECONDITION_FAILED', refusal);
  const { changed, result } = await change(before);
  if (changed) {
    const after = await actFacts(tx, args.bookingId);
    await writeAudit(tx, {
      actorType: args.actor.type,
      actorId: args.actor.id ?? null,
      action: `act.${args.transition}`,
      entityType: 'booking',
      entityId: args.bookingId,
      data: { from: stageOf(before), to: stageOf(after), ...args.data },
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

/** The signer says where they are and consents to sign electronically (stored with the time and address). */
export async function giveConsent(deps: Deps, bookingId: string, input: { location: string; address: string | null }): Promise<void> {
  if (!validLocation(input.location)) throw new DomainError('BAD_REQUEST', 'Choose the state you are in, or name the country if you are outside the United States.');
  await deps.db.transaction((tx) =>
    takeTransition(tx, { bookingId, transition: 'giveConsent', actor: { type: 'customer' }, data: { location: input.location } }, async (facts) => {
      if (facts.consentGiven && facts.locationGiven) return { changed: false, result: undefined };
      await repo.updateActSession(tx, bookingId, { consentAt: deps.now(), consentAddress: input.address, signerLocation: input.location });
      return { changed: true, result: undefined };
    }),
  );
  actChanged(deps, bookingId);
}

/** The notary asks for the oath or affirmation (jurats). */
export async function administerOath(deps: Deps, staffId: string, bookingId: string): Promise<void> {
  await deps.db.transaction((tx) =>
    takeTransition(tx, { bookingId, transition: 'administerOath', actor: { type: 'staff', id: staffId } }, async (facts) => {
      if (facts.oathRequested) return { changed: false, result: undefined };
      await repo.updateActSession(tx, bookingId, { oathRequestedAt: deps.now() });
      return { changed: true, result: undefined };
    }),
  );
  actChanged(deps, bookingId);
}

/** The signer answers "I swear" or "I affirm": the moment is marked on the running recording's timeline. */
export async function answerOath(deps: Deps, bookingId: string, kind: 'swear' | 'affirm'): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const recording = await repo.runningRecording(tx, bookingId);
    const now = deps.now();
    const mark = recording ? { recordingId: recording.id, atMs: now.getTime() - recording.startedAt.getTime() } : {};
    await takeTransition(tx, { bookingId, transition: 'answerOath', actor: { type: 'customer' }, data: { kind, ...mark } }, async (facts) => {
      if (facts.oathTaken) return { changed: false, result: undefined };
      await repo.updateActSession(tx, bookingId, { oathAnsweredAt: now, oathKind: kind });
      return { changed: true, result: undefined };
    });
  });
  actChanged(deps, bookingId);
}

/** What the room shows of the act's answers. */
export async function actAnswers(db: DbOrTx, bookingId: string) {
  const row = await repo.actSessionRow(db, bookingId);
  return {
    consentAt: row?.consentAt ?? null,
    signerLocation: row?.signerLocation ?? null,
    oathRequested: !!row?.oathRequestedAt,
    oathKind: row?.oathKind ?? null,
  };
}
