import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../src/server/db/client.ts';

/**
 * Every row of every table in the public schema, as one text: what an
 * attacker holding a database dump (a backup, a replica) would read.
 * iCalendar folding ("\r\n ") is undone as well, so a secret split across
 * lines is still found.
 */
export async function databaseDump(db: Db): Promise<string> {
  const tables = await queryRows<{ table_name: string }>(
    db,
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  let dump = '';
  for (const { table_name } of tables) {
    const rows = await queryRows<Record<string, unknown>>(db, sql.raw(`select * from "${table_name}"`));
    dump += `${table_name}\n${JSON.stringify(rows)}\n`;
  }
  return `${dump}\n${dump.replace(/\\r\\n[ \t]/g, '').replace(/\r\n[ \t]/g, '')}`;
}

/** Resolves when `check` returns true, polling every 20 ms; fails after `timeoutMs`. */
export async function until(check: () => Promise<boolean> | boolean, timeoutMs = 5_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
