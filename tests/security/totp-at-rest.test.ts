import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createSecretBox, keyId, secretBoxFromConfig } from '../../src/server/crypto/secret-box.ts';
import { staffUsers } from '../../src/server/db/schema.ts';
import { startTestApp, type TestServer } from '../helpers/app.ts';
import { dbKinds } from '../helpers/db.ts';
import { createStaffUser, sessionCookieFrom, totpCodeAt, trpcHttp } from '../helpers/staff.ts';

const codeFor = totpCodeAt;

/**
 * Attack: read staff TOTP keys out of a database dump, swap one user's sealed
 * key into another's row, or replay a code seen over a shoulder. Expected: the
 * table holds only sealed keys bound to their user; a code is good once.
 */
describe.each(dbKinds)('TOTP keys at rest (%s)', (kind) => {
  let app: TestServer;
  beforeAll(async () => {
    app = await startTestApp(kind);
  });
  afterAll(() => app.close());
  const login = (email: string, password: string) => trpcHttp(app.url, 'staff.login', { input: { email, password } });

  it('enrolment stores the key sealed (sb1.<key id>…), never the base32 secret; codes from it work', async () => {
    const admin = await createStaffUser(app.deps, { role: 'admin', totp: false });
    const cookie = sessionCookieFrom((await login(admin.email, admin.password)).cookies)!;
    const { secret } = (await trpcHttp(app.url, 'staff.totp.begin', { cookie })).body.result!.data.json as { secret: string };
    const [row] = await app.deps.db.select({ key: staffUsers.totpKey }).from(staffUsers).where(eq(staffUsers.id, admin.id));
    expect(row!.key).toMatch(/^sb1\.[0-9a-f]{8}\./);
    expect(row!.key).not.toContain(secret);
    expect((await trpcHttp(app.url, 'staff.totp.confirm', { cookie, input: { code: codeFor(secret) } })).status).toBe(200);
  });

  it('a code used once is refused when replayed within its window', async () => {
    const admin = await createStaffUser(app.deps, { role: 'admin' });
    const code = codeFor(admin.totpSecret!);
    const first = sessionCookieFrom((await login(admin.email, admin.password)).cookies)!;
    expect((await trpcHttp(app.url, 'staff.totp.verify', { cookie: first, input: { code } })).status).toBe(200);
    const second = sessionCookieFrom((await login(admin.email, admin.password)).cookies)!;
    expect((await trpcHttp(app.url, 'staff.totp.verify', { cookie: second, input: { code } })).status).toBe(400);
  });

  it("another user's sealed key copied into a victim's row → does not open (bound to its user)", async () => {
    const attacker = await createStaffUser(app.deps, { role: 'admin' });
    const victim = await createStaffUser(app.deps, { role: 'admin' });
    const [attackerRow] = await app.deps.db.select({ key: staffUsers.totpKey }).from(staffUsers).where(eq(staffUsers.id, attacker.id));
    await app.deps.db.update(staffUsers).set({ totpKey: attackerRow!.key }).where(eq(staffUsers.id, victim.id));
    const cookie = sessionCookieFrom((await login(victim.email, victim.password)).cookies)!;
    const res = await trpcHttp(app.url, 'staff.totp.verify', { cookie, input: { code: codeFor(attacker.totpSecret!) } });
    expect(res.status).toBe(400);
    expect(res.body.error?.json.message).toBe('That code is not right. Codes change every 30 seconds — enter the current one.');
  });

  it('a key stored in clear before this change still works once and is sealed on that use', async () => {
    const member = await createStaffUser(app.deps, { role: 'staff', totp: true });
    await app.deps.db.update(staffUsers).set({ totpKey: member.totpSecret }).where(eq(staffUsers.id, member.id));
    const cookie = sessionCookieFrom((await login(member.email, member.password)).cookies)!;
    expect((await trpcHttp(app.url, 'staff.totp.verify', { cookie, input: { code: codeFor(member.totpSecret!) } })).status).toBe(200);
    const [row] = await app.deps.db.select({ key: staffUsers.totpKey }).from(staffUsers).where(eq(staffUsers.id, member.id));
    expect(row!.key).toMatch(/^sb1\./);
  });
});

describe('the data-encryption key', () => {
  it('a local run without DATA_ENCRYPTION_KEY generates one key under DATA_DIR (mode 600) and every process on that DATA_DIR uses it', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'notary-key-'));
    try {
      const boxes = Array.from({ length: 4 }, () => secretBoxFromConfig({ DATA_DIR: dir }));
      const sealed = boxes[0]!.seal('JBSWY3DPEHPK3PXP', 'totp:u1');
      for (const box of boxes) expect(box.openText(sealed, 'totp:u1')).toBe('JBSWY3DPEHPK3PXP');
      expect(readdirSync(dir)).toEqual(['data-encryption.key']);
      expect(statSync(path.join(dir, 'data-encryption.key')).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('key rotation (DATA_ENCRYPTION_KEY_PREVIOUS)', () => {
  it('values sealed with the old key open with the new box and report that they need re-sealing; unknown keys are named', () => {
    const oldKey = Buffer.alloc(32, 1);
    const newKey = Buffer.alloc(32, 2);
    const sealedOld = createSecretBox(oldKey).seal('JBSWY3DPEHPK3PXP', 'totp:u1');
    const rotated = createSecretBox(newKey, [oldKey]);
    expect(rotated.openText(sealedOld, 'totp:u1')).toBe('JBSWY3DPEHPK3PXP');
    expect(rotated.needsReseal(sealedOld)).toBe(true);
    expect(rotated.needsReseal(rotated.seal('x', 'totp:u1'))).toBe(false);
    expect(() => createSecretBox(newKey).open(sealedOld, 'totp:u1')).toThrow(new RegExp(`unknown key \\(${keyId(oldKey)}\\)`));
    // Tampering and purpose swaps are refused.
    expect(() => rotated.open(sealedOld, 'totp:u2')).toThrow(/does not open/);
    const parts = sealedOld.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => rotated.open(parts.join('.'), 'totp:u1')).toThrow(/does not open/);
  });
});
