import type { DbOrTx } from '../db/client.ts';
import { auditLog } from '../db/schema.ts';

export type ActorType = 'customer' | 'staff' | 'system' | 'provider';

export interface AuditEntry {
  actorType: ActorType;
  /** Staff user id, provider event id…; null for an anonymous customer or the system. */
  actorId?: string | null;
  /** e.g. 'booking.status_changed', 'booking.overbooked', 'document.uploaded'. */
  action: string;
  entityType: string;
  entityId: string;
  data?: Record<string, unknown> | null;
}

/**
 * Append-only record of who changed what. Written inside the caller's
 * transaction so an entry exists exactly when its change was committed.
 */
export async function writeAudit(tx: DbOrTx, entry: AuditEntry): Promise<void> {
  await tx.insert(auditLog).values({
    actorType: entry.actorType,
    actorId: entry.actorId ?? null,
    action: entry.action,
    entityType: entry.entityType,
    entityId: entry.entityId,
    data: entry.data ?? null,
  });
}
