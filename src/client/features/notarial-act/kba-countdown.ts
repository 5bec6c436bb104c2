/**
 * The quiz's countdown as shown and as spoken. Screen readers hear it at 90,
 * 60, 30 and 10 seconds left and when time is up: often enough to plan, not so
 * often that it drowns the questions being read.
 */
export const announceAt = new Set([90, 60, 30, 10]);

export const formatLeft = (s: number) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;

export function spokenLeft(s: number): string {
  const m = Math.floor(s / 60);
  const r = s % 60;
  const parts = [m > 0 ? `${m} minute${m > 1 ? 's' : ''}` : '', r > 0 ? `${r} seconds` : ''].filter(Boolean);
  return `${parts.join(' ')} left to answer`;
}

/** What to announce when the count moves from `previous` to `next` seconds, or null. */
export function announcementFor(previous: number, next: number): string | null {
  return next !== previous && announceAt.has(next) ? spokenLeft(next) : null;
}
