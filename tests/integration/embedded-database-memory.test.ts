import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openPglite } from '../../src/server/db/client.ts';

/** The embedded database runs with small shared buffers (decision 021), in memory and on disk alike. */
describe('embedded database memory', () => {
  it.each([['in memory', false], ['in a data directory', true]])('uses 32 MB of shared buffers %s', async (_name, onDisk) => {
    const dir = onDisk ? mkdtempSync(path.join(tmpdir(), 'notary-pglite-')) : null;
    const database = await openPglite(dir && path.join(dir, 'pglite'));
    try {
      const result = await database.db.execute(sql`show shared_buffers`);
      expect((result as unknown as { rows: Array<{ shared_buffers: string }> }).rows[0]!.shared_buffers).toBe('32MB');
      // The defaults PGlite needs are kept (single-user mode settings).
      const path_ = await database.db.execute(sql`show search_path`);
      expect((path_ as unknown as { rows: Array<{ search_path: string }> }).rows[0]!.search_path).toBe('public');
    } finally {
      await database.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
  });
});
