import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, dbKinds } from '../../../tests/helpers/db.ts';
import { DataDirLockedError, openPglite, queryRows } from './client.ts';

describe.each(dbKinds)('database on %s', (kind) => {
  it('applies every migration and answers queries', async () => {
    const database = await createTestDatabase(kind);
    try {
      const [row] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from bookings`);
      expect(row!.n).toBe(0);
    } finally {
      await database.close();
    }
  });
});

describe('embedded data folder', () => {
  it('refuses a second opener while the first holds the folder, and frees it on close', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pglite-lock-'));
    try {
      const first = await openPglite(dir);
      // Simulate another live process holding the lock (our own parent's pid).
      const { writeFileSync } = await import('node:fs');
      writeFileSync(path.join(dir, 'server.lock'), String(process.ppid));
      await expect(openPglite(dir)).rejects.toBeInstanceOf(DataDirLockedError);
      await first.close();
      writeFileSync(path.join(dir, 'server.lock'), '999999999');
      const again = await openPglite(dir); // stale lock of a dead process is taken over
      await again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
