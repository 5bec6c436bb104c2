import type { Deps } from '../../deps.ts';
import { writeAudit } from '../audit.ts';
import { hideSecrets } from './secrets.ts';
import type { StaffIdentity } from '../staff/session.ts';
import { hiddenLinkText, type MailStatus } from '../../../shared/console.ts';
import * as repo from './mail-repository.ts';
import { DomainError } from '../../errors.ts';

/**
 * The mail outbox for staff: what was sent, what is waiting, what failed and
 * why — the "list in the staff console" of the dev mailbox, and the delivery
 * log when SMTP is configured.
 */

const notFound = () => new DomainError('NOT_FOUND', 'Message not found');

export async function listMail(deps: Deps, input: { status: MailStatus | 'all' }) {
  const rows = await repo.listOutbox(deps.db, { status: input.status === 'all' ? undefined : input.status });
  return rows.map((row) => ({ ...row, to: row.to ?? '', subject: row.subject ?? '' }));
}

/**
 * One message as it was (or will be) sent, minus its secrets: manage-link and
 * invitation tokens are blanked in the stored copy once sent, and here also
 * while a message is still pending or failed, so the console never shows a
 * link that works.
 */
export async function getMail(deps: Deps, messageId: string) {
  const row = await repo.findOutbox(deps.db, messageId);
  if (!row) throw notFound();
  const message = hideSecrets(row.payload.message, hiddenLinkText, row.payload.secrets);
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    attempts: row.attempts,
    lastError: row.lastError,
    nextAttemptAt: row.nextAttemptAt,
    sentAt: row.sentAt,
    createdAt: row.createdAt,
    to: message.to,
    replyTo: message.replyTo ?? null,
    subject: message.subject,
    html: message.html,
    text: message.text,
    attachments: (message.attachments ?? []).map((a) => ({ filename: a.filename, contentType: a.contentType, sizeBytes: Buffer.byteLength(a.content) })),
    retryable: row.status === 'failed' || (row.status === 'pending' && (!row.lockedUntil || row.lockedUntil <= deps.now())),
  };
}

/** "Retry now": the message is due at once; a worker (every node polls) picks it up within seconds. */
export async function retryMail(deps: Deps, staff: StaffIdentity, messageId: string): Promise<void> {
  const row = await repo.findOutbox(deps.db, messageId);
  if (!row) throw notFound();
  if (row.status === 'sent') throw new DomainError('CONFLICT', 'This message has already been sent.');
  if (!(await repo.requeueOutbox(deps.db, messageId, deps.now()))) {
    throw new DomainError('CONFLICT', 'This message is being sent right now.');
  }
  await writeAudit(deps.db, {
    actorType: 'staff',
    actorId: staff.user.id,
    action: 'mail.retry_requested',
    entityType: 'outbox',
    entityId: messageId,
    data: { previousStatus: row.status, attempts: row.attempts },
  });
}
