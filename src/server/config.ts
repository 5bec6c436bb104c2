import { z } from 'zod';
import { isCommissionState } from '../shared/commission-zones.ts';

/**
 * Every environment variable the server reads, validated once at start-up.
 * Documented one by one in `.env.example`; a bad value stops the process with
 * a message naming the variable.
 */
const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);
const optionalString = z.preprocess(emptyAsUndefined, z.string().optional());
const optionalUrl = z.preprocess(emptyAsUndefined, z.url().optional());
const boolean = (fallback: boolean) =>
  z.preprocess(
    (value) => (value === undefined || value === '' ? fallback : ['1', 'true', 'yes', 'on'].includes(String(value).toLowerCase())),
    z.boolean(),
  );

/**
 * The default maximum fee per remote notarial act by commissioning state, in cents (decision
 * 108): the statutory figures we know; states not listed (Iowa among them) set no maximum here.
 * A business must check its notaries' states and set NOTARY_MAX_FEE_CENTS_BY_STATE.
 */
export const defaultMaxFeeCentsByState: Record<string, number> = {
  Florida: 2500,
  Indiana: 2500,
  Minnesota: 2500,
  Ohio: 3000,
  Texas: 2500,
  Virginia: 2500,
};

const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  DATA_DIR: z.string().default('./data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Trust X-Forwarded-* from this many proxies in front (load balancer). */
  TRUST_PROXY: z.coerce.number().int().min(0).default(0),

  DATABASE_URL: optionalUrl,
  /** PostgreSQL: longest statement (statement_timeout); every other database wait is derived from it (docs/decisions/027). */
  DATABASE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(15),
  /** On SIGTERM the process exits within this; requests already received get all of it but the last 2 s (docs/decisions/028, 075). */
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(10),
  /**
   * /healthz answers 503 "stuck" when the chat link between nodes stays down this long while
   * the database answers; its reconnection backoff is capped at half of it (docs/decisions/076).
   */
  LIVENESS_STUCK_SECONDS: z.coerce.number().int().min(2).max(3600).default(60),
  /** A running recording with no chunk for this long: the notary's room warns (chunks come every 2 s; decision 103). */
  RECORDING_STALL_SECONDS: z.coerce.number().int().min(4).max(300).default(10),

  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: z.string().default('notary-uploads'),
  S3_REGION: z.string().default('us-east-1'),
  S3_ENDPOINT: optionalUrl,
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: boolean(false),

  STRIPE_SECRET_KEY: optionalString,
  STRIPE_PUBLISHABLE_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  /** Only for tests: where the Stripe SDK sends its requests (a local stand-in). */
  STRIPE_API_BASE: optionalUrl,
  /** The built-in test payment provider on a public (non-loopback) PUBLIC_URL: refused unless this says so. */
  ALLOW_TEST_PAYMENTS: boolean(false),
  /** The built-in TEST MODE identity providers (credential analysis, KBA) on a public PUBLIC_URL: refused unless this says so (separate from payments). */
  ALLOW_TEST_IDENTITY: boolean(false),

  /** IDology ExpectID IQ (knowledge-based authentication); both set → IDology, none → the TEST MODE provider. */
  IDOLOGY_USERNAME: optionalString,
  IDOLOGY_PASSWORD: optionalString,
  IDOLOGY_API_BASE: z.preprocess(emptyAsUndefined, z.url().default('https://web.idologylive.com/api')),
  /** Identity questions must have been passed within this many hours before the session starts. */
  KBA_FRESHNESS_HOURS: z.coerce.number().int().min(1).max(720).default(24),

  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().default('NotaryOnline <bookings@notaryonline.example>'),
  STAFF_EMAIL: z.string().default('staff@notaryonline.example'),
  SALES_EMAIL: z.string().default('sales@notaryonline.example'),

  BOOKING_BASE_FEE_CENTS: z.coerce.number().int().min(50).default(2500),
  BOOKING_EXTRA_DOCUMENT_FEE_CENTS: z.coerce.number().int().min(0).default(0),
  /** Fee per co-signer besides the customer (witnesses are free); docs/product.md §4.6, decision 125. */
  BOOKING_EXTRA_SIGNER_FEE_CENTS: z.coerce.number().int().min(0).max(100_000).default(0),
  /**
   * The most a notary may charge for one act, by commissioning state, in cents, as JSON
   * ({"Florida":2500}); replaces the default table (docs/product.md §12.11, decision 108).
   * A state absent from it has no cap beyond what the customer paid.
   */
  NOTARY_MAX_FEE_CENTS_BY_STATE: z.preprocess(
    (value) => {
      if (value === undefined || value === '') return defaultMaxFeeCentsByState;
      try {
        return JSON.parse(String(value));
      } catch {
        return value;
      }
    },
    z.record(
      z.string().refine(isCommissionState),
      z.number({ error: 'each maximum is a whole number of cents (e.g. 2500 for $25)' }).int().min(0).max(1_000_000),
      { error: 'a JSON object of US state names, as on the commission, to cents, e.g. {"Florida":2500}' },
    ),
  ),
  BOOKING_SLOT_CAPACITY: z.coerce.number().int().min(1).default(3),
  BOOKING_HOLD_MINUTES: z.coerce.number().int().min(1).default(15),
  BOOKING_MIN_NOTICE_MINUTES: z.coerce.number().int().min(0).default(60),
  BOOKING_WINDOW_DAYS: z.coerce.number().int().min(1).default(60),
  /** Notarize now: a customer nobody accepted within this many minutes is offered a scheduled time or a full refund (decision 110). */
  ON_DEMAND_MAX_WAIT_MINUTES: z.coerce.number().int().min(1).max(240).default(15),

  SESSION_COOKIE_SECURE: boolean(true),
  CLAMAV_HOST: optionalString,
  CLAMAV_PORT: z.coerce.number().int().default(3310),
  DOCUMENT_RETENTION_DAYS: z.coerce.number().int().min(1).default(30),
  /** Sealed (notarized) copies are deleted this long after sealing; the journal keeps their hash (decision 092). */
  NOTARIZED_DOCUMENT_RETENTION_DAYS: z.coerce.number().int().min(1).default(90),
  /** Bookings never paid for (draft, held, awaiting payment) are cancelled and their documents deleted after this long idle. */
  BOOKING_DRAFT_RETENTION_HOURS: z.coerce.number().int().min(1).default(48),
  /** 32 bytes (base64 or hex) sealing secrets at rest: TOTP keys, manage links awaiting an email (decision 023). */
  DATA_ENCRYPTION_KEY: optionalString,
  /** The key in use before a rotation: still opens what it sealed. */
  DATA_ENCRYPTION_KEY_PREVIOUS: optionalString,
  /** The notary journal is kept this long (the recordings' period by default: 10 years). */
  JOURNAL_RETENTION_DAYS: z.coerce.number().int().min(1).default(3650),
  /** Ed25519 private key (32-byte seed, base64 or hex) signing journal checkpoints (decision 090); unset: generated once, sealed in the database. */
  JOURNAL_SIGNING_KEY: optionalString,
  /** Video sessions (docs/decisions/030-session-room.md): comma-separated ICE server URLs. */
  STUN_URLS: optionalString,
  TURN_URLS: optionalString,
  /** coturn `static-auth-secret`: each participant gets a short-lived username/credential from it. */
  TURN_SECRET: optionalString,
  TURN_CREDENTIAL_TTL_SECONDS: z.coerce.number().int().min(60).max(7 * 86400).default(14_400),
  /** Session recordings are deleted this long after they were stored (RULONA 2018 model: 10 years). */
  RECORDING_RETENTION_DAYS: z.coerce.number().int().min(1).default(3650),
  /** RFC 3161 timestamp authority for seals (PAdES B-T up to B-LTA, docs/decisions/060); unset: B-B. */
  TSA_URL: optionalUrl,
  TSA_USERNAME: optionalString,
  TSA_PASSWORD: optionalString,
});

export type Config = z.infer<typeof configSchema> & {
  /** Absolute base URL without a trailing slash, e.g. https://notaryonline.example */
  publicUrl: string;
  paymentsMode: 'stripe' | 'test';
  /** Stripe Identity with the Stripe keys, otherwise the TEST MODE provider (which accepts any ID). */
  identityMode: 'stripe' | 'test';
  kbaMode: 'idology' | 'test';
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration in the environment:\n${lines.join('\n')}\nSee .env.example.`);
  }
  const values = parsed.data;
  const stripeKeys = [values.STRIPE_SECRET_KEY, values.STRIPE_PUBLISHABLE_KEY, values.STRIPE_WEBHOOK_SECRET];
  const stripeSet = stripeKeys.filter(Boolean).length;
  if (stripeSet > 0 && stripeSet < 3) {
    throw new Error(
      'Invalid configuration in the environment:\n  STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET must be set together (or none, for the built-in test provider).',
    );
  }
  if (!values.IDOLOGY_USERNAME !== !values.IDOLOGY_PASSWORD) {
    throw new Error('Invalid configuration in the environment:\n  IDOLOGY_USERNAME and IDOLOGY_PASSWORD must be set together (or neither, for the built-in TEST MODE identity questions).');
  }
  const host = values.HOST === '0.0.0.0' || values.HOST === '::' ? 'localhost' : values.HOST;
  const publicUrl = (values.PUBLIC_URL ?? `http://${host}:${values.PORT}`).replace(/\/+$/, '');
  const mode = stripeSet === 3 ? 'stripe' : 'test';
  return { ...values, publicUrl, paymentsMode: mode, identityMode: mode, kbaMode: values.IDOLOGY_USERNAME ? 'idology' : 'test' };
}

/** Whether `url` points at this machine only (a local run or a test), not a public site. */
export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * What a public site must not run with (docs/decisions/024-deployment-guard.md).
 * A built-in test provider on a public address would take the published test
 * card as payment: each one is refused there unless a variable whose name says
 * "test" turns it on, one variable per provider: a demo that takes the test
 * card on purpose must not also accept any ID as verified by accident.
 * Add a line here for every new provider that has a built-in test stand-in.
 * Returns the problems, empty when the configuration may start.
 */
export function deploymentProblems(config: Config): string[] {
  if (isLoopbackUrl(config.publicUrl)) return [];
  const problems: string[] = [];
  if (config.paymentsMode === 'test' && !config.ALLOW_TEST_PAYMENTS) {
    problems.push(
      `PUBLIC_URL (${config.publicUrl}) is public but payments are not configured: set STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET, or ALLOW_TEST_PAYMENTS=true to take the test card on purpose (no real money).`,
    );
  }
  if (config.identityMode === 'test' && !config.ALLOW_TEST_IDENTITY) {
    problems.push(
      `PUBLIC_URL (${config.publicUrl}) is public but identity proofing is not configured: set STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET (Stripe Identity), or ALLOW_TEST_IDENTITY=true to run the TEST MODE identity provider on purpose (it accepts any ID as verified).`,
    );
  }
  if (config.kbaMode === 'test' && !config.ALLOW_TEST_IDENTITY) {
    problems.push(
      `PUBLIC_URL (${config.publicUrl}) is public but identity questions (KBA) are not configured: set IDOLOGY_USERNAME and IDOLOGY_PASSWORD, or ALLOW_TEST_IDENTITY=true to run the TEST MODE identity providers on purpose (no real identity check).`,
    );
  }
  if (!config.DATA_ENCRYPTION_KEY) {
    problems.push(
      `PUBLIC_URL (${config.publicUrl}) is public but DATA_ENCRYPTION_KEY is not set: set it to 32 random bytes (\`openssl rand -base64 32\`), the same on every node.`,
    );
  }
  return problems;
}

/** Throws, naming the variables, when `deploymentProblems` finds any (start-up calls it). */
export function assertDeployable(config: Config): void {
  const problems = deploymentProblems(config);
  if (problems.length > 0) throw new Error(`Invalid configuration in the environment:\n${problems.map((p) => `  ${p}`).join('\n')}`);
}
