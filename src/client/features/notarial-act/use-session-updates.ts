import { useEffect } from 'react';
import { useRoom } from '../session-room/room-context.ts';

/** Refetch when the server says the session changed (the room's `session:updated`). */
export function useSessionUpdates(refetch: () => unknown): void {
  const { connection } = useRoom();
  useEffect(() => {
    const off = connection.onUpdated(() => void refetch());
    return () => {
      off();
    };
  }, [connection, refetch]);
}
