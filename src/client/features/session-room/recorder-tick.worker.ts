/**
 * The recording's clock (docs/decisions/103-recording-composite.md): a
 * dedicated worker's timer, which browsers do not slow down in a background
 * tab as they do the page's own timers and animation frames. Posts a tick
 * every `intervalMs` until told to stop ({ intervalMs: 0 }).
 */
interface WorkerScope {
  onmessage: ((event: MessageEvent<{ intervalMs: number }>) => void) | null;
  postMessage(message: number): void;
}
const scope = globalThis as unknown as WorkerScope;
let timer: ReturnType<typeof setInterval> | undefined;

scope.onmessage = (event) => {
  clearInterval(timer);
  timer = undefined;
  const intervalMs = Number(event.data.intervalMs);
  if (intervalMs > 0) timer = setInterval(() => scope.postMessage(performance.now()), intervalMs);
};
