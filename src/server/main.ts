import { createServer } from 'node:http';
import { loadConfig } from './config.ts';
import { createApp } from './app.ts';
import { DataDirLockedError, openDatabase } from './db/client.ts';
import { buildDeps } from './deps.ts';
import { attachChat } from './features/chat/socket.ts';
import { startOutboxWorker } from './features/notifications/worker.ts';
import { startRetentionJob } from './features/retention/scheduler.ts';
import { createLogger } from './logger.ts';

/** How long requests in flight (an upload, a payment) may take to finish on shutdown. */
const shutdownTimeoutMs = 10_000;

/** Start-up only: configuration, database, HTTP, shutdown. */
async function main() {
  const config = loadConfig();
  const log = createLogger(config.LOG_LEVEL);
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    onError: (err) => log.warn({ err }, 'database connection lost; the pool reconnects'),
  });
  const deps = await buildDeps(config, database, log);

  const mode = config.NODE_ENV === 'production' ? 'production' : 'development';
  const { app, readiness, close } = await createApp(deps, { pages: mode });
  const server = createServer(app);
  const chat = await attachChat(server, deps);
  // Every process delivers the outbox; the claims keep them from sending twice.
  const outboxWorker = startOutboxWorker(deps);
  // Every process runs it too; SKIP LOCKED shares the rows out.
  const retention = startRetentionJob(deps);
  server.listen(config.PORT, config.HOST, () => {
    log.info({ url: config.publicUrl, database: database.driver, payments: config.paymentsMode }, 'server listening');
  });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    // A second signal, or requests that never finish, must not keep the process alive.
    const force = setTimeout(() => {
      log.error('shutdown took too long; exiting');
      process.exit(1);
    }, shutdownTimeoutMs + 5_000);
    force.unref();
    // /readyz answers 503 from now on, for a load balancer still probing.
    readiness.draining = true;
    // Stop accepting; requests in flight finish. Keep-alive connections are
    // closed as soon as they are idle, so no new request starts on them.
    const drained = new Promise<void>((resolve) => server.close(() => resolve()));
    const closeIdle = setInterval(() => server.closeIdleConnections(), 100);
    server.closeIdleConnections();
    // Open sockets would keep server.close() waiting; the clients reconnect to another node.
    await chat.close();
    const timedOut = await Promise.race([
      drained.then(() => false),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(true), shutdownTimeoutMs).unref()),
    ]);
    clearInterval(closeIdle);
    if (timedOut) {
      log.warn({ timeoutMs: shutdownTimeoutMs }, 'requests still running at the shutdown deadline; closing them');
      server.closeAllConnections();
    }
    // Lets the message being sent finish; anything left stays in the outbox for the next start.
    await outboxWorker.stop();
    await retention.stop();
    await close();
    await database.close();
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
