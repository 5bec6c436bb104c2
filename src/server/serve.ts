import { assertDeployable, loadConfig } from './config.ts';
import { createBoundedServer } from './http/server.ts';
import { createApp } from './app.ts';
import { DataDirLockedError, openDatabase } from './db/client.ts';
import { buildDeps } from './deps.ts';
import { attachChat } from './features/chat/socket.ts';
import { attachSessionRoom } from './features/session/socket.ts';
import { startOutboxWorker } from './features/notifications/worker.ts';
import { startRetentionJob } from './features/retention/scheduler.ts';
import { startAssemblyJob } from './features/session/assembly.ts';
import { startStallWatch } from './features/session/stall-watch.ts';
import { startOnDemandJob } from './features/on-demand/service.ts';
import { sweepStorage } from './features/storage-sweep/sweep.ts';
import { createLogger } from './logger.ts';
import { closingReserveMs, trackConnections } from './http/drain.ts';
import { applySecurityHeadersToEngine } from './http/security.ts';

/** Whether `work` settled within `ms` (it keeps running otherwise; the process is about to exit). */
async function within(ms: number, work: Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([work.then(() => true, () => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Start-up only (after main.ts): configuration, database, HTTP, shutdown. */
async function main() {
  const config = loadConfig();
  // A public site never runs on a test provider by accident (decision 024).
  assertDeployable(config);
  const log = createLogger(config.LOG_LEVEL);
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    timeoutSeconds: config.DATABASE_TIMEOUT_SECONDS,
    onError: (err) => log.warn({ err }, 'database connection lost; the pool reconnects'),
    // The embedded database's thread crashed: every query would fail from now
    // on, so the process ends loudly and its supervisor starts it again (the
    // data-folder lock of a dead process is taken over).
    onFatal: (err) => {
      log.fatal({ err }, 'the embedded database stopped; exiting');
      process.exit(1);
    },
  });
  const deps = await buildDeps(config, database, log);
  const deadline = new AbortController();
  deps.deadline = deadline.signal;
  const shutdownTimeoutMs = config.SHUTDOWN_TIMEOUT_SECONDS * 1000;

  const mode = config.NODE_ENV === 'production' ? 'production' : 'development';
  const { app, readiness, close } = await createApp(deps, { pages: mode });
  const server = createBoundedServer(app, { trustProxy: config.TRUST_PROXY });
  const drain = trackConnections(server);
  const chat = await attachChat(server, deps);
  // Socket.IO answers its own requests: the same security headers as every other
  // response, set on the engine so every namespace (chat, the session room) has them.
  applySecurityHeadersToEngine(chat.io.engine, config, server);
  const sessionRoom = attachSessionRoom(chat.io, deps);
  const fanOut = chat.fanOut;
  if (fanOut) {
    readiness.watchdogs.push({
      name: 'chat between nodes',
      downForMs: fanOut.downForMs,
      stuckForMs: fanOut.stuckForMs,
      databaseAnswered: fanOut.databaseAnswered,
    });
    // A request's new connection means the database answers again: the chat link
    // reconnects now rather than at the end of its backoff (docs/decisions/076).
    database.queryPool.on('connect', () => fanOut.databaseAnswered(true));
    database.queryPool.on('error', () => fanOut.databaseAnswered(false));
  }
  // Every process delivers the outbox; the claims keep them from sending twice.
  const outboxWorker = startOutboxWorker(deps);
  // Every process runs it too; SKIP LOCKED shares the rows out.
  const retention = startRetentionJob(deps);
  // Recording assembly (decision 072): every process; SKIP LOCKED and a lease share and hand over the work.
  const assembly = startAssemblyJob(deps);
  // A running recording whose chunks stopped arriving: the notary's room is told (decision 103).
  const stallWatch = startStallWatch(deps);
  // The on-demand line's sweep (decision 110): time-outs, customers away, dropped notaries; every process, SKIP LOCKED.
  const onDemand = startOnDemandJob(deps);
  // What a crash left in storage goes now, not at the first retention run; in the background.
  void sweepStorage(deps).catch((error: unknown) => log.error({ err: error }, 'storage sweep at start-up failed'));
  server.listen(config.PORT, config.HOST, () => {
    log.info({ url: config.publicUrl, database: database.driver, payments: config.paymentsMode }, 'server listening');
  });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const signalledAt = Date.now();
    const left = () => Math.max(0, signalledAt + shutdownTimeoutMs - Date.now());
    log.info({ signal }, 'shutting down');
    // Last resort, for a process that cannot get this far (a blocked event loop).
    const force = setTimeout(() => {
      log.error('shutdown took too long; exiting');
      process.exit(1);
    }, shutdownTimeoutMs + 5_000);
    force.unref();
    // /readyz answers 503 from now on, for a load balancer still probing.
    readiness.draining = true;
    // Requests get all of the deadline but the closing reserve.
    const requestsMs = shutdownTimeoutMs - closingReserveMs(shutdownTimeoutMs);
    // Stop accepting; every request already received is answered (with
    // Connection: close), and an idle connection closes at its keep-alive timeout.
    const drained = drain.start(requestsMs);
    // Open sockets would keep the drain waiting; the clients reconnect to another node.
    // (Bounded: telling the other nodes goes through a database that may not answer.)
    await within(
      requestsMs,
      (async () => {
        await sessionRoom.close();
        await chat.close();
      })(),
    );
    if (!(await drained)) {
      // Uploads still running are refused with their own message and leave nothing behind;
      // whatever is still waiting then (on a silent database) is answered 503 with a message.
      log.warn({ timeoutMs: requestsMs, active: drain.active() }, 'requests still running at the shutdown deadline; refusing them');
      deadline.abort();
      await drain.settle(Math.min(1_000, left() / 2));
      await drain.cutShort(Math.min(500, left() / 2));
      drain.destroyAll();
    }
    // The message being sent may finish; anything left stays in the outbox (its
    // lease ends) for another node or the next start. Bounded by what is left of
    // the deadline, because the database may be the reason we are being stopped:
    // nothing here is lost by not waiting, every piece of work is in the database.
    const cleaned = await within(
      Math.max(100, left()),
      (async () => {
        await outboxWorker.stop();
        await retention.stop();
        await assembly.stop();
        stallWatch.stop();
        await onDemand.stop();
        await close();
        await database.close();
      })(),
    );
    if (!cleaned) log.warn({ timeoutMs: shutdownTimeoutMs }, 'background work or the database did not finish closing by the deadline; exiting anyway');
    log.info('shutdown complete');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  if (error instanceof DataDirLockedError || (error instanceof Error && error.message.startsWith('Invalid configuration'))) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
