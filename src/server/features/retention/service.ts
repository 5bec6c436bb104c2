import { sweepExpiredRates } from '../../rate-limit.ts';
import { purgeExpiredIdentity } from '../identity/service.ts';
import { periodicCheckpoint, pruneJournal } from '../journal/service.ts';
import { purgeExpiredNotarizedCopies } from '../notarial-act/retention-service.ts';
import { sql } from 'drizzle-orm';
import { endedStatuses, unpaidStatuses, type BookingStatus } from '../../../shared/booking.ts';
import { queryRows, type Tx } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import { writeAudit } from '../audit.ts';
import { cancelAbandonedBooking } from '../booking/service.ts';

/** `(…)` list of a status group, for the raw SQL below. */
const statusList = (group: readonly BookingStatus[]) => sql`(${sql.join(group.map((status) => sql`${status}`), sql`, `)})`;
import { assembleRecording } from '../session/recording-service.ts';

const batchSize = 50;

/**
 * Deletes one document's bytes, then marks it deleted and audits it; false
 * (logged, nothing marked) when the store refused. Bytes first: if the row
 * update were lost, the next run deletes again (deleting a missing object is a
 * no-op); the reverse would leak bytes.
 */
async function deleteDocument(
  tx: Tx,
  deps: Deps,
  doc: { id: string; storage_key: string; status: string },
  data: { bookingId: string } & Record<string, unknown>,
): Promise<boolean> {
  try {
    await deps.storage.delete(doc.storage_key);
  } catch (error) {
    deps.log.error({ err: error, documentId: doc.id, bookingId: data.bookingId }, 'retention: could not delete document bytes');
    return false;
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
    data: { ...data, previousStatus: doc.status },
  });
  return true;
}

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
               and b.status in ${statusList(endedStatuses)}
               and coalesce(case when b.status = 'cancelled' then b.cancelled_at end, b.starts_at, b.updated_at)
                   < ${cutoff.toISOString()}::timestamptz
               ${skip.size > 0 ? sql`and d.id not in (${sql.join([...skip].map((id) => sql`${id}::uuid`), sql`, `)})` : sql``}
             order by d.created_at
             limit ${batchSize}
             for update of d skip locked`,
      );
      for (const row of rows) {
        const deleted = await deleteDocument(tx, deps, row, { bookingId: row.booking_id, retentionDays: deps.config.DOCUMENT_RETENTION_DAYS });
        if (deleted) run.deleted++;
        else {
          skip.add(row.id);
          run.failed++;
        }
      }
      return rows.length;
    });
    if (batch < batchSize) break;
  }
  if (run.deleted > 0 || run.failed > 0) deps.log.info({ ...run }, 'retention: expired documents purged');
  return run;
}

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
             where b.status in ${statusList(unpaidStatuses)}
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
          const deleted = await deleteDocument(tx, deps, doc, { bookingId: booking.id, reason: 'abandoned', retentionHours: hours });
          if (deleted) run.documentsDeleted++;
          else bytesLeft = true;
        }
        if (bytesLeft) {
          // Stays as it is, so the next run tries the remaining bytes again.
          skip.add(booking.id);
          run.failed++;
          continue;
        }
        if (await cancelAbandonedBooking(tx, deps, { bookingId: booking.id, data: { retentionHours: hours } })) run.cancelled++;
      }
      return rows.length;
    });
    if (claimed < batchSize) break;
  }
  if (run.cancelled > 0 || run.failed > 0) deps.log.info({ ...run }, 'retention: abandoned bookings cancelled');
  return run;
}

/**
 * Session recordings are kept RECORDING_RETENTION_DAYS after they were stored
 * (10 years by default, the RULONA 2018 model's period; decision 031), then
 * their object is deleted and the row marked `deleted` (kept: the record that
 * a recording existed). Recordings a crashed browser left running for more
 * than an hour are first assembled from the chunks that arrived.
 */
export async function purgeExpiredRecordings(deps: Deps): Promise<RetentionRun & { sealed: number }> {
  const run = { deleted: 0, failed: 0, sealed: 0 };
  const idleBefore = new Date(deps.now().getTime() - 3600_000);
  const stale = await queryRows<{ id: string }>(
    deps.db,
    sql`select r.id from session_recordings r
         where r.status = 'recording'
           and coalesce((select max(c.created_at) from session_recording_chunks c where c.recording_id = r.id), r.started_at) < ${idleBefore.toISOString()}::timestamptz
         limit ${batchSize}`,
  );
  for (const row of stale) {
    try {
      if ((await assembleRecording(deps, row.id)) === 'stored') run.sealed++;
    } catch (error) {
      deps.log.error({ err: error, recordingId: row.id }, 'retention: could not assemble an interrupted recording');
      run.failed++;
    }
  }
  const cutoff = new Date(deps.now().getTime() - deps.config.RECORDING_RETENTION_DAYS * 86_400_000);
  while (true) {
    const batch = await deps.db.transaction(async (tx) => {
      const rows = await queryRows<{ id: string; booking_id: string; storage_key: string }>(
        tx,
        sql`select id, booking_id, storage_key from session_recordings
             where status = 'stored' and stored_at < ${cutoff.toISOString()}::timestamptz
             order by stored_at limit ${batchSize}
             for update skip locked`,
      );
      for (const row of rows) {
        await deps.storage.delete(row.storage_key);
        await tx.execute(sql`update session_recordings set status = 'deleted', deleted_at = ${deps.now().toISOString()}::timestamptz where id = ${row.id}::uuid`);
        await writeAudit(tx, {
          actorType: 'system',
          action: 'session.recording_retention_deleted',
          entityType: 'booking',
          entityId: row.booking_id,
          data: { recordingId: row.id, retentionDays: deps.config.RECORDING_RETENTION_DAYS },
        });
        run.deleted++;
      }
      return rows.length;
    });
    if (batch < batchSize) break;
  }
  if (run.deleted > 0 || run.failed > 0 || run.sealed > 0) deps.log.info({ ...run }, 'retention: recordings');
  return run;
}

/** One pass of everything the retention job does. */
export async function runRetention(deps: Deps): Promise<{ documents: RetentionRun; abandoned: AbandonedRun; recordings: RetentionRun & { sealed: number } }> {
  const abandoned = await cancelAbandonedBookings(deps);
  const documents = await purgeExpiredDocuments(deps);
  const recordings = await purgeExpiredRecordings(deps);
  // The notarial act's personal data and journal (features/identity, features/journal).
  await purgeExpiredIdentity(deps);
  await purgeExpiredNotarizedCopies(deps);
  await pruneJournal(deps);
  // Shared rate-limit counters whose window ended: absent for every reader already (decision 077).
  await sweepExpiredRates(deps.db, deps.now());
  // The hourly signed checkpoint of the journal's head (decision 090), when it moved or is a day old.
  await periodicCheckpoint(deps);
  return { documents, abandoned, recordings };
}
