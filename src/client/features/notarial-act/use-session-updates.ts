import { useEffect, useEffectEvent } from 'react';
import { useRoom } from '../session-room/room-context.ts';

/** A query's tRPC utilities, as `trpc.useUtils().<procedure>` gives them. */
interface QueryUtils<TInput> {
  cancel: (input: TInput) => Promise<void>;
  refetch: (input: TInput) => Promise<void>;
}

/**
 * Ask a query again when the server says the session changed (the room's
 * `session:updated`). An answer already on its way may have been read before
 * the change — e.g. the tab's first load, opened while the notary was placing
 * the signature — and TanStack Query's refetch joins a first fetch still in
 * flight instead of starting another, so that answer would stay on screen.
 * It is cancelled first, then the query is fetched anew.
 */
export function useSessionUpdates<TInput>(utils: QueryUtils<TInput>, input: TInput): void {
  const { connection } = useRoom();
  // tRPC's utilities are new objects on every render: the listener reads the latest.
  const askAgain = useEffectEvent(() => {
    void utils.cancel(input).then(() => utils.refetch(input));
  });
  useEffect(() => {
    const off = connection.onUpdated(() => askAgain());
    return () => {
      off();
    };
  }, [connection]);
}
