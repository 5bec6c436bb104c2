/**
 * The recording's clock (docs/decisions/103-recording-composite.md): a
 * dedicated worker's timer, which browsers do not slow down in a background
 * tab as they do the page's own timers and animation frames. Posts a tick
 * every `intervalMs` ({ intervalMs: 0 } stops it), but never a second one
 * before the page says it has drawn the first ({ drawn: true }): a busy page
 * drops frames rather than queueing ticks it can no longer use.
 */
interface WorkerScope {
  onmessage: ((event: MessageEvent<{ intervalMs?: number; drawn?: boolean }>) => void) | null;
  postMessage(message: number): void;
}
const scope = globalThis as unknown as WorkerScope;
let timer: ReturnType<typeof setInterval> | undefined;
let waiting = false;

scope.onmessage = (event) => {
  if (event.data.drawn) {
    waiting = false;
    return;
  }
  clearInterval(timer);
  timer = undefined;
  waiting = false;
  const intervalMs = Number(event.data.intervalMs);
  if (intervalMs > 0) {
    timer = setInterval(() => {
      if (waiting) return;
      waiting = true;
      scope.postMessage(performance.now());
    }, intervalMs);
  }
};
