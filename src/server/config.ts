import { z } from 'zod';

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

  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().default('NotaryOnline <bookings@notaryonline.example>'),
  STAFF_EMAIL: z.string().default('staff@notaryonline.example'),
  SALES_EMAIL: z.string().default('sales@notaryonline.example'),

  BOOKING_BASE_FEE_CENTS: z.coerce.number().int().min(50).default(2500),
  BOOKING_EXTRA_DOCUMENT_FEE_CENTS: z.coerce.number().int().min(0).default(0),
  BOOKING_SLOT_CAPACITY: z.coerce.number().int().min(1).default(3),
  BOOKING_HOLD_MINUTES: z.coerce.number().int().min(1).default(15),
  BOOKING_MIN_NOTICE_MINUTES: z.coerce.number().int().min(0).default(60),
  BOOKING_WINDOW_DAYS: z.coerce.number().int().min(1).default(60),

  SESSION_COOKIE_SECURE: boolean(true),
  CLAMAV_HOST: optionalString,
  CLAMAV_PORT: z.coerce.number().int().default(3310),
  DOCUMENT_RETENTION_DAYS: z.coerce.number().int().min(1).default(30),
  /** Bookings never paid for (draft, held, awaiting payment) are cancelled and their documents deleted after this long idle. */
  BOOKING_DRAFT_RETENTION_HOURS: z.coerce.number().int().min(1).default(48),
  REDIS_URL: optionalUrl,
});

export type Config = z.infer<typeof configSchema> & {
  /** Absolute base URL without a trailing slash, e.g. https://notaryonline.example */
  publicUrl: string;
  paymentsMode: 'stripe' | 'test';
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
  const host = values.HOST === '0.0.0.0' || values.HOST === '::' ? 'localhost' : values.HOST;
  const publicUrl = (values.PUBLIC_URL ?? `http://${host}:${values.PORT}`).replace(/\/+$/, '');
  return { ...values, publicUrl, paymentsMode: stripeSet === 3 ? 'stripe' : 'test' };
}
