import { createContext, useContext } from 'react';
import type { SessionAccess, SessionChatMessage, SessionRole, SessionView } from '../../../shared/session.ts';
import type { RoomConnection } from './connection.ts';

/** Sends and receives the room's small live events (relayed to the other participant, not stored). */
export interface RoomChannel {
  send(type: string, payload: Record<string, unknown>): void;
  on(type: string, handler: (event: { type: string; payload: Record<string, unknown>; from: SessionRole }) => void): () => void;
}

/** What every side-panel tab receives (see `roomTabs` in tabs.tsx). */
export interface RoomTabProps {
  session: SessionView;
  role: SessionRole;
  access: SessionAccess;
  channel: RoomChannel;
}

export interface RoomContextValue extends RoomTabProps {
  connection: RoomConnection;
  messages: SessionChatMessage[];
  /** The page the notary pointed to (documents tab). */
  documentFocus: { documentId: string; page: number; at: number } | null;
}

export const RoomContext = createContext<RoomContextValue | null>(null);

export function useRoom(): RoomContextValue {
  const value = useContext(RoomContext);
  if (!value) throw new Error('useRoom outside the session room');
  return value;
}
