import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import { writeAudit } from '../audit.ts';

const batchSize = 50;

/** Until when a document sealed at `sealedAt` is kept (the "ready" email says it). */
export function notarizedCopyKeptUntil(deps: Pick<Deps, 'config'>, sealedAt: Date): Date {
  return new Date(sealedAt.getTime() + deps.config.NOTARIZED_DOCUMENT_RETENTION_DAYS * 86_400_000);
}

/**
 * Notarized (sealed) copies are kept NOTARIZED_DOCUMENT_RETENTION_DAYS after
 * sealing (docs/decisions/092-notarized-copy-retention.md), separately from the
 * originals' DOCUMENT_RETENTION_DAYS: then the bytes are deleted and the row
 * marked. The journal keeps each copy's SHA-256, so /verify still answers for
 * it. Rows are claimed FOR UPDATE SKIP LOCKED: several nodes may run this.
 * Bytes first, as for documents: a lost row update only means deleting again.
 */
export async function purgeExpiredNotarizedCopies(deps: Deps): Promise<{ deleted: number; failed: number }> {
  const cutoff = new Date(deps.now().getTime() - deps.config.NOTARIZED_DOCUMENT_RETENTION_DAYS * 86_400_000);
  const run = { deleted: 0, failed: 0 };
  const skip = new Set<string>();
  while (true) {
    const claimed = await deps.db.transaction(async (tx) => {
      const rows = await queryRows<{ id: string; booking_id: string; document_id: string; sealed_key: string }>(
        tx,
        sql`select id, booking_id, document_id, sealed_key from notarial_documents
             where sealed_key is not null and sealed_deleted_at is null
               and sealed_at < ${cutoff.toISOString()}::timestamptz
               ${skip.size > 0 ? sql`and id not in (${sql.join([...skip].map((id) => sql`${id}::uuid`), sql`, `)})` : sql``}
             order by sealed_at
             limit ${batchSize}
             for update skip locked`,
      );
      for (const row of rows) {
        try {
          await deps.storage.delete(row.sealed_key);
        } catch (error) {
          deps.log.error({ err: error, bookingId: row.booking_id }, 'retention: could not delete a notarized copy');
          skip.add(row.id);
          run.failed++;
          continue;
        }
        await tx.execute(sql`update notarial_documents set sealed_deleted_at = ${deps.now().toISOString()}::timestamptz where id = ${row.id}::uuid`);
        await writeAudit(tx, {
          actorType: 'system',
          action: 'notarized_document.retention_deleted',
          entityType: 'booking',
          entityId: row.booking_id,
          data: { documentId: row.document_id, retentionDays: deps.config.NOTARIZED_DOCUMENT_RETENTION_DAYS },
        });
        run.deleted++;
      }
      return rows.length;
    });
    if (claimed < batchSize) break;
  }
  if (run.deleted > 0 || run.failed > 0) deps.log.info({ ...run }, 'retention: notarized copies');
  return run;
}
