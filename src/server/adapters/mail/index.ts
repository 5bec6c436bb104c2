import path from 'node:path';
import type { Config } from '../../config.ts';
import type { Logger } from '../../logger.ts';
import { createMailboxTransport } from './mailbox.ts';
import { createSmtpTransport } from './smtp.ts';
import type { MailTransport } from './types.ts';

export type { MailAttachment, MailMessage, MailTransport } from './types.ts';

/** SMTP when `SMTP_URL` is set; otherwise .eml files under `DATA_DIR/mail`. */
export function createMailTransport(config: Config, log: Logger): MailTransport {
  if (config.SMTP_URL) return createSmtpTransport({ url: config.SMTP_URL, from: config.MAIL_FROM, log });
  return createMailboxTransport({ dir: path.join(config.DATA_DIR, 'mail'), from: config.MAIL_FROM, log });
}
