import { startTransition, useCallback, useEffect, useState } from 'react';
import { useSearchParams } from '../../lib/router-hooks.tsx';
import { isUuid } from '../../../shared/ids.ts';

const storageKey = 'notary.bookingId';

/**
 * The query as the address bar shows it now. react-router hands a functional
 * update the params of the render that created the callback, and a callback
 * kept across an await (the booking is created before the uploads, the step is
 * pushed after them) would write an older address back over a newer entry.
 */
export function addressParams(): URLSearchParams {
  return new URLSearchParams(window.location.search);
}

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
      const next = addressParams();
      next.set('booking', id);
      setParams(next, { replace: true, preventScrollReset: true });
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
        const next = addressParams();
        next.delete('booking');
        setParams(next, { replace: true, preventScrollReset: true });
      }
    },
    [setParams],
  );

  return { bookingId, fromUrl: urlId !== null, ready, remember, forget };
}
