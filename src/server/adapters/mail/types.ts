/**
 * One email, fully rendered. `messageId` is chosen by the sender (the outbox
 * row's id), so a message that is sent again after a crash carries the same
 * Message-ID and mail systems can recognise the duplicate.
 */
export interface MailMessage {
  /** Without angle brackets, e.g. `3f1c…@notaryonline.us`. */
  messageId: string;
  to: string;
  replyTo?: string;
  subject: string;
  text: string;
  html: string;
  attachments?: MailAttachment[];
}

export interface MailAttachment {
  filename: string;
  contentType: string;
  /** UTF-8 text (an .ics, say); binary attachments are not needed yet. */
  content: string;
}

/** Where messages go: an SMTP server, or the local mailbox folder. */
export interface MailTransport {
  kind: 'smtp' | 'mailbox';
  /** Resolves once the message is accepted; rejects on any failure (the outbox retries). */
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
  /** Local mailbox only: proves its folder can be written (for /readyz). */
  ping?(): Promise<void>;
  /** Local mailbox only: removes temporary files a crash left mid-write before `olderThan`; returns how many. */
  sweep?(olderThan: Date): Promise<number>;
}
