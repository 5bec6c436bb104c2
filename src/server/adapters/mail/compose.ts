import type Mail from 'nodemailer/lib/mailer';
import type { MailMessage } from './types.ts';

/** Our message as nodemailer's options; both transports build the same RFC 5322 text. */
export function toNodemailer(from: string, message: MailMessage): Mail.Options {
  return {
    from,
    to: message.to,
    replyTo: message.replyTo,
    subject: message.subject,
    text: message.text,
    html: message.html,
    messageId: `<${message.messageId}>`,
    attachments: message.attachments?.map((a) => ({ filename: a.filename, content: a.content, contentType: a.contentType })),
    // Nobody should answer an automatic message to the "from" robot by accident.
    headers: { 'Auto-Submitted': 'auto-generated' },
  };
}
