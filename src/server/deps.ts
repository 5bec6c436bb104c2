import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import type { Logger } from './logger.ts';
import { createMailTransport, type MailTransport } from './adapters/mail/index.ts';

/**
 * Everything a request handler or a service may reach outside its own code,
 * built once by `buildDeps` (in `main.ts`, or by a test) and passed down.
 * Each outside service is an adapter chosen here from configuration.
 */
export interface Deps {
  config: Config;
  database: Database;
  db: Db;
  log: Logger;
  /** Outgoing email (SMTP or the local .eml mailbox); only the outbox worker calls it. */
  mail: MailTransport;
  /** The clock, replaceable in tests. */
  now: () => Date;
}

export async function buildDeps(config: Config, database: Database, log: Logger): Promise<Deps> {
  return { config, database, db: database.db, log, mail: createMailTransport(config, log), now: () => new Date() };
}
