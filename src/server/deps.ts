import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import type { Logger } from './logger.ts';

/**
 * Everything a request handler or a service may reach outside its own code,
 * built once in `main.ts` (or by a test) and passed down. Adapters for outside
 * services (storage, mail, payments) are added here as they are chosen.
 */
export interface Deps {
  config: Config;
  database: Database;
  db: Db;
  log: Logger;
  /** The clock, replaceable in tests. */
  now: () => Date;
}
