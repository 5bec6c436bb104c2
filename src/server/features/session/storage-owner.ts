import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.ts';
import type { StorageOwner } from '../storage-sweep/owners.ts';

const uuid = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** `recordings/{booking}/{recording}.webm` and its chunks `recordings/{booking}/{recording}.chunks/NNNNNN.part`. */
const recordingKey = new RegExp(`^recordings/${uuid}/(${uuid})(\\.webm|\\.chunks/\\d{6}\\.part)$`);

/**
 * Session recordings (registered in storage-sweep/owners.ts; decision 031).
 * The assembled object is live while its row says stored (or is being
 * recorded or assembled: the write may be in progress). A chunk is live while
 * its row exists, or while its recording still runs or is being assembled (the
 * object is written just before its row). Chunks left after assembly, and
 * objects of deleted recordings, are orphans.
 */
export const recordingObjects: StorageOwner = {
  name: 'recordings',
  matches: (key) => recordingKey.test(key),
  async live(db: Db, keys: string[]) {
    const ours = keys.filter((key) => recordingKey.test(key));
    if (ours.length === 0) return new Set();
    const ids = [...new Set(ours.map((key) => recordingKey.exec(key)![1]!))];
    const [recordings, chunks] = await Promise.all([
      queryRows<{ id: string; storage_key: string; status: string }>(
        db,
        sql`select id, storage_key, status from session_recordings where id in (${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)})`,
      ),
      queryRows<{ storage_key: string }>(
        db,
        sql`select storage_key from session_recording_chunks where storage_key in (${sql.join(ours.map((k) => sql`${k}`), sql`, `)})`,
      ),
    ]);
    const byId = new Map(recordings.map((r) => [r.id, r]));
    const chunkRows = new Set(chunks.map((c) => c.storage_key));
    return new Set(
      ours.filter((key) => {
        const recording = byId.get(recordingKey.exec(key)![1]!);
        const running = recording?.status === 'recording' || recording?.status === 'assembling';
        if (key.endsWith('.webm')) return running || (recording?.status === 'stored' && recording.storage_key === key);
        return running || chunkRows.has(key);
      }),
    );
  },
};
