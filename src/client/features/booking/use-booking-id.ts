import { startTransition, useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { isUuid } from '../../../shared/ids.ts';

const storageKey = 'notary.bookingId';

/**
 * The booking id lives in the URL (`/schedule?booking=<id>`, which is also
 * Stripe's return_url) and in localStorage, so a reload, a new tab or the
 * way back from a payment page all find the same booking. `ready` turns true
 * once localStorage has been read (after hydration; the server cannot see it).
 */
export function useBookingId() {
  const [params, setParams] = useSearchParams();
  const fromUrl = params.get('booking');
  const [stored, setStored] = useState<string | null>(null);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    // Right after hydration: as a transition the wizard's re-render yields to
    // the browser rather than blocking it (the page looks the same meanwhile).
    startTransition(() => {
      try {
        setStored(window.localStorage.getItem(storageKey));
      } catch {
        // Private mode or storage disabled: the URL alone carries the booking.
      }
      setReady(true);
    });
  }, []);

  const urlId = fromUrl && isUuid(fromUrl) ? fromUrl : null;
  const bookingId = urlId ?? (ready && stored && isUuid(stored) ? stored : null);

  const remember = useCallback(
    (id: string) => {
      try {
        window.localStorage.setItem(storageKey, id);
      } catch {
        // see above
      }
      setStored(id);
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.set('booking', id);
          return next;
        },
        { replace: true, preventScrollReset: true },
      );
    },
    [setParams],
  );

  /** Forget the booking (finished, cancelled or unknown): the next visit starts afresh. */
  const forget = useCallback(
    (options: { keepUrl?: boolean } = {}) => {
      try {
        window.localStorage.removeItem(storageKey);
      } catch {
        // see above
      }
      setStored(null);
      if (!options.keepUrl) {
        setParams(
          (current) => {
            const next = new URLSearchParams(current);
            next.delete('booking');
            return next;
          },
          { replace: true, preventScrollReset: true },
        );
      }
    },
    [setParams],
  );

  return { bookingId, fromUrl: urlId !== null, ready, remember, forget };
}
