import { createServer } from 'node:http';
import { loadConfig } from './config.ts';
import { createApp } from './app.ts';
import { DataDirLockedError, openDatabase } from './db/client.ts';
import { buildDeps } from './deps.ts';
import { attachChat } from './features/chat/socket.ts';
import { startOutboxWorker } from './features/notifications/worker.ts';
import { createLogger } from './logger.ts';

/** Start-up only: configuration, database, HTTP, shutdown. */
async function main() {
  const config = loadConfig();
  const log = createLogger(config.LOG_LEVEL);
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  const deps = await buildDeps(config, database, log);

  const mode = config.NODE_ENV === 'production' ? 'production' : 'development';
  const { app, close } = await createApp(deps, { pages: mode });
  const server = createServer(app);
  const chat = await attachChat(server, deps);
  // Every process delivers the outbox; the claims keep them from sending twice.
  const outboxWorker = startOutboxWorker(deps);
  server.listen(config.PORT, config.HOST, () => {
    log.info({ url: config.publicUrl, database: database.driver, payments: config.paymentsMode }, 'server listening');
  });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    server.close();
    server.closeIdleConnections();
    // Open sockets would keep server.close() waiting; the clients reconnect to another node.
    await chat.close();
    // Lets the message being sent finish; anything left stays in the outbox for the next start.
    await outboxWorker.stop();
    await close();
    await database.close();
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
