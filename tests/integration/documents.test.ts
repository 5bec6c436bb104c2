import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  bookingLockedMessage,
  documentNotFoundMessage,
  encryptedPdfMessage,
  fileTooLargeMessage,
  imageTooLargeMessage,
  unreadableImageMessage,
  maxFileBytes,
  unsupportedFileMessage,
  uploadLinkInvalidMessage,
} from '../../src/shared/booking.ts';
import { documents, notarialDocuments } from '../../src/server/db/schema.ts';
import { incompleteStepsMessage } from '../../src/server/features/payments/service.ts';
import { confirmBooking } from '../../src/server/features/booking/service.ts';
import { receiveUpload, recordScanResult } from '../../src/server/features/documents/service.ts';
import { startTestApp, type TestServer } from '../helpers/app.ts';
import { dbKinds } from '../helpers/db.ts';
import { startFakeClamd, type FakeClamd } from '../helpers/fake-clamd.ts';
import { startLocalS3, type LocalS3 } from '../helpers/s3rver.ts';
import { bookingClient, putBytes, type BookingClient } from './booking-helpers.ts';
import { chicago } from '../helpers/bookings.ts';
import { rejectionOf, until } from '../helpers/async.ts';
import { jpegHeader, pngBomb, pngZipBomb } from '../helpers/images.ts';

const fixture = (name: string) => readFileSync(path.resolve('tests/fixtures', name));
const now = new Date('2027-03-10T15:00:00Z');
const keyPattern = /^[0-9a-f-]{36}\/[0-9a-f-]{36}\.(pdf|jpg|png)$/;

/** Every stored file under DATA_DIR/documents, as keys (the temporary folder must be empty). */
function storedFiles(dataDir: string): string[] {
  const root = path.join(dataDir, 'documents');
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

/** A PUT over a raw socket: chunked or with Content-Length, optionally cut off after `abortAfter` bytes. */
function rawPut(
  url: string,
  uploadUrl: string,
  options: { total: number; head?: Buffer; contentLength?: number; abortAfter?: number },
): Promise<{ status: number; body: { error?: string }; sentBytes: number } | { aborted: true; sentBytes: number }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { 'Content-Type': 'application/pdf' };
    if (options.contentLength !== undefined) headers['Content-Length'] = options.contentLength;
    const req = request(`${url}${uploadUrl}`, { method: 'PUT', headers });
    let sent = 0;
    let done = false;
    req.on('response', (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (data += d));
      res.on('end', () => {
        done = true;
        resolve({ status: res.statusCode!, body: JSON.parse(data), sentBytes: sent });
      });
    });
    req.on('error', (error) => {
      if (done) return;
      if (options.abortAfter !== undefined) resolve({ aborted: true, sentBytes: sent });
      else reject(error);
    });
    const head = options.head ?? Buffer.from('%PDF-1.4\n');
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (sent < options.total && !done) {
        if (options.abortAfter !== undefined && sent >= options.abortAfter) {
          setTimeout(() => req.destroy(), 50);
          return;
        }
        let piece = sent === 0 ? Buffer.concat([head, chunk]) : chunk;
        piece = piece.subarray(0, Math.min(piece.length, options.total - sent));
        sent += piece.length;
        if (!req.write(piece)) return void req.once('drain', pump);
      }
      if (!done && options.abortAfter === undefined) req.end();
    };
    pump();
  });
}

describe.each(dbKinds)('document uploads (%s)', (kind) => {
  let app: TestServer;
  let api: BookingClient;
  beforeAll(async () => {
    app = await startTestApp(kind, { BOOKING_BASE_FEE_CENTS: '2500', BOOKING_EXTRA_DOCUMENT_FEE_CENTS: '500' });
    api = bookingClient(app.url);
  });
  afterAll(() => app.close());
  beforeEach(() => {
    app.deps.now = () => now;
  });

  const draft = async () => (await api.booking.start.mutate({ timeZone: 'America/Chicago' })).bookingId;
  const target = (bookingId: string, fileName: string, sizeBytes = 1000, contentType = 'application/pdf') =>
    api.documents.createUpload.mutate({ bookingId, fileName, sizeBytes, contentType });
  const rowsOf = (bookingId: string) => app.deps.db.select().from(documents).where(eq(documents.bookingId, bookingId));
  const upload = async (bookingId: string, fileName: string, bytes: Buffer) => {
    const { uploadUrl } = await target(bookingId, fileName, bytes.length);
    return putBytes(app.url, uploadUrl, bytes);
  };

  it('stores a PDF, a JPEG and a PNG under {booking}/{random}.{ext}, judged by their bytes', async () => {
    const bookingId = await draft();
    const cases = [
      ['Deed of Trust.pdf', 'sample.pdf', 'application/pdf', 'pdf'],
      ['passport scan.jpeg', 'sample.jpg', 'image/jpeg', 'jpg'],
      ['signature.png', 'sample.png', 'image/png', 'png'],
    ] as const;
    for (const [name, file, contentType, ext] of cases) {
      const bytes = fixture(file);
      const { uploadUrl, documentId } = await target(bookingId, name, bytes.length, contentType);
      expect(uploadUrl).toMatch(/^\/api\/uploads\/[A-Za-z0-9_-]{43}$/);
      const res = await putBytes(app.url, uploadUrl, bytes);
      expect(res).toEqual({ status: 201, body: { document: { id: documentId, name, sizeBytes: bytes.length, contentType } } });
      const [row] = await app.deps.db.select().from(documents).where(eq(documents.id, documentId));
      expect(row!.storageKey).toMatch(keyPattern);
      expect(row!.storageKey.startsWith(`${bookingId}/`)).toBe(true);
      expect(row!.storageKey.endsWith(`.${ext}`)).toBe(true);
      expect(row!.storageKey).not.toContain(name.split('.')[0]!);
      expect(row).toMatchObject({ status: 'stored', scanStatus: 'skipped', uploadTokenHash: null });
      expect(readFileSync(path.join(app.dataDir, 'documents', row!.storageKey)).equals(bytes)).toBe(true);
    }
    const view = await api.booking.get.query({ bookingId });
    expect(view.documents.map((d) => d.name)).toEqual(cases.map((c) => c[0]));
    // Base fee plus two extra documents at the configured 5.00 each, computed on the server.
    expect(view.priceCents).toBe(3500);
  });

  it('a file the customer marks as supporting at upload is the act’s supporting file: shown, never charged, and not enough on its own to pay', async () => {
    const bookingId = await draft();
    const photo = fixture('sample.jpg');
    const { uploadUrl, documentId } = await api.documents.createUpload.mutate({ bookingId, fileName: 'my id.jpg', sizeBytes: photo.length, contentType: 'image/jpeg', supporting: true });
    expect((await putBytes(app.url, uploadUrl, photo)).status).toBe(201);
    let view = await api.booking.get.query({ bookingId });
    expect(view.documents).toMatchObject([{ id: documentId, supporting: true }]);
    // The same mark the notary sets in the room: the act never seals or waits for it.
    const [act] = await app.deps.db.select().from(notarialDocuments).where(eq(notarialDocuments.documentId, documentId));
    expect(act!.supportingAt).toEqual(now);
    // Supporting files alone are not a notarization: the payment step is refused.
    await api.booking.hold.mutate({ bookingId, startsAt: chicago('2027-03-12', '11:00'), timeZone: 'America/Chicago' });
    await api.booking.saveContact.mutate({ bookingId, firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '(515) 555-0100' });
    expect((await api.booking.get.query({ bookingId })).status).toBe('awaiting_payment');
    expect(await rejectionOf(api.payments.createIntent.mutate({ bookingId }))).toMatchObject({ message: incompleteStepsMessage });
    // A document to notarize is charged; the supporting file is not (base fee only, not base + 5.00).
    const pdf = fixture('sample.pdf');
    expect((await upload(bookingId, 'affidavit.pdf', pdf)).status).toBe(201);
    view = await api.booking.get.query({ bookingId });
    expect(view.documents.map((d) => d.supporting)).toEqual([true, false]);
    expect(view.priceCents).toBe(2500);
    expect((await upload(bookingId, 'deed.pdf', pdf)).status).toBe(201);
    expect((await api.booking.get.query({ bookingId })).priceCents).toBe(3000);
    expect((await api.payments.createIntent.mutate({ bookingId })).amountCents).toBe(3000);
  });

  it('refuses an image over 50 megapixels (a 17 KB decompression bomb) and an encrypted PDF, keeping nothing', async () => {
    const bookingId = await draft();
    const bomb = await upload(bookingId, 'scan.png', pngBomb(12_000, 12_000));
    expect(bomb).toEqual({ status: 422, body: { error: imageTooLargeMessage('scan.png') } });
    const jpeg = await upload(bookingId, 'id-front.jpg', jpegHeader(10_000, 6_000));
    expect(jpeg).toEqual({ status: 422, body: { error: imageTooLargeMessage('id-front.jpg') } });
    const zip = await upload(bookingId, 'small.png', pngZipBomb(8 * 1024 * 1024));
    expect(zip).toEqual({ status: 422, body: { error: unreadableImageMessage('small.png') } });
    const encrypted = Buffer.from(fixture('sample.pdf').toString('latin1').replace('trailer\n<<', 'trailer\n<< /Encrypt 9 0 R'), 'latin1');
    expect(await upload(bookingId, 'locked.pdf', encrypted)).toEqual({ status: 422, body: { error: encryptedPdfMessage('locked.pdf') } });
    expect(await rowsOf(bookingId)).toEqual([]);
    expect(storedFiles(app.dataDir).filter((key) => key.startsWith(bookingId))).toEqual([]);
  });

  it('stores PNG bytes named .pdf as a PNG with a .png key', async () => {
    const bookingId = await draft();
    const res = await upload(bookingId, 'contract.pdf', fixture('png-named.pdf'));
    expect(res.status).toBe(201);
    expect(res.body.document).toMatchObject({ name: 'contract.pdf', contentType: 'image/png' });
    const [row] = await rowsOf(bookingId);
    expect(row!.storageKey).toMatch(/\.png$/);
  });

  it("refuses text named .pdf and a .txt with the spec's 415 message, keeping nothing", async () => {
    const bookingId = await draft();
    const before = storedFiles(app.dataDir).length;
    for (const [name, file] of [['contract.pdf', 'text-named.pdf'], ['notes.txt', 'script.txt']] as const) {
      const res = await upload(bookingId, name, fixture(file));
      expect(res).toEqual({ status: 415, body: { error: unsupportedFileMessage(name) } });
    }
    expect(res415Message()).toBe('contract.pdf is not a supported file type. Please upload PDF, JPEG, or PNG.');
    expect(await rowsOf(bookingId)).toEqual([]);
    expect(storedFiles(app.dataDir)).toHaveLength(before);
  });
  const res415Message = () => unsupportedFileMessage('contract.pdf');

  it('refuses empty files, both when declared and when the body is empty', async () => {
    const bookingId = await draft();
    expect(await rejectionOf(target(bookingId, 'empty.pdf', 0))).toMatchObject({ code: 'BAD_REQUEST', message: 'empty.pdf is empty.' });
    const { uploadUrl } = await target(bookingId, 'empty.pdf', 100);
    expect(await putBytes(app.url, uploadUrl, new Uint8Array(0))).toEqual({ status: 400, body: { error: 'empty.pdf is empty.' } });
    expect(await rowsOf(bookingId)).toEqual([]);
  });

  it('accepts exactly 10,485,760 bytes', async () => {
    const bookingId = await draft();
    const bytes = Buffer.alloc(maxFileBytes, 0x20);
    bytes.write('%PDF-1.7\n');
    const res = await upload(bookingId, 'big.pdf', bytes);
    expect(res.status).toBe(201);
    expect(res.body.document!.sizeBytes).toBe(maxFileBytes);
  });

  it('answers 413 for 10 MB + 1 byte (declared, or streamed chunked) and stores nothing', async () => {
    const bookingId = await draft();
    expect(await rejectionOf(target(bookingId, 'huge.pdf', maxFileBytes + 1))).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      message: fileTooLargeMessage('huge.pdf'),
    });
    const before = storedFiles(app.dataDir);

    // Declared length over the limit: refused before reading the body.
    const declared = await target(bookingId, 'huge.pdf', 1000);
    const first = await rawPut(app.url, declared.uploadUrl, { total: maxFileBytes + 1, contentLength: maxFileBytes + 1 });
    expect(first).toMatchObject({ status: 413, body: { error: 'huge.pdf exceeds the maximum file size of 10MB.' } });

    // No length (chunked): counted while streaming, stopped at the first byte past the limit.
    const chunked = await target(bookingId, 'huge.pdf', 1000);
    const second = await rawPut(app.url, chunked.uploadUrl, { total: maxFileBytes + 1 });
    expect(second).toMatchObject({ status: 413, body: { error: fileTooLargeMessage('huge.pdf') } });

    // A much larger body: the server stops reading soon after the limit instead of taking it all.
    const flood = await target(bookingId, 'huge.pdf', 1000);
    const third = await rawPut(app.url, flood.uploadUrl, { total: 200 * 1024 * 1024 });
    expect(third).toMatchObject({ status: 413 });
    expect(third.sentBytes).toBeLessThan(40 * 1024 * 1024);

    await until(async () => (await rowsOf(bookingId)).length === 0);
    expect(storedFiles(app.dataDir)).toEqual(before);
  });

  it('keeps nothing from an upload cut off midway', async () => {
    const bookingId = await draft();
    const before = storedFiles(app.dataDir);
    for (const contentLength of [2_000_000, undefined]) {
      const { uploadUrl } = await target(bookingId, 'cut.pdf', 2_000_000);
      const result = await rawPut(app.url, uploadUrl, { total: 2_000_000, contentLength, abortAfter: 700_000 });
      expect(result).toMatchObject({ aborted: true });
      await until(async () => (await rowsOf(bookingId)).length === 0);
    }
    await until(async () => storedFiles(app.dataDir).length === before.length);
    expect(storedFiles(app.dataDir)).toEqual(before);
    expect((await api.booking.get.query({ bookingId })).documents).toEqual([]);
  });

  it('answers 400 (and does not hang) when the client is already gone once the token is checked', async () => {
    const bookingId = await draft();
    const { uploadUrl } = await target(bookingId, 'gone.pdf');
    const body = new Readable({ read() {} });
    body.push(Buffer.from('%PDF-1.4\n'));
    body.destroy();
    await new Promise((r) => setImmediate(r));
    await expect(receiveUpload(app.deps, { token: uploadUrl.split('/').pop()!, body, declaredLength: 1000 })).rejects.toMatchObject({ status: 400 });
    expect(await rowsOf(bookingId)).toEqual([]);
  });

  it('accepts each upload link once, and not after it expires', async () => {
    const bookingId = await draft();
    const { uploadUrl } = await target(bookingId, 'a.pdf');
    expect((await putBytes(app.url, uploadUrl, fixture('sample.pdf'))).status).toBe(201);
    expect(await putBytes(app.url, uploadUrl, fixture('sample.pdf'))).toEqual({ status: 404, body: { error: uploadLinkInvalidMessage } });

    const late = await target(bookingId, 'b.pdf');
    app.deps.now = () => new Date(now.getTime() + 16 * 60_000);
    expect((await putBytes(app.url, late.uploadUrl, fixture('sample.pdf'))).status).toBe(404);
    expect((await putBytes(app.url, '/api/uploads/not-a-token', fixture('sample.pdf'))).status).toBe(404);
  });

  it('removes a document: gone from the booking, from storage, and from the price', async () => {
    const bookingId = await draft();
    const one = await upload(bookingId, 'one.pdf', fixture('sample.pdf'));
    await upload(bookingId, 'two.png', fixture('sample.png'));
    expect((await api.booking.get.query({ bookingId })).priceCents).toBe(3000);
    const [row] = await app.deps.db.select().from(documents).where(eq(documents.id, one.body.document!.id));
    const view = await api.documents.remove.mutate({ bookingId, documentId: one.body.document!.id });
    expect(view.documents.map((d) => d.name)).toEqual(['two.png']);
    expect(view.priceCents).toBe(2500);
    expect(existsSync(path.join(app.dataDir, 'documents', row!.storageKey))).toBe(false);
    expect(await rejectionOf(api.documents.remove.mutate({ bookingId, documentId: one.body.document!.id }))).toMatchObject({
      code: 'NOT_FOUND',
      message: documentNotFoundMessage,
    });
    // Another booking's document is not this booking's to remove.
    const other = await draft();
    const theirs = await upload(other, 'theirs.pdf', fixture('sample.pdf'));
    expect((await rejectionOf(api.documents.remove.mutate({ bookingId, documentId: theirs.body.document!.id }))).code).toBe('NOT_FOUND');
  });

  it('refuses a second upload once the booking is paid (409), even with a link issued before', async () => {
    const bookingId = await draft();
    await upload(bookingId, 'first.pdf', fixture('sample.pdf'));
    const early = await target(bookingId, 'second.pdf');
    await api.booking.hold.mutate({ bookingId, startsAt: chicago('2027-03-12', '10:00'), timeZone: 'America/Chicago' });
    await app.deps.db.transaction((tx) => confirmBooking(tx, app.deps, { bookingId }));

    expect(await rejectionOf(target(bookingId, 'second.pdf'))).toEqual({ code: 'CONFLICT', message: bookingLockedMessage, httpStatus: 409 });
    expect(await putBytes(app.url, early.uploadUrl, fixture('sample.pdf'))).toEqual({ status: 409, body: { error: bookingLockedMessage } });
    const view = await api.booking.get.query({ bookingId });
    expect(view.documents.map((d) => d.name)).toEqual(['first.pdf']);
    expect((await rejectionOf(api.documents.remove.mutate({ bookingId, documentId: view.documents[0]!.id }))).code).toBe('CONFLICT');
  });

  it('marks a document found infected later, drops its bytes and keeps it listed (it blocks payment)', async () => {
    const bookingId = await draft();
    const res = await upload(bookingId, 'bad.pdf', fixture('sample.pdf'));
    const [row] = await rowsOf(bookingId);
    await recordScanResult(app.deps, res.body.document!.id, 'infected');
    const view = await api.booking.get.query({ bookingId });
    expect(view.documents).toMatchObject([{ name: 'bad.pdf', scanStatus: 'infected' }]);
    expect(existsSync(path.join(app.dataDir, 'documents', row!.storageKey))).toBe(false);
    await api.documents.remove.mutate({ bookingId, documentId: res.body.document!.id });
    expect((await api.booking.get.query({ bookingId })).documents).toEqual([]);
  });
});

describe('document uploads with a virus scanner (clamd protocol)', () => {
  let clamd: FakeClamd;
  let app: TestServer;
  let api: BookingClient;
  const marker = Buffer.from('X-TEST-MALWARE-MARKER');
  beforeAll(async () => {
    clamd = await startFakeClamd({ signatures: [{ name: 'Test-Marker', bytes: marker, offset: '*' }] });
    app = await startTestApp('pglite', { CLAMAV_HOST: clamd.host, CLAMAV_PORT: String(clamd.port) });
    api = bookingClient(app.url);
  });
  afterAll(async () => {
    await app.close();
    await clamd.close();
  });

  it('stores clean files as clean and refuses infected ones (422), keeping no bytes', async () => {
    const { bookingId } = await api.booking.start.mutate({ timeZone: 'UTC' });
    const clean = await api.documents.createUpload.mutate({ bookingId, fileName: 'ok.pdf', sizeBytes: 600, contentType: 'application/pdf' });
    expect((await putBytes(app.url, clean.uploadUrl, fixture('sample.pdf'))).status).toBe(201);
    const infected = await api.documents.createUpload.mutate({ bookingId, fileName: 'bad.pdf', sizeBytes: 600, contentType: 'application/pdf' });
    const res = await putBytes(app.url, infected.uploadUrl, Buffer.concat([fixture('sample.pdf'), marker]));
    expect(res).toEqual({ status: 422, body: { error: 'bad.pdf failed the virus scan and was removed.' } });
    const view = await api.booking.get.query({ bookingId });
    expect(view.documents).toMatchObject([{ name: 'ok.pdf', scanStatus: 'clean' }]);
    expect(storedFiles(app.dataDir)).toHaveLength(1);
  });
});

describe('document uploads to S3-compatible storage', () => {
  let s3: LocalS3;
  let app: TestServer;
  let api: BookingClient;
  beforeAll(async () => {
    s3 = await startLocalS3('notary-uploads-test');
    app = await startTestApp('pglite', s3.env); // start-up creates the (private) bucket
    api = bookingClient(app.url);
  });
  afterAll(async () => {
    await app.close();
    await s3.close();
  });

  it('streams uploads into the bucket and refuses oversized ones without leaving an object', async () => {
    const { bookingId } = await api.booking.start.mutate({ timeZone: 'UTC' });
    const bytes = Buffer.alloc(7 * 1024 * 1024, 0x41);
    bytes.write('%PDF-1.5\n');
    const { uploadUrl, documentId } = await api.documents.createUpload.mutate({ bookingId, fileName: 'long.pdf', sizeBytes: bytes.length, contentType: 'application/pdf' });
    expect((await putBytes(app.url, uploadUrl, bytes)).status).toBe(201);
    const [row] = await app.deps.db.select().from(documents).where(eq(documents.id, documentId));
    const stored = await app.deps.storage.get(row!.storageKey);
    const chunks: Buffer[] = [];
    for await (const chunk of stored.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);

    const big = await api.documents.createUpload.mutate({ bookingId, fileName: 'huge.pdf', sizeBytes: 1000, contentType: 'application/pdf' });
    expect(await rawPut(app.url, big.uploadUrl, { total: maxFileBytes + 1 })).toMatchObject({ status: 413 });
    const rows = await app.deps.db.select().from(documents).where(eq(documents.bookingId, bookingId));
    expect(rows).toHaveLength(1);
  });
});
