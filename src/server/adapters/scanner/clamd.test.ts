import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eicarBytes, startFakeClamd, type FakeClamd } from '../../../../tests/helpers/fake-clamd.ts';
import { createClamdScanner, parseScanReply } from './clamd.ts';

describe('clamd INSTREAM scanner', () => {
  let clamd: FakeClamd;
  beforeAll(async () => {
    clamd = await startFakeClamd({ streamMaxLength: 1024 * 1024 });
  });
  afterAll(() => clamd.close());

  it('answers a ping', async () => {
    await expect(createClamdScanner(clamd).ping()).resolves.toBeUndefined();
  });

  it('reports a clean PDF as clean and streams every byte in order', async () => {
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(200_000, 7), Buffer.from('\n%%EOF\n')]);
    const result = await createClamdScanner(clamd).scan(Readable.from([pdf.subarray(0, 70_000), pdf.subarray(70_000)]));
    expect(result).toEqual({ clean: true });
    expect(clamd.scanned.at(-1)!.equals(pdf)).toBe(true);
  });

  it('finds the EICAR test signature from the committed signature file', async () => {
    const result = await createClamdScanner(clamd).scan(Readable.from([eicarBytes()]));
    expect(result).toEqual({ clean: false, signature: 'Eicar-Test-Signature' });
  });

  it('refuses to call a file clean when clamd cannot scan it', async () => {
    await expect(createClamdScanner(clamd).scan(Buffer.alloc(2 * 1024 * 1024))).rejects.toThrow(/size limit exceeded/);
    expect(() => parseScanReply('')).toThrow(/no answer/);
  });

  it('fails when nothing listens, rather than passing the file', async () => {
    const scanner = createClamdScanner({ host: '127.0.0.1', port: 1, timeoutMs: 2_000 });
    await expect(scanner.scan(Buffer.from('hello'))).rejects.toThrow();
  });
});
