import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * `npm run staff:create` as the README tells a new operator to run it, against
 * the embedded database: it creates the first admin, and while a server holds
 * the embedded database it says so in one line instead of a stack trace.
 */
function runStaffCreate(dataDir: string, args: string[]) {
  return spawnSync(process.execPath, ['scripts/staff-create.ts', ...args], {
    cwd: process.cwd(),
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', STAFF_PASSWORD: 'correct horse battery staple', NODE_ENV: 'production' },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('npm run staff:create (embedded database)', () => {
  const dirs: string[] = [];
  const tempDataDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'notary-staff-cli-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('creates the first admin and tells where to sign in', () => {
    const result = runStaffCreate(tempDataDir(), ['--email', 'First@Example.com', '--role', 'admin', '--name', 'First Admin']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Created admin account first@example\.com \([0-9a-f-]{36}\)\./);
    expect(result.stdout).toContain('/admin/login');
  });

  it('while a server holds the embedded database, says to stop it, without a stack trace', () => {
    const dataDir = tempDataDir();
    // A live process (this test runner) owns the lock, as a running server would.
    mkdirSync(path.join(dataDir, 'pglite'));
    writeFileSync(path.join(dataDir, 'pglite', 'server.lock'), String(process.pid));
    const result = runStaffCreate(dataDir, ['--email', 'second@example.com', '--role', 'admin']);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`is already in use by process ${process.pid}`);
    expect(result.stderr).toContain('Stop that server first');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
