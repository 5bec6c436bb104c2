/**
 * A full garbage collection once a process has gone quiet. V8 collects its
 * old generation when allocation asks for it; a process that stops allocating
 * after a burst (the embedded database's after a load) keeps the burst's
 * garbage resident indefinitely. The database process runs with
 * `--expose-gc` and calls `activity()` after each run of messages
 * (docs/decisions/054-embedded-database-memory.md, "Later").
 */
export function idleCollection(quietMs: number, collect: (() => void) | undefined = (globalThis as { gc?: () => void }).gc) {
  let timer: NodeJS.Timeout | undefined;
  return {
    /** Something ran: collect once `quietMs` pass without another call. */
    activity() {
      if (!collect) return;
      clearTimeout(timer);
      timer = setTimeout(collect, quietMs);
      timer.unref();
    },
    stop() {
      clearTimeout(timer);
    },
  };
}
