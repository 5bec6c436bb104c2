import type { Deps } from '../../deps.ts';
import { DomainError } from '../../errors.ts';
import { isUuid } from '../../../shared/ids.ts';
import { writeAudit } from '../audit.ts';
import { staffMay } from '../access/service.ts';
import { markBookingOutcome } from '../booking/service.ts';
import { onSessionFinished } from '../notifications/events.ts';
import type { StaffIdentity } from '../staff/session.ts';
import { recordingMimeType, sessionMessages as messages, type SessionOutcome } from '../../../shared/session.ts';
import * as repo from './repository.ts';
import { kickAssembly } from './assembly.ts';
import { takeTransition } from '../act/service.ts';
import { onActFinished } from '../notarial-act/service.ts';
import { assertOpen, type Participant } from './room-service.ts';
import { notifySessionChanged, notifySessionClosed } from './notifier-service.ts';
import { finishWaitsForAssemblyMs, recordingKey, waitForAssembly } from './recording-service.ts';

/**
 * Start and finish: the notary starts the recorded act and finishes the
 * session with an outcome. The act's rules (who may start, confirm, sign,
 * seal, finish, and when) are the act's state machine's
 * (features/act/service.ts, decision 073): start and finish take its transitions.
 */

/**
 * The notary starts the recorded act: preconditions, then a new recording
 * (a session may have several: a crashed browser starts a new one; what the
 * earlier one received is kept). Returns where to send the chunks.
 */
export async function startSession(deps: Deps, participant: Participant): Promise<{ recordingId: string; mimeType: string }> {
  if (participant.role !== 'notary' || !participant.staffId) throw new DomainError('FORBIDDEN', messages.notAssigned);
  // A recording left running by a crashed browser is kept with what arrived: queued for assembly.
  let queued = false;
  for (const earlier of await repo.listRecordings(deps.db, participant.bookingId)) {
    if (earlier.status === 'recording') queued = (await repo.queueAssembly(deps.db, earlier.id)) || queued;
  }
  if (queued) void kickAssembly(deps);
  const recording = await deps.db.transaction(async (tx) => {
    const booking = await repo.findSessionBooking(tx, participant.bookingId);
    if (!booking) throw new DomainError('NOT_FOUND', messages.notFound);
    // Again under the transaction: an appointment reassigned meanwhile is no longer this notary's to record.
    if (!staffMay({ id: participant.staffId!, role: 'notary' }, 'record', booking.notaryId)) throw new DomainError('FORBIDDEN', messages.notAssigned);
    assertOpen(deps, booking);
    const id = crypto.randomUUID();
    return takeTransition(deps, tx, { bookingId: booking.id, transition: 'startRecording', actor: { type: 'staff', id: participant.staffId }, data: { recordingId: id } }, async () => {
      if (!booking.startedAt) await repo.upsertSession(tx, booking.id, { startedAt: deps.now() });
      const row = await repo.insertRecording(tx, {
        id,
        bookingId: booking.id,
        mimeType: recordingMimeType,
        storageKey: recordingKey(booking.id, id),
        startedBy: participant.staffId,
        startedAt: deps.now(),
      });
      await writeAudit(tx, { actorType: 'staff', actorId: participant.staffId!, action: 'session.recording_started', entityType: 'booking', entityId: booking.id, data: { recordingId: id } });
      return { changed: true, result: row };
    });
  });
  notifySessionChanged(deps, participant.bookingId);
  return { recordingId: recording.id, mimeType: recording.mimeType };
}

export interface FinishActor {
  staffId: string;
  role: StaffIdentity['user']['role'];
}

/**
 * Ends the session with an outcome: the booking becomes completed, no-show or
 * not completed, the customer is emailed, and the room closes for both.
 * Called from the room (the notary) and from the console (staff may record a
 * no-show; completing always needs the recording, whoever asks).
 */
export async function finishSession(deps: Deps, actor: FinishActor, input: { bookingId: string; outcome: SessionOutcome; reason?: string }): Promise<void> {
  // A recording still being saved is waited for (bounded); the room says "Saving the recording…" meanwhile.
  if (input.outcome !== 'no_show' && isUuid(input.bookingId)) await waitForAssembly(deps, input.bookingId, finishWaitsForAssemblyMs);
  await deps.db.transaction(async (tx) => {
    const booking = isUuid(input.bookingId) ? await repo.findSessionBooking(tx, input.bookingId) : null;
    if (!booking) throw new DomainError('NOT_FOUND', messages.notFound);
    if (!staffMay({ id: actor.staffId, role: actor.role }, 'finish', booking.notaryId)) throw new DomainError('FORBIDDEN', messages.notAssigned);
    if (booking.status !== 'confirmed') throw new DomainError('CONFLICT', 'Only a confirmed booking can be finished.');
    if (input.outcome === 'no_show' && (!booking.startsAt || booking.startsAt.getTime() > deps.now().getTime())) throw new DomainError('CONFLICT', messages.tooEarlyForNoShow);
    const reason = input.outcome === 'completed' ? null : (input.reason?.trim() || null);
    await takeTransition(
      deps,
      tx,
      { bookingId: booking.id, transition: 'finish', actor: { type: 'staff', id: actor.staffId }, input: { outcome: input.outcome }, data: { outcome: input.outcome } },
      async () => {
        await markBookingOutcome(tx, deps, { bookingId: booking.id, outcome: input.outcome, staffId: actor.staffId });
        await repo.upsertSession(tx, booking.id, { finishedAt: deps.now(), outcome: input.outcome, outcomeReason: reason, finishedBy: actor.staffId });
        await writeAudit(tx, { actorType: 'staff', actorId: actor.staffId, action: 'session.finished', entityType: 'booking', entityId: booking.id, data: { outcome: input.outcome, reason } });
        await onSessionFinished(tx, deps, { bookingId: booking.id, outcome: input.outcome, reason });
        // Completed: "Your notarized document is ready", in the same transaction.
        if (input.outcome === 'completed') await onActFinished(tx, deps, booking.id);
        return { changed: true, result: undefined };
      },
    );
  });
  notifySessionChanged(deps, input.bookingId);
  notifySessionClosed(deps, input.bookingId, messages.closed);
}
