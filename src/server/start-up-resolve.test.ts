import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const hookModule = fileURLToPath(new URL('./start-up-resolve.ts', import.meta.url));

/**
 * Runs a fresh Node with a spy on the resolver registered before our hook, so
 * the spy sees what our hook hands on (hooks registered later run first), then
 * loads drizzle-orm and uses it. Prints what the spy saw.
 */
function loadDrizzle(withHook: boolean): { relativeInsideDrizzle: number; bareDrizzle: number; query: string } {
  const script = `
    import { registerHooks } from 'node:module';
    const seen = { relativeInsideDrizzle: 0, bareDrizzle: 0 };
    registerHooks({
      resolve(specifier, context, next) {
        if (context.parentURL?.includes('/node_modules/drizzle-orm/') && specifier.startsWith('.')) seen.relativeInsideDrizzle++;
        if (specifier === 'drizzle-orm') seen.bareDrizzle++;
        return next(specifier, context);
      },
    });
    if (${withHook}) (await import(${JSON.stringify(hookModule)})).resolveDrizzleDirectly();
    const { sql } = await import('drizzle-orm');
    const { PgDialect } = await import('drizzle-orm/pg-core');
    const query = new PgDialect().sqlToQuery(sql\`select \${1} as one\`).sql;
    console.log(JSON.stringify({ ...seen, query }));
  `;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: process.cwd(), encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').at(-1)!) as { relativeInsideDrizzle: number; bareDrizzle: number; query: string };
}

describe('start-up resolver shortcut (start-up-resolve.ts)', () => {
  it("resolves drizzle-orm's imports of its own files without Node's package lookup, and the package still works", () => {
    const without = loadDrizzle(false);
    const withHook = loadDrizzle(true);
    // Without the shortcut every one of drizzle's own imports goes through Node's resolver.
    expect(without.relativeInsideDrizzle).toBeGreaterThan(100);
    expect(withHook.relativeInsideDrizzle).toBe(0);
    // Everything else still does, and the loaded package behaves the same.
    expect(withHook.bareDrizzle).toBe(1);
    expect(withHook.query).toBe(without.query);
    expect(withHook.query).toBe('select $1 as one');
  });
});
