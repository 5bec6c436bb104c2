import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/**
 * The entry point (start.mjs) turns the compile cache on before any TypeScript
 * is loaded, so a restart never loads Node's TypeScript stripper (amaro, a
 * WebAssembly compiler: ~0.1 s of every start, several times that on a busy
 * machine). Each run stops at the configuration check (an invalid PORT), after
 * the server's modules have loaded, and reports which of Node's own modules it
 * loaded.
 */
function loadedStripper(entry: string): boolean {
  const report = 'data:text/javascript,process.on("exit",()=>console.log("STRIPPER="+process.moduleLoadList.some((m)=>m.includes("amaro"))))';
  const run = spawnSync(process.execPath, ['--import', report, entry], {
    cwd: process.cwd(),
    env: { ...process.env, NODE_ENV: 'production', PORT: 'not-a-port', DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(run.stderr).toContain('Invalid configuration');
  const line = run.stdout.split('\n').find((l) => l.startsWith('STRIPPER='));
  expect(line, run.stdout + run.stderr).toBeDefined();
  return line === 'STRIPPER=true';
}

describe('the entry point (start.mjs)', () => {
  it('loads no TypeScript stripper on a restart; a TypeScript entry always does', () => {
    // The first run may fill an empty cache (a fresh CI machine); the second is a restart.
    loadedStripper('src/server/start.mjs');
    expect(loadedStripper('src/server/start.mjs')).toBe(false);
    expect(loadedStripper('src/server/main.ts')).toBe(true);
  });
});
