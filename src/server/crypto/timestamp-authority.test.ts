import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPki, type TestPki } from '../../../tests/helpers/openssl-pki.ts';
import { TimestampError, requestTimestamp, verifyTimestampToken } from './timestamp-authority.ts';

/** The RFC 3161 client against OpenSSL's own TSA (`openssl ts -reply`) on loopback. */
describe('timestamp authority client', () => {
  let pki: TestPki;
  beforeAll(async () => {
    pki = await startTestPki();
  }, 60_000);
  afterAll(() => pki?.stop());

  const digest = createHash('sha256').update('the journal head').digest();

  it('gets a token for a digest that OpenSSL verifies against the CA, and reads its time', async () => {
    const before = Date.now();
    const stamp = await requestTimestamp({ url: pki.tsaUrl }, digest);
    expect(stamp.genTime.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 - 1000);
    expect(stamp.policy).toBe('1.2.3.4.1');
    expect(verifyTimestampToken(stamp.token, digest).serialNumber).toBe(stamp.serialNumber);
    const token = path.join(pki.dir, 'client.tst');
    writeFileSync(token, stamp.token);
    const out = execFileSync('openssl', ['ts', '-verify', '-token_in', '-in', token, '-digest', digest.toString('hex'), '-CAfile', pki.rootPem, '-untrusted', path.join(pki.dir, 'tsa.pem')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(out).toContain('Verification: OK');
  });

  it('refuses a token for other data, a changed token, and an unreachable TSA', async () => {
    const stamp = await requestTimestamp({ url: pki.tsaUrl }, digest);
    const other = createHash('sha256').update('something else').digest();
    expect(() => verifyTimestampToken(stamp.token, other)).toThrow(TimestampError);
    const changed = Buffer.from(stamp.token);
    const at = changed.indexOf(digest) + 40;
    changed[at] = changed[at]! ^ 1;
    expect(() => verifyTimestampToken(changed, digest)).toThrow(TimestampError);
    await expect(requestTimestamp({ url: 'http://127.0.0.1:9/tsa', timeoutMs: 2000 }, digest)).rejects.toThrow(/could not be reached/);
  });
});
