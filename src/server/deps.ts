import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import type { Logger } from './logger.ts';
import { createMailTransport, type MailTransport } from './adapters/mail/index.ts';
import { createStorage, type ObjectStorage } from './adapters/storage/index.ts';
import { createScanner, type VirusScanner } from './adapters/scanner/index.ts';
import { createPaymentProvider, type PaymentProvider } from './adapters/payments/index.ts';
import { secretBoxFromConfig, type SecretBox } from './crypto/secret-box.ts';
import { createIdentityProvider, type AnyIdentityProvider } from './adapters/identity/index.ts';
import { NodeRateCounters } from './rate-limit.ts';
import { createKbaProvider, type KbaProvider } from './adapters/kba/index.ts';

/**
 * Everything a request handler or a service may reach outside its own code,
 * built once by `buildDeps` (in `serve.ts`, or by a test) and passed down.
 * Each outside service is an adapter chosen here from configuration.
 */
export interface Deps {
  config: Config;
  database: Database;
  db: Db;
  log: Logger;
  /** Outgoing email (SMTP or the local .eml mailbox); only the outbox worker calls it. */
  mail: MailTransport;
  /** Private document storage (local folder or S3), bucket ensured at start-up. */
  storage: ObjectStorage;
  /** Virus scanner for uploads; absent → documents are marked `skipped`. */
  scanner?: VirusScanner;
  /** Stripe, or the built-in test provider when no Stripe keys are set. */
  payments: PaymentProvider;
  /** Seals secrets at rest with the data-encryption key (decision 023). */
  secrets: SecretBox;
  /** Stripe Identity, or the TEST MODE provider when no Stripe keys are set. */
  identity: AnyIdentityProvider;
  /** Knowledge-based authentication: IDology ExpectID IQ, or the TEST MODE provider. */
  kba: KbaProvider;
  /** The clock, replaceable in tests. */
  now: () => Date;
  /** This node's rate-limit counters (rules with `scope: 'shared'` count in the database instead). */
  rateCounters: NodeRateCounters;
  /** Aborted at the shutdown deadline (serve.ts): work still running, such as an upload, stops cleanly. */
  deadline?: AbortSignal;
}

export async function buildDeps(config: Config, database: Database, log: Logger): Promise<Deps> {
  const storage = await createStorage(config);
  await storage.ensureBucket();
  return {
    config,
    database,
    db: database.db,
    log,
    mail: createMailTransport(config, log),
    storage,
    scanner: createScanner(config),
    payments: await createPaymentProvider(config),
    secrets: secretBoxFromConfig(config),
    identity: await createIdentityProvider(config),
    kba: createKbaProvider(config),
    now: () => new Date(),
    rateCounters: new NodeRateCounters(),
  };
}
