import type { Deps } from '../../deps.ts';
import { repeat } from '../../repeat.ts';
import { notifyStalledRecordings } from './recording-service.ts';

/**
 * Every node looks for running recordings whose chunks stopped arriving, a
 * few times per RECORDING_STALL_SECONDS, and tells their rooms (the notary
 * sees a warning at once; decision 103). Marking the row makes one node tell.
 */
export function startStallWatch(deps: Deps): { stop(): void } {
  const everyMs = Math.max(1000, (deps.config.RECORDING_STALL_SECONDS * 1000) / 3);
  let running = false;
  const cancel = repeat(
    () => {
      if (running) return;
      running = true;
      notifyStalledRecordings(deps)
        .catch((error: unknown) => deps.log.error({ err: error }, 'stalled-recording check failed'))
        .finally(() => (running = false));
    },
    everyMs,
    everyMs,
  );
  return { stop: cancel };
}
