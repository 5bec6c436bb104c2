import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * Structured JSON logs. Anything that could carry a secret is redacted by
 * path, so a careless `log.info({ req })` cannot leak a cookie or a token.
 */
export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level,
      redact: {
        paths: [
          'req.headers.cookie',
          'req.headers.authorization',
          'req.headers["stripe-signature"]',
          'res.headers["set-cookie"]',
          '*.password',
          '*.token',
          '*.clientSecret',
          '*.client_secret',
          '*.card',
        ],
        censor: '[redacted]',
      },
    },
    destination as never,
  );
}
