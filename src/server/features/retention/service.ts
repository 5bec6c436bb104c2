import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import { writeAudit } from '../audit.ts';

/** Bookings whose appointment is over: their documents are kept only for the retention period. */
export const finishedStatuses = ['completed', 'no_show', 'cancelled'] as const;

const batchSize = 50;

export interface RetentionRun {
  deleted: number;
  failed: number;
}

/**
 * Deletes the bytes of documents belonging to bookings that finished more than
 * DOCUMENT_RETENTION_DAYS ago, then marks each document `deleted` and writes
 * an audit entry. Several nodes may run this at once: each batch claims its
 * rows with `FOR UPDATE SKIP LOCKED`, so a document is handled by one node and
 * the others move on to the next rows.
 *
 * When the booking finished: cancelled → cancelled_at; completed / no-show →
 * the appointment time (the status change itself is not timestamped).
 */
export async function purgeExpiredDocuments(deps: Deps): Promise<RetentionRun> {
  const cutoff = new Date(deps.now().getTime() - deps.config.DOCUMENT_RETENTION_DAYS * 86_400_000);
  const run: RetentionRun = { deleted: 0, failed: 0 };
  const skip = new Set<string>();

  while (true) {
    const batch = await deps.db.transaction(async (tx) => {
      const rows = await queryRows<{ id: string; booking_id: string; storage_key: string; status: string }>(
        tx,
        sql`select d.id, d.booking_id, d.storage_key, d.status
              from documents d
              join bookings b on b.id = d.booking_id
             where d.status <> 'deleted'
               and b.status in ('completed', 'no_show', 'cancelled')
               and coalesce(case when b.status = 'cancelled' then b.cancelled_at end, b.starts_at, b.updated_at)
                   < ${cutoff.toISOString()}::timestamptz
               ${skip.size > 0 ? sql`and d.id not in (${sql.join([...skip].map((id) => sql`${id}::uuid`), sql`, `)})` : sql``}
             order by d.created_at
             limit ${batchSize}
             for update of d skip locked`,
      );
      for (const row of rows) {
        try {
          // Bytes first: if the row update were lost, the next run deletes again
          // (deleting a missing object is a no-op); the reverse would leak bytes.
          await deps.storage.delete(row.storage_key);
        } catch (error) {
          deps.log.error({ err: error, documentId: row.id }, 'retention: could not delete document bytes');
          skip.add(row.id);
          run.failed++;
          continue;
        }
        await tx.execute(
          sql`update documents set status = 'deleted', deleted_at = ${deps.now().toISOString()}::timestamptz,
                upload_token_hash = null where id = ${row.id}::uuid`,
        );
        await writeAudit(tx, {
          actorType: 'system',
          action: 'document.retention_deleted',
          entityType: 'document',
          entityId: row.id,
          data: { bookingId: row.booking_id, previousStatus: row.status, retentionDays: deps.config.DOCUMENT_RETENTION_DAYS },
        });
        run.deleted++;
      }
      return rows.length;
    });
    if (batch < batchSize) break;
  }
  if (run.deleted > 0 || run.failed > 0) deps.log.info({ ...run }, 'retention: expired documents purged');
  return run;
}
