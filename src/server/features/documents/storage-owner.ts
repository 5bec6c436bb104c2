import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.ts';
import type { StorageOwner } from '../storage-sweep/owners.ts';
import { maxUploadMinutes } from './service.ts';

/** `{booking-uuid}/{random-uuid}.{ext}` — exactly what createUpload + receiveUpload write. */
const documentKey = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(pdf|jpg|png)$/;

/**
 * Customers' documents (registered in storage-sweep/owners.ts). A document's
 * bytes are live while its row is `stored`, or `pending` with an upload that
 * may still finish (the row holds the key without its extension until the
 * bytes have said what the file is). `infected` and `deleted` rows never have
 * their bytes read again: bytes left behind for them (a crash between the
 * commit and the delete) are orphans.
 */
export const documentObjects: StorageOwner = {
  name: 'documents',
  matches: (key) => documentKey.test(key),
  async live(db: Db, keys: string[], now: Date) {
    if (keys.length === 0) return new Set();
    const stems = keys.map((key) => key.replace(/\.[a-z]+$/, ''));
    const stillUploading = new Date(now.getTime() - maxUploadMinutes * 60_000).toISOString();
    const rows = await queryRows<{ storage_key: string; status: string }>(
      db,
      sql`select storage_key, status from documents
           where (status = 'stored' and storage_key in (${sql.join(keys.map((k) => sql`${k}`), sql`, `)}))
              or (status = 'pending' and upload_expires_at > ${stillUploading}::timestamptz
                  and storage_key in (${sql.join(stems.map((k) => sql`${k}`), sql`, `)}))`,
    );
    const liveStems = new Set(rows.filter((row) => row.status === 'pending').map((row) => row.storage_key));
    const stored = new Set(rows.filter((row) => row.status === 'stored').map((row) => row.storage_key));
    return new Set(keys.filter((key, i) => stored.has(key) || liveStems.has(stems[i]!)));
  },
};
