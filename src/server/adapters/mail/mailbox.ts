import { mkdir } from 'node:fs/promises';
import { probeWritable, sweepTemporaryFiles, writeFileAtomic } from '../../fs/atomic.ts';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type { Logger } from '../../logger.ts';
import { toNodemailer } from './compose.ts';
import type { MailTransport } from './types.ts';

/**
 * The embedded default: every message is rendered exactly as SMTP would carry
 * it (nodemailer's stream transport, CRLF line ends) and kept as an .eml file
 * that any mail program opens, plus one log line.
 */
export function createMailboxTransport(options: { dir: string; from: string; log: Logger }): MailTransport {
  // nodemailer (about 40 files) loads with the first message, not at start.
  let builder: Promise<Transporter> | undefined;
  const build = () =>
    (builder ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' })));
  return {
    kind: 'mailbox',
    async send(message) {
      const info = await (await build()).sendMail(toNodemailer(options.from, message));
      await mkdir(options.dir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('.', '');
      const local = message.messageId.split('@')[0]!.replace(/[^A-Za-z0-9-]/g, '');
      const file = path.join(options.dir, `${stamp}-${local}.eml`);
      // Whole or not at all: a full disk once left .eml files cut off mid-headers.
      await writeFileAtomic(file, info.message as Buffer);
      options.log.info({ messageId: message.messageId, to: message.to, subject: message.subject, file }, 'mail kept in the local mailbox');
    },
    async close() {},
    async ping() {
      await mkdir(options.dir, { recursive: true });
      await probeWritable(options.dir);
    },
    async sweep(olderThan) {
      return sweepTemporaryFiles(options.dir, olderThan);
    },
  };
}
