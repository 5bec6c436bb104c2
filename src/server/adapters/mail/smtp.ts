import type { Transporter } from 'nodemailer';
import type { Logger } from '../../logger.ts';
import { toNodemailer } from './compose.ts';
import type { MailTransport } from './types.ts';

/**
 * nodemailer over SMTP (`SMTP_URL`, e.g. smtps://user:pass@host:465). The
 * timeouts are short enough that an unreachable server fails the attempt well
 * inside the outbox lease, so the outbox (not this adapter) does the retrying.
 */
export function createSmtpTransport(options: { url: string; from: string; log: Logger }): MailTransport {
  // nodemailer (about 40 files) loads with the first message, not at start.
  let transporter: Promise<Transporter> | undefined;
  const connect = () =>
    (transporter ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        url: options.url,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
      } as never),
    ));
  return {
    kind: 'smtp',
    async send(message) {
      const info = await (await connect()).sendMail(toNodemailer(options.from, message));
      options.log.info({ messageId: message.messageId, to: message.to, subject: message.subject, response: info.response }, 'mail sent');
    },
    async close() {
      (await transporter)?.close();
    },
  };
}
