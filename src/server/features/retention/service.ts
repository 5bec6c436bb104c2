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

/** Statuses of a booking nobody has paid for yet. */
export const unpaidStatuses = ['draft', 'held', 'awaiting_payment'] as const;

export interface AbandonedRun {
  cancelled: number;
  documentsDeleted: number;
  failed: number;
}

/**
 * Bookings started but never paid for — draft, held or awaiting payment, with
 * no payment that succeeded or is under way — and left alone for
 * BOOKING_DRAFT_RETENTION_HOURS: their documents' bytes are deleted (nobody
 * is going to notarise them, and we should not keep identity papers we do
 * not need) and the booking becomes cancelled with reason 'abandoned'.
 *
 * "Left alone" is the latest of the booking's creation, its last change and
 * its last upload. Several nodes may run this at once: each batch claims its
 * bookings with `FOR UPDATE SKIP LOCKED`, and a booking whose documents are
 * locked (an upload finishing right now) is skipped — someone is using it.
 *
 * The slot's advisory lock is deliberately not taken: cancelling only ever
 * frees capacity, and taking it after the row lock would invert the booking
 * service's lock order (slot, then row).
 */
export async function cancelAbandonedBookings(deps: Deps): Promise<AbandonedRun> {
  const hours = deps.config.BOOKING_DRAFT_RETENTION_HOURS;
  const cutoff = new Date(deps.now().getTime() - hours * 3_600_000);
  const run: AbandonedRun = { cancelled: 0, documentsDeleted: 0, failed: 0 };
  const skip = new Set<string>();

  while (true) {
    const claimed = await deps.db.transaction(async (tx) => {
      const rows = await queryRows<{ id: string; status: string }>(
        tx,
        sql`select b.id, b.status
              from bookings b
             where b.status in ('draft', 'held', 'awaiting_payment')
               and greatest(b.created_at, b.updated_at,
                            coalesce((select max(d.created_at) from documents d where d.booking_id = b.id), b.created_at))
                   < ${cutoff.toISOString()}::timestamptz
               and not exists (select 1 from payments p
                                where p.booking_id = b.id
                                  and p.status in ('succeeded', 'processing', 'requires_capture', 'refunded'))
               ${skip.size > 0 ? sql`and b.id not in (${sql.join([...skip].map((id) => sql`${id}::uuid`), sql`, `)})` : sql``}
             order by b.created_at
             limit ${batchSize}
             for update of b skip locked`,
      );
      for (const booking of rows) {
        const docs = await queryRows<{ id: string; storage_key: string; status: string }>(
          tx,
          sql`select id, storage_key, status from documents
               where booking_id = ${booking.id}::uuid and status <> 'deleted'
               for update skip locked`,
        );
        const [count] = await queryRows<{ total: number }>(
          tx,
          sql`select count(*)::int as total from documents where booking_id = ${booking.id}::uuid and status <> 'deleted'`,
        );
        if (docs.length < Number(count!.total)) {
          skip.add(booking.id);
          continue;
        }
        let bytesLeft = false;
        for (const doc of docs) {
          try {
            // Bytes first, as in purgeExpiredDocuments: a lost row update only repeats a delete.
            await deps.storage.delete(doc.storage_key);
          } catch (error) {
            deps.log.error({ err: error, documentId: doc.id, bookingId: booking.id }, 'retention: could not delete abandoned document bytes');
            bytesLeft = true;
            continue;
          }
          await tx.execute(
            sql`update documents set status = 'deleted', deleted_at = ${deps.now().toISOString()}::timestamptz,
                  upload_token_hash = null where id = ${doc.id}::uuid`,
          );
          await writeAudit(tx, {
            actorType: 'system',
            action: 'document.retention_deleted',
            entityType: 'document',
            entityId: doc.id,
            data: { bookingId: booking.id, previousStatus: doc.status, reason: 'abandoned', retentionHours: hours },
          });
          run.documentsDeleted++;
        }
        if (bytesLeft) {
          // Stays as it is, so the next run tries the remaining bytes again.
          skip.add(booking.id);
          run.failed++;
          continue;
        }
        await tx.execute(
          sql`update bookings set status = 'cancelled', cancelled_at = ${deps.now().toISOString()}::timestamptz,
                cancellation_reason = 'abandoned', hold_expires_at = null, updated_at = now()
               where id = ${booking.id}::uuid`,
        );
        await writeAudit(tx, {
          actorType: 'system',
          action: 'booking.status_changed',
          entityType: 'booking',
          entityId: booking.id,
          data: { from: booking.status, to: 'cancelled', reason: 'abandoned', retentionHours: hours },
        });
        run.cancelled++;
      }
      return rows.length;
    });
    if (claimed < batchSize) break;
  }
  if (run.cancelled > 0 || run.failed > 0) deps.log.info({ ...run }, 'retention: abandoned bookings cancelled');
  return run;
}

/** One pass of everything the retention job does. */
export async function runRetention(deps: Deps): Promise<{ documents: RetentionRun; abandoned: AbandonedRun }> {
  const abandoned = await cancelAbandonedBookings(deps);
  const documents = await purgeExpiredDocuments(deps);
  return { documents, abandoned };
}
