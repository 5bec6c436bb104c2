import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deploymentProblems, isLoopbackUrl, loadConfig } from '../../src/server/config.ts';
import { secretBoxFromConfig } from '../../src/server/crypto/secret-box.ts';

const run = promisify(execFile);

/** Runs `node src/server/main.ts` with `env` until it exits; its exit code and output. */
function startMain(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'notary-guard-'));
    const child = spawn(process.execPath, ['src/server/main.ts'], {
      env: { PATH: process.env.PATH, NODE_ENV: 'test', DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    child.on('exit', (code) => {
      rmSync(dataDir, { recursive: true, force: true });
      resolve({ code, output });
    });
  });
}

/**
 * Attack: a site deployed without payment keys takes the public test card
 * (4242…) as payment — free bookings. Expected: a public PUBLIC_URL refuses to
 * start on the test provider unless ALLOW_TEST_PAYMENTS=true says so, naming
 * the variables; a local run needs nothing. Likewise the TEST MODE identity
 * provider (any ID is "verified"): refused unless ALLOW_TEST_IDENTITY=true,
 * which ALLOW_TEST_PAYMENTS does not imply.
 */
describe('deployment guard', () => {
  const key = Buffer.alloc(32, 7).toString('base64');

  it('tells loopback addresses from public ones (no lookalikes)', () => {
    for (const url of ['http://localhost:3000', 'http://127.0.0.1:8080', 'http://[::1]:3000', 'http://app.localhost']) expect(isLoopbackUrl(url), url).toBe(true);
    for (const url of ['https://notary.example', 'http://127.0.0.1.nip.io', 'http://localhost.evil.com', 'http://10.0.0.5', 'http://0.0.0.0:3000']) expect(isLoopbackUrl(url), url).toBe(false);
  });

  it('public PUBLIC_URL, no STRIPE_* keys → problems naming STRIPE_* and ALLOW_TEST_PAYMENTS (and DATA_ENCRYPTION_KEY)', () => {
    const problems = deploymentProblems(loadConfig({ PUBLIC_URL: 'https://notary.example' }));
    expect(problems.join('\n')).toMatch(/STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET/);
    expect(problems.join('\n')).toMatch(/ALLOW_TEST_PAYMENTS=true/);
    expect(problems.join('\n')).toMatch(/DATA_ENCRYPTION_KEY/);
  });

  it('test payments on purpose do not turn on test identity: ALLOW_TEST_IDENTITY is its own switch', () => {
    const problems = deploymentProblems(loadConfig({ PUBLIC_URL: 'https://demo.example', ALLOW_TEST_PAYMENTS: 'true', DATA_ENCRYPTION_KEY: key }));
    // Both identity providers are the TEST MODE ones: credential analysis and the identity questions each say so.
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/identity proofing is not configured: set STRIPE_SECRET_KEY.*or ALLOW_TEST_IDENTITY=true/);
    expect(problems[1]).toMatch(/identity questions \(KBA\) are not configured: set IDOLOGY_USERNAME and IDOLOGY_PASSWORD, or ALLOW_TEST_IDENTITY=true/);
    expect(deploymentProblems(loadConfig({ PUBLIC_URL: 'https://demo.example', ALLOW_TEST_IDENTITY: 'true', DATA_ENCRYPTION_KEY: key })).join('\n')).toMatch(/ALLOW_TEST_PAYMENTS=true/);
    expect(loadConfig({ ALLOW_TEST_PAYMENTS: 'true' }).identityMode).toBe('test');
  });

  it('test payments and identity on purpose, or real keys, with an encryption key → no problems; a local run → none at all', () => {
    expect(deploymentProblems(loadConfig({ PUBLIC_URL: 'https://demo.example', ALLOW_TEST_PAYMENTS: 'true', ALLOW_TEST_IDENTITY: 'true', DATA_ENCRYPTION_KEY: key }))).toEqual([]);
    const stripe = { STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_PUBLISHABLE_KEY: 'pk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' };
    const idology = { IDOLOGY_USERNAME: 'api-user', IDOLOGY_PASSWORD: 'api-secret' };
    expect(deploymentProblems(loadConfig({ PUBLIC_URL: 'https://notary.example', DATA_ENCRYPTION_KEY: key, ...stripe, ...idology }))).toEqual([]);
    // Real payments but no KBA provider: the TEST MODE identity questions need the switch.
    expect(deploymentProblems(loadConfig({ PUBLIC_URL: 'https://notary.example', DATA_ENCRYPTION_KEY: key, ...stripe })).join('\n')).toMatch(/IDOLOGY_USERNAME and IDOLOGY_PASSWORD, or ALLOW_TEST_IDENTITY=true/);
    expect(() => loadConfig({ IDOLOGY_USERNAME: 'api-user' })).toThrow(/IDOLOGY_USERNAME and IDOLOGY_PASSWORD must be set together/);
    expect(deploymentProblems(loadConfig({}))).toEqual([]);
    expect(deploymentProblems(loadConfig({ PUBLIC_URL: 'http://127.0.0.1:4000' }))).toEqual([]);
  });

  it('the server itself refuses to start that way: exit 1, the message names the variables', async () => {
    const { code, output } = await startMain({ PUBLIC_URL: 'https://notary.example' });
    expect(code).toBe(1);
    expect(output).toContain('Invalid configuration in the environment');
    expect(output).toContain('ALLOW_TEST_PAYMENTS=true');
    expect(output).toContain('ALLOW_TEST_IDENTITY=true');
    expect(output).toContain('STRIPE_SECRET_KEY');
    expect(output).not.toMatch(/\n\s+at /); // a message, not a stack trace
  });

  it('a malformed DATA_ENCRYPTION_KEY → refused with the variable named', () => {
    expect(() => secretBoxFromConfig({ DATA_ENCRYPTION_KEY: 'short', DATA_DIR: tmpdir() })).toThrow(/DATA_ENCRYPTION_KEY: must be 32 random bytes/);
  });
});

/**
 * `npm run db:migrate` (item: it pointed at a file that did not exist). From a
 * fresh clone of the committed tree: migrates the database and is safe to run
 * from several nodes at once.
 */
describe('npm run db:migrate from a fresh clone', () => {
  const repo = path.resolve('.');

  async function freshClone(): Promise<string> {
    const dir = mkdtempSync(path.join(tmpdir(), 'notary-clone-'));
    await run('git', ['clone', '--quiet', '--depth', '1', `file://${repo}`, dir]);
    symlinkSync(path.join(repo, 'node_modules'), path.join(dir, 'node_modules'));
    return dir;
  }
  const migrate = (cwd: string, env: Record<string, string>) =>
    run('npm', ['run', '--silent', 'db:migrate'], { cwd, env: { PATH: `${path.join(repo, 'node_modules/.bin')}:${process.env.PATH}`, HOME: process.env.HOME ?? '/tmp', ...env } });

  it('embedded database (no DATABASE_URL): creates and migrates DATA_DIR/pglite', async () => {
    const clone = await freshClone();
    try {
      const { stdout } = await migrate(clone, { DATA_DIR: path.join(clone, 'data') });
      expect(stdout).toMatch(/is up to date \(\d+ migrations applied\)/);
    } finally {
      rmSync(clone, { recursive: true, force: true });
    }
  }, 120_000);

  it.skipIf(!process.env.TEST_DATABASE_URL)('PostgreSQL: three runs at once on an empty database → all succeed, every table exists once', async () => {
    const clone = await freshClone();
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    const name = `t_${randomUUID().replaceAll('-', '')}`;
    await admin.query(`create database ${name}`);
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    try {
      const results = await Promise.all([1, 2, 3].map(() => migrate(clone, { DATABASE_URL: url.toString(), DATA_DIR: path.join(clone, 'data') })));
      for (const { stdout } of results) expect(stdout).toMatch(/is up to date/);
      const check = new pg.Client({ connectionString: url.toString() });
      await check.connect();
      const { rows } = await check.query(`select count(*)::int as n from information_schema.tables where table_schema = 'public' and table_name in ('bookings', 'outbox', 'staff_users')`);
      const applied = await check.query('select count(*)::int as n from drizzle.__drizzle_migrations');
      await check.end();
      expect(rows[0].n).toBe(3);
      expect(applied.rows[0].n).toBeGreaterThan(0);
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
      rmSync(clone, { recursive: true, force: true });
    }
  }, 120_000);
});
