/**
 * Runs `tick` after `firstMs`, then every `intervalMs`, on timers that never keep the process
 * alive; returns what cancels both. The background jobs' one schedule (retention, recording
 * assembly).
 */
export function repeat(tick: () => void, firstMs: number, intervalMs: number): () => void {
  const first = setTimeout(tick, firstMs);
  const every = setInterval(tick, intervalMs);
  first.unref();
  every.unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
