import { useEffect, useRef, useState } from 'react';
import type { SessionChatMessage, SessionRole } from '../../../shared/session.ts';

/** How long a chat caption stays on the video, the last second of it fading out. */
export const captionShowMs = 8_000;
export const captionFadeMs = 1_000;

export interface Caption {
  message: SessionChatMessage;
  /** In its last second: drawn fading out. */
  fading: boolean;
}

/**
 * The other side's last two chat lines still on the video at `now`: each stays
 * `captionShowMs` after it reached this browser (`arrivals`, by message id), then goes,
 * so the video is not covered by an old line for the rest of the call.
 */
export function captionsAt(messages: readonly SessionChatMessage[], role: SessionRole, arrivals: ReadonlyMap<number, number>, now: number): Caption[] {
  return messages
    .filter((m) => m.sender !== role)
    .filter((m) => now - (arrivals.get(m.id) ?? now) < captionShowMs)
    .slice(-2)
    .map((message) => ({ message, fading: now - (arrivals.get(message.id) ?? now) >= captionShowMs - captionFadeMs }));
}

/** When the captions shown at `now` next change (one starts fading or goes), or null if none will. */
export function nextCaptionChange(arrivals: ReadonlyMap<number, number>, now: number): number | null {
  let next: number | null = null;
  for (const arrived of arrivals.values()) {
    for (const at of [arrived + captionShowMs - captionFadeMs, arrived + captionShowMs]) {
      if (at > now && (next === null || at < next)) next = at;
    }
  }
  return next;
}

/** The captions to draw now, re-rendered when one starts fading or goes. */
export function useCaptions(messages: readonly SessionChatMessage[], role: SessionRole): Caption[] {
  const arrivals = useRef(new Map<number, number>());
  const [, setTick] = useState(0);
  const now = Date.now();
  for (const message of messages) if (message.sender !== role && !arrivals.current.has(message.id)) arrivals.current.set(message.id, now);
  const next = nextCaptionChange(arrivals.current, now);
  useEffect(() => {
    if (next === null) return;
    const timer = setTimeout(() => setTick((tick) => tick + 1), next - Date.now());
    return () => clearTimeout(timer);
  }, [next]);
  return captionsAt(messages, role, arrivals.current, now);
}
