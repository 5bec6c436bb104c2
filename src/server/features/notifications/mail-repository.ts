import { and, desc, eq, or, isNull, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { outbox } from '../../db/schema.ts';
import type { MailStatus } from '../../../shared/console.ts';
import type { OutboxPayload } from './repository.ts';

/** The console's reads of the mail outbox: the list never loads message bodies. */

/** What the list and the detail both show of a message's delivery. */
const deliveryColumns = {
  id: outbox.id,
  kind: outbox.kind,
  status: outbox.status,
  attempts: outbox.attempts,
  lastError: outbox.lastError,
  nextAttemptAt: outbox.nextAttemptAt,
  sentAt: outbox.sentAt,
  createdAt: outbox.createdAt,
};

export async function listOutbox(db: DbOrTx, filter: { status?: MailStatus }, limit = 200) {
  return db
    .select({
      ...deliveryColumns,
      to: sql<string>`${outbox.payload} -> 'message' ->> 'to'`,
      subject: sql<string>`${outbox.payload} -> 'message' ->> 'subject'`,
    })
    .from(outbox)
    .where(filter.status ? eq(outbox.status, filter.status) : undefined)
    .orderBy(desc(outbox.createdAt), desc(outbox.id))
    .limit(limit);
}

export async function findOutbox(db: DbOrTx, id: string) {
  const [row] = await db
    .select({
      ...deliveryColumns,
      lockedUntil: outbox.lockedUntil,
      payload: outbox.payload,
    })
    .from(outbox)
    .where(eq(outbox.id, id));
  return row ? { ...row, payload: row.payload as OutboxPayload } : null;
}

/**
 * Makes a failed message (or one waiting for its next attempt) due now. A row a
 * worker has claimed and is sending is left alone; a sent one never returns.
 */
export async function requeueOutbox(db: DbOrTx, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(outbox)
    .set({ status: 'pending', nextAttemptAt: now, lockedUntil: null })
    .where(
      and(
        eq(outbox.id, id),
        or(eq(outbox.status, 'failed'), and(eq(outbox.status, 'pending'), or(isNull(outbox.lockedUntil), lte(outbox.lockedUntil, now)))),
      ),
    )
    .returning({ id: outbox.id });
  return rows.length === 1;
}
