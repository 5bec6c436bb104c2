import nodemailer from 'nodemailer';
import type { Logger } from '../../logger.ts';
import { toNodemailer } from './compose.ts';
import type { MailTransport } from './types.ts';

/**
 * nodemailer over SMTP (`SMTP_URL`, e.g. smtps://user:pass@host:465). The
 * timeouts are short enough that an unreachable server fails the attempt well
 * inside the outbox lease, so the outbox (not this adapter) does the retrying.
 */
export function createSmtpTransport(options: { url: string; from: string; log: Logger }): MailTransport {
  const transporter = nodemailer.createTransport({
    url: options.url,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  } as never);
  return {
    kind: 'smtp',
    async send(message) {
      const info = await transporter.sendMail(toNodemailer(options.from, message));
      options.log.info({ messageId: message.messageId, to: message.to, subject: message.subject, response: info.response }, 'mail sent');
    },
    async close() {
      transporter.close();
    },
  };
}
