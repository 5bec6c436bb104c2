import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents } from '../../src/server/db/schema.ts';
import { holdSlot, saveContact } from '../../src/server/features/booking/service.ts';
import { recordScanResult } from '../../src/server/features/documents/service.ts';
import { infectedDocumentsMessage, infectedFileMessage } from '../../src/shared/booking.ts';
import { addDays, localDateOf, parseIsoDate, zonedInstant } from '../../src/shared/time.ts';
import { startTestApp, type TestServer } from '../helpers/app.ts';
import { dbKinds } from '../helpers/db.ts';
import { eicarBytes, startFakeClamd, type FakeClamd } from '../helpers/fake-clamd.ts';
import { bookingClient, putBytes, type BookingClient } from './booking-helpers.ts';
import { rejectionOf } from '../helpers/async.ts';

const samplePdf = readFileSync('tests/fixtures/sample.pdf');
/** A well-formed PDF that carries the EICAR test string: the type check passes, the scan must not. */
const infectedPdf = Buffer.concat([samplePdf.subarray(0, samplePdf.length - 6), Buffer.from('\n% '), eicarBytes(), Buffer.from('\n%%EOF\n')]);

describe.each(dbKinds)('virus scan of uploads (%s)', (kind) => {
  let clamd: FakeClamd;
  let app: TestServer;
  let client: BookingClient;
  beforeAll(async () => {
    clamd = await startFakeClamd();
    app = await startTestApp(kind, { CLAMAV_HOST: clamd.host, CLAMAV_PORT: String(clamd.port) });
    client = bookingClient(app.url);
  });
  afterAll(async () => {
    await app.close();
    await clamd.close();
  });
  async function upload(bookingId: string, name: string, bytes: Buffer) {
    const { uploadUrl } = await client.documents.createUpload.mutate({ bookingId, fileName: name, sizeBytes: bytes.length, contentType: 'application/pdf' });
    return putBytes(app.url, uploadUrl, bytes, 'application/pdf');
  }

  it('stores a clean PDF as scanned clean, after clamd saw every byte', async () => {
    const { bookingId } = await client.booking.start.mutate({ timeZone: 'America/Chicago' });
    const res = await upload(bookingId, 'deed.pdf', samplePdf);
    expect(res.status).toBe(201);
    expect(clamd.scanned.at(-1)!.equals(samplePdf)).toBe(true);
    const [row] = await app.deps.db.select().from(documents).where(eq(documents.id, res.body.document!.id));
    expect(row).toMatchObject({ status: 'stored', scanStatus: 'clean' });
  });

  it('refuses a PDF carrying the EICAR signature and keeps none of its bytes', async () => {
    const { bookingId } = await client.booking.start.mutate({ timeZone: 'America/Chicago' });
    const res = await upload(bookingId, 'virus.pdf', infectedPdf);
    expect(res.status).toBe(422);
    expect(res.body.error).toBe(infectedFileMessage('virus.pdf'));
    const [row] = await app.deps.db.select().from(documents).where(eq(documents.bookingId, bookingId));
    expect(row).toMatchObject({ status: 'deleted', scanStatus: 'infected' });
    expect(await app.deps.storage.exists(row!.storageKey)).toBe(false);
    expect((await client.booking.get.query({ bookingId })).documents).toEqual([]);
  });

  it('refuses payment while a document is flagged infected, and allows it once removed', async () => {
    const { deps } = app;
    const { bookingId } = await client.booking.start.mutate({ timeZone: 'America/Chicago' });
    const first = await upload(bookingId, 'contract.pdf', samplePdf);
    const second = await upload(bookingId, 'will.pdf', samplePdf);
    const startsAt = zonedInstant(addDays(parseIsoDate(localDateOf(deps.now(), 'America/Chicago')), 2), 10 * 60, 'America/Chicago');
    await holdSlot(deps, { bookingId, startsAt, timeZone: 'America/Chicago' });
    await saveContact(deps, { bookingId, firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '(555) 010-2030' });

    // A later verdict (a signature update, a rescan) flags one stored document.
    await recordScanResult(deps, second.body.document!.id, 'infected');
    const refused = await rejectionOf(client.payments.createIntent.mutate({ bookingId }));
    expect(refused).toMatchObject({ code: 'PRECONDITION_FAILED', message: infectedDocumentsMessage });

    await client.documents.remove.mutate({ bookingId, documentId: second.body.document!.id });
    const intent = await client.payments.createIntent.mutate({ bookingId });
    expect(intent).toBeTruthy();
    expect((await client.booking.get.query({ bookingId })).documents.map((d) => d.id)).toEqual([first.body.document!.id]);
  });

  it('does not pass a file when the scanner cannot be reached', async () => {
    const down = await startTestApp(kind, { CLAMAV_HOST: '127.0.0.1', CLAMAV_PORT: '1' });
    try {
      const downClient = bookingClient(down.url);
      const { bookingId } = await downClient.booking.start.mutate({ timeZone: 'America/Chicago' });
      const { uploadUrl } = await downClient.documents.createUpload.mutate({ bookingId, fileName: 'deed.pdf', sizeBytes: samplePdf.length, contentType: 'application/pdf' });
      const res = await putBytes(down.url, uploadUrl, samplePdf, 'application/pdf');
      expect(res.status).toBe(503);
      expect((await downClient.booking.get.query({ bookingId })).documents).toEqual([]);
    } finally {
      await down.close();
    }
  });
});
