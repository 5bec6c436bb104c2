import type { Deps } from '../../deps.ts';
import type { SessionChatMessage } from '../../../shared/session.ts';
import * as repo from './repository.ts';
import type { Participant } from './room-service.ts';

/** The room's chat: stored per booking, replayed to whoever joins. */

export async function chatHistory(deps: Deps, bookingId: string): Promise<SessionChatMessage[]> {
  return repo.listMessages(deps.db, bookingId);
}

export async function postChat(deps: Deps, participant: Participant, input: { clientId: string; body: string }) {
  return repo.insertMessage(deps.db, { bookingId: participant.bookingId, sender: participant.role, participantId: participant.participantId, clientId: input.clientId, body: input.body });
}
