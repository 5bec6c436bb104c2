import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalS3, type LocalS3 } from '../../../../tests/helpers/s3rver.ts';
import { createLocalStorage } from './local.ts';
import { createS3Storage } from './s3.ts';
import { ObjectExistsError, ObjectNotFoundError, type ObjectStorage } from './types.ts';

const key = (ext = 'pdf') => `${crypto.randomUUID()}/${crypto.randomUUID()}.${ext}`;

async function bytesOf(storage: ObjectStorage, k: string): Promise<Buffer> {
  const { body } = await storage.get(k);
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A stream that yields `good` bytes and then fails, like an aborted upload. */
function failingStream(good: number): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push(Buffer.alloc(good, 1));
      } else {
        this.destroy(new Error('client went away'));
      }
    },
  });
}

let s3: LocalS3;
const tempDirs: string[] = [];
beforeAll(async () => {
  s3 = await startLocalS3();
});
afterAll(async () => {
  await s3.close();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

const drivers: [string, () => Promise<ObjectStorage>][] = [
  ['local', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'storage-'));
    tempDirs.push(dir);
    return createLocalStorage(path.join(dir, 'documents'));
  }],
  ['s3', async () =>
    createS3Storage({ bucket: `b-${crypto.randomUUID().slice(0, 8)}`, region: 'us-east-1', endpoint: s3.endpoint, accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true })],
];

describe.each(drivers)('%s object storage', (_name, make) => {
  let storage: ObjectStorage;
  beforeAll(async () => {
    storage = await make();
    await storage.ensureBucket();
    await storage.ensureBucket(); // twice: the second finds it
  });

  it('answers a ping once the bucket exists', async () => {
    await expect(storage.ping()).resolves.toBeUndefined();
  });

  it('round-trips a small object and reports its size', async () => {
    const k = key();
    expect(await storage.put(k, Readable.from([Buffer.from('%PDF-1.4 hello')]), { contentType: 'application/pdf', cacheControlSeconds: 3600 })).toEqual({ size: 14 });
    expect(await storage.exists(k)).toBe(true);
    const { size, body } = await storage.get(k);
    expect(size).toBe(14);
    expect(await text(body)).toBe('%PDF-1.4 hello');
  });

  it('reads a byte range (seeking in a recording) and still reports the whole size', async () => {
    const k = key('webm');
    await storage.put(k, Readable.from([Buffer.from('0123456789')]), { contentType: 'video/webm' });
    const { body, size } = await storage.get(k, { start: 2, end: 5 });
    expect(size).toBe(10);
    expect(await text(body)).toBe('2345');
  });

  it('streams an object larger than one multipart part (6 MiB) intact', async () => {
    const k = key('png');
    const bytes = Buffer.alloc(6 * 1024 * 1024 + 123);
    for (let i = 0; i < bytes.length; i += 4096) bytes[i] = i % 251;
    const chunks = Array.from({ length: Math.ceil(bytes.length / 65536) }, (_, i) => bytes.subarray(i * 65536, (i + 1) * 65536));
    expect(await storage.put(k, Readable.from(chunks), { contentType: 'image/png' })).toEqual({ size: bytes.length });
    expect((await bytesOf(storage, k)).equals(bytes)).toBe(true);
  });

  it('keeps nothing when the stream fails midway (small and multipart)', async () => {
    for (const good of [1000, 6 * 1024 * 1024]) {
      const k = key();
      await expect(storage.put(k, failingStream(good), { contentType: 'application/pdf' })).rejects.toThrow(/client went away/);
      expect(await storage.exists(k)).toBe(false);
    }
  });

  it('replaces with upsert, refuses to overwrite without it', async () => {
    const k = key();
    await storage.put(k, Readable.from([Buffer.from('one')]), { contentType: 'application/pdf' });
    await expect(storage.put(k, Readable.from([Buffer.from('two')]), { contentType: 'application/pdf' })).rejects.toBeInstanceOf(ObjectExistsError);
    await storage.put(k, Readable.from([Buffer.from('three')]), { contentType: 'application/pdf', upsert: true });
    expect((await bytesOf(storage, k)).toString()).toBe('three');
  });

  it('deletes idempotently and reports a missing object', async () => {
    const k = key();
    await storage.put(k, Readable.from([Buffer.from('x')]), { contentType: 'application/pdf' });
    await storage.delete(k);
    await storage.delete(k);
    expect(await storage.exists(k)).toBe(false);
    await expect(storage.get(k)).rejects.toBeInstanceOf(ObjectNotFoundError);
  });

  it('refuses keys that could climb out of the store', async () => {
    for (const bad of ['../etc/passwd', '/abs/path.pdf', 'a/../../b.pdf', '', 'a//b.pdf']) {
      await expect(storage.put(bad, Readable.from([Buffer.from('x')]), { contentType: 'application/pdf' })).rejects.toThrow(/Unsafe storage key/);
    }
  });
});

describe('s3 bucket creation', () => {
  it("stops with 'Error creating storage bucket: …' when the bucket cannot be created", async () => {
    // Upper case and underscores are not allowed in bucket names, so the store refuses to create it.
    const storage = createS3Storage({ bucket: 'Not_A_Valid_Bucket', region: 'us-east-1', endpoint: s3.endpoint, accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true });
    await expect(storage.ensureBucket()).rejects.toThrow(/^Error creating storage bucket: .+/);
  });
});

describe('local storage layout', () => {
  it('writes under the root only, with no temporary files left behind', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'storage-'));
    tempDirs.push(dir);
    const storage = createLocalStorage(path.join(dir, 'documents'));
    await storage.ensureBucket();
    const k = key('jpg');
    await storage.put(k, Readable.from([Buffer.from([0xff, 0xd8, 0xff, 0xe0])]), { contentType: 'image/jpeg' });
    await storage.put(key(), failingStream(10), { contentType: 'application/pdf' }).catch(() => {});
    expect(readdirSync(path.join(dir, 'documents', '.incoming'))).toEqual([]);
    expect(readdirSync(path.join(dir, 'documents', k.split('/')[0]!))).toEqual([k.split('/')[1]]);
  });
});
