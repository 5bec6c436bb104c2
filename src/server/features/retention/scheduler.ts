import type { Deps } from '../../deps.ts';
import { sweepStorage } from '../storage-sweep/sweep.ts';
import { runRetention } from './service.ts';
import { repeat } from '../../repeat.ts';

export interface RetentionJob {
  /** Waits for a run in progress, then stops. */
  stop(): Promise<void>;
}

/**
 * Runs the retention pass (abandoned bookings, then expired documents, then
 * the storage sweep)
 * shortly after start-up and then every `intervalMs` (hourly by default).
 * Every node runs it; both steps are safe to run concurrently (see service.ts).
 */
export function startRetentionJob(deps: Deps, options: { intervalMs?: number; firstRunMs?: number } = {}): RetentionJob {
  const intervalMs = options.intervalMs ?? 60 * 60 * 1000;
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const tick = () => {
    if (stopped || running) return;
    running = runRetention(deps)
      .catch((error: unknown) => deps.log.error({ err: error }, 'retention: run failed'))
      // Then what crashes left in storage (temporary files, objects no row points to).
      .then(() => sweepStorage(deps))
      .catch((error: unknown) => deps.log.error({ err: error }, 'retention: storage sweep failed'))
      .finally(() => {
        running = null;
      });
  };
  const cancel = repeat(tick, options.firstRunMs ?? 30_000, intervalMs);
  return {
    async stop() {
      stopped = true;
      cancel();
      await running;
    },
  };
}
