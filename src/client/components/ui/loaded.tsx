import type { ReactNode } from 'react';

/**
 * What a console list shows while its query is under way, when it failed, or
 * when it came back empty; otherwise `children(data)`.
 */
export function Loaded<T>({
  query,
  what,
  failure = `Could not load ${what}.`,
  empty,
  children,
}: {
  query: { error: unknown; data: T | undefined };
  /** 'bookings', 'mail': "Loading bookings…", "Could not load bookings." */
  what: string;
  failure?: ReactNode;
  /** Shown instead of `children` for an empty array. */
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (query.error === null && query.data === undefined) return <p>Loading {what}…</p>;
  if (query.error || query.data === undefined) {
    return (
      <p role="alert" className="text-red-700">
        {failure}
      </p>
    );
  }
  if (empty !== undefined && Array.isArray(query.data) && query.data.length === 0) return <p className="text-slate-700">{empty}</p>;
  return children(query.data);
}
