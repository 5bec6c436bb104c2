import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings, documents, identityVerifications, notarialDocuments, outbox, sessionRecordings } from '../../src/server/db/schema.ts';
import type { Deps } from '../../src/server/deps.ts';
import { verifyJournal } from '../../src/server/features/journal/service.ts';
import { purgeExpiredNotarizedCopies } from '../../src/server/features/notarial-act/retention-service.ts';
import { purgeExpiredDocuments } from '../../src/server/features/retention/service.ts';
import { formatInZone } from '../../src/shared/time.ts';
import { verificationLinkPattern, verifyMessages } from '../../src/shared/verification.ts';
import { purgeExpiredIdentity } from '../../src/server/features/identity/service.ts';
import { finishSession, startSession } from '../../src/server/features/session/service.ts';
import { actMessages } from '../../src/shared/notarial-act.ts';
import { notaryProfiles } from '../../src/server/db/schema.ts';
import { generateTestCertificate } from '../../src/server/features/notarial-act/certificates.ts';
import { confirmTestCard } from '../../src/server/features/payments/service.ts';
import { testIdentityOutcomes } from '../../src/server/adapters/identity/test-provider.ts';
import { actLabels, identityMessages, type CustomerIdentityView } from '../../src/shared/notarial-act.ts';
import { startTestApp, type TestServer } from '../helpers/app.ts';
import { dbKinds } from '../helpers/db.ts';
import { paymentClock } from '../helpers/payments.ts';
import { bookingIn } from '../helpers/bookings.ts';
import { fillSecrets } from '../../src/server/features/notifications/secrets.ts';

type MailBody = { to: string; subject: string; text: string; html: string };
import { createStaffUser, trpcHttp, type TestStaffUser } from '../helpers/staff.ts';

/**
 * The notarial act through the real HTTP surface with the TEST MODE identity
 * provider: identity (fail, retry, pass, three strikes), the notary's
 * confirmation, placing, adopting, sealing (journal entry, original kept),
 * delivery email and download, and who may see what.
 */
const fixtures = new URL('../fixtures/', import.meta.url);
const samplePdf = readFileSync(new URL('sample.pdf', fixtures));
const jpg = readFileSync(new URL('sample.jpg', fixtures)).toString('base64');
const png = readFileSync(new URL('sample.png', fixtures)).toString('base64');
const dir = mkdtempSync(path.join(tmpdir(), 'act-it-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function confirmedBooking(deps: Deps) {
  const { bookingId, reference } = await bookingIn(deps, 'awaiting_payment');
  const [doc] = await deps.db.select().from(documents).where(eq(documents.bookingId, bookingId));
  await deps.storage.put(doc!.storageKey, Readable.from(samplePdf), { contentType: 'application/pdf' });
  await confirmTestCard(deps, { bookingId, number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123', name: 'Grace Hopper', email: 'grace@example.com' });
  const rows = await deps.db.select().from(outbox).where(eq(outbox.dedupeKey, `booking-confirmed:${bookingId}`));
  const stored = rows[0]!.payload as { message: MailBody; sealedSecrets: Record<string, string> };
  const { text } = fillSecrets(deps.secrets, stored.message, stored.sealedSecrets);
  const token = /\/booking\/([A-Za-z0-9_-]{43})/.exec(text)![1]!;
  expect(text).toContain(actLabels.verifyIdentity);
  return { bookingId, reference, token, documentId: doc!.id };
}

describe.each(dbKinds)('the notarial act on %s', (kind) => {
  let app: TestServer;
  let clock: Date;
  let notary: TestStaffUser;
  let otherNotary: TestStaffUser;
  let office: TestStaffUser;
  let admin: TestStaffUser;
  type Who = 'notary' | 'notary2' | 'staff' | 'admin';
  const cookies = {} as Record<Who, string>;

  beforeAll(async () => {
    app = await startTestApp(kind, { PUBLIC_URL: 'https://notary.test', BOOKING_SLOT_CAPACITY: '100' });
    clock = paymentClock;
    app.deps.now = () => clock;
    notary = await createStaffUser(app.deps, { role: 'notary', name: 'Nora Notary' });
    otherNotary = await createStaffUser(app.deps, { role: 'notary', name: 'Other Notary' });
    office = await createStaffUser(app.deps, { role: 'staff' });
    admin = await createStaffUser(app.deps, { role: 'admin' });
    for (const user of [notary, otherNotary, office, admin]) cookies[(user.role + (user === otherNotary ? '2' : '')) as Who] = await user.sessionCookie();
  });
  afterAll(() => app.close());

  const call = async (route: string, input: unknown, options: { cookie?: string; type?: 'query' | 'mutation' } = {}) => {
    const res = await trpcHttp(app.url, route, { input, cookie: options.cookie, type: options.type ?? 'mutation', headers: { origin: app.url } });
    return { status: res.status, data: res.body.result?.data.json as never, message: res.body.error?.json.message };
  };
  const submit = async (token: string, nameOnId: string, images: Record<string, string> = { front: jpg, back: png, selfie: jpg }) => {
    const res = await fetch(`${app.url}/api/manage/identity/test?token=${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: app.url },
      body: JSON.stringify({ nameOnId, ...images }),
    });
    return { status: res.status, body: (await res.json()) as CustomerIdentityView & { error?: string } };
  };
  const assign = (bookingId: string, notaryId: string) => app.deps.db.update(bookings).set({ notaryId }).where(eq(bookings.id, bookingId));

  it('TEST MODE identity: the failing name fails with its message, a retry passes, the notary must confirm before the session', async () => {
    const b = await confirmedBooking(app.deps);
    await assign(b.bookingId, notary.id);
    expect((await call('manageAct.identity', { token: b.token }, { type: 'query' })).data).toMatchObject({ mode: 'test', open: true, status: 'not_started', attemptsLeft: 3 });

    // Bytes decide: a PDF (or text) is not a photo; nothing is recorded.
    const bad = await submit(b.token, 'Grace Hopper', { front: samplePdf.toString('base64'), back: png, selfie: jpg });
    expect(bad).toMatchObject({ status: 400, body: { error: identityMessages.badImage } });
    expect((await submit(b.token, 'Grace Hopper', { front: jpg, back: png, selfie: '' })).body.error).toBe(identityMessages.missingImage);

    const failed = await submit(b.token, 'Ida Fail');
    expect(failed.body).toMatchObject({ status: 'failed', attemptsUsed: 1, attemptsLeft: 2, message: `${identityMessages.failedPrefix} ${testIdentityOutcomes.fail}` });
    const blocked = await call('act.identity', { bookingId: b.bookingId }, { cookie: cookies.notary, type: 'query' });
    expect(blocked.data).toMatchObject({ startBlocker: identityMessages.notVerified, latest: { status: 'failed' } });

    const passed = await submit(b.token, 'Grace Hopper');
    expect(passed.body).toMatchObject({ status: 'verified', attemptsUsed: 2 });
    const seen = await call('act.identity', { bookingId: b.bookingId }, { cookie: cookies.notary, type: 'query' });
    expect(seen.data).toMatchObject({
      bookingName: 'Grace Hopper',
      startBlocker: identityMessages.notConfirmed,
      latest: { status: 'verified', nameOnId: 'Grace Hopper', nameMatchesBooking: true, documentType: 'driving_license', issuingState: 'IA', selfieMatch: true, imageParts: ['front', 'back', 'selfie'] },
    });
    // The images are stored privately, as uploaded.
    const [row] = await app.deps.db.select().from(identityVerifications).where(and(eq(identityVerifications.bookingId, b.bookingId), eq(identityVerifications.status, 'verified')));
    expect(await buffer((await app.deps.storage.get(row!.imageKeys![0]!)).body)).toEqual(Buffer.from(jpg, 'base64'));

    const confirmed = await call('act.confirmIdentity', { bookingId: b.bookingId, verificationId: (seen.data as { latest: { id: string } }).latest.id }, { cookie: cookies.notary });
    expect(confirmed.data).toMatchObject({ startBlocker: null });
    // Verified once: no more attempts.
    expect((await submit(b.token, 'Grace Hopper')).body.error).toBe(identityMessages.alreadyVerified);
  });

  it('three failed attempts lock verification and tell staff', async () => {
    const b = await confirmedBooking(app.deps);
    for (const name of ['Ida Fail', 'Ida Mismatch', 'Ida Expired']) await submit(b.token, name);
    const view = (await call('manageAct.identity', { token: b.token }, { type: 'query' })).data as CustomerIdentityView;
    expect(view).toMatchObject({ status: 'locked', attemptsLeft: 0, message: identityMessages.noAttemptsLeft });
    expect((await submit(b.token, 'Grace Hopper')).body.error).toBe(identityMessages.noAttemptsLeft);
    const staffMail = await app.deps.db.select().from(outbox).where(eq(outbox.dedupeKey, `identity-exhausted:${b.bookingId}`));
    expect(staffMail).toHaveLength(1);
    const message = (staffMail[0]!.payload as { message: { to: string; text: string } }).message;
    expect(message.to).toBe(app.deps.config.STAFF_EMAIL);
    // No personal data from the ID in the staff email.
    expect(message.text).not.toMatch(/Ida|driving_license/);
  });

  it('signs, seals and delivers: journal entry, original kept, email with a working link, valid PDF — and refuses everyone else', async () => {
    const b = await confirmedBooking(app.deps);
    const other = await confirmedBooking(app.deps);
    await assign(b.bookingId, notary.id);
    await submit(b.token, 'Grace Hopper');
    const identity = await call('act.identity', { bookingId: b.bookingId }, { cookie: cookies.notary, type: 'query' });
    const verificationId = (identity.data as { latest: { id: string } }).latest.id;

    // Sealing waits for the confirmation, the signature and the commission.
    expect((await call('act.seal', { bookingId: b.bookingId, documentId: b.documentId, actType: 'acknowledgment' }, { cookie: cookies.notary })).status).toBe(412);
    await call('act.confirmIdentity', { bookingId: b.bookingId, verificationId }, { cookie: cookies.notary });
    expect((await call('manageAct.adoptSignature', { token: b.token, documentId: b.documentId, kind: 'typed', text: 'Grace Hopper', png: `data:image/png;base64,${png}` })).message).toBe('Wait until the notary shows you where to sign.');
    expect((await call('act.place', { bookingId: b.bookingId, documentId: b.documentId, page: 9, xPercent: 50, yPercent: 80 }, { cookie: cookies.notary })).status).toBe(400);
    expect((await call('act.place', { bookingId: b.bookingId, documentId: b.documentId, page: 1, xPercent: 50, yPercent: 80 }, { cookie: cookies.notary })).status).toBe(200);
    expect((await call('manageAct.adoptSignature', { token: b.token, documentId: b.documentId, kind: 'drawn', png: 'data:image/png;base64,AAAA' })).status).toBe(400);
    expect((await call('manageAct.adoptSignature', { token: b.token, documentId: b.documentId, kind: 'typed', text: 'Grace Hopper', png: `data:image/png;base64,${png}` })).status).toBe(200);
    const noCommission = await call('act.seal', { bookingId: b.bookingId, documentId: b.documentId, actType: 'acknowledgment' }, { cookie: cookies.notary });
    expect(noCommission.message).toMatch(/commission number/);
    await call('act.updateCommission', { commissionNumber: 'IA-778899', commissionExpiresOn: '2029-06-30', commissionState: 'Iowa', commissionCounty: 'Polk' }, { cookie: cookies.notary });
    const sealed = await call('act.seal', { bookingId: b.bookingId, documentId: b.documentId, actType: 'acknowledgment' }, { cookie: cookies.notary });
    expect(sealed.status).toBe(200);
    expect(sealed.data).toMatchObject({ allSealed: true, documents: [{ sealed: true, actType: 'acknowledgment' }] });

    // The original is untouched; the sealed copy's hash is recorded and journalled.
    const [doc] = await app.deps.db.select().from(documents).where(eq(documents.id, b.documentId));
    expect(await buffer((await app.deps.storage.get(doc!.storageKey)).body)).toEqual(samplePdf);
    const [act] = await app.deps.db.select().from(notarialDocuments).where(eq(notarialDocuments.documentId, b.documentId));
    const journal = await call('act.journal', {}, { cookie: cookies.notary, type: 'query' });
    expect(journal.data).toEqual([expect.objectContaining({ kind: 'act', data: expect.objectContaining({ sealedSha256: act!.sealedSha256, signerName: 'Grace Hopper', actType: 'acknowledgment', feeCents: 2500, identity: expect.objectContaining({ provider: 'test', issuingState: 'IA' }) }) })]);
    // Sealing took a signed checkpoint of the journal's new head (decision 090).
    expect(await verifyJournal(app.deps)).toMatchObject({ ok: true, unanchored: 0, latestCheckpoint: { seq: expect.any(Number), signed: true } });

    // Finishing as completed: refused while a document is unsealed is covered below; the room's
    // own rule wants a stored recording (made by the browser journey; here a row stands in).
    await app.deps.db.insert(sessionRecordings).values({ bookingId: b.bookingId, status: 'stored', mimeType: 'video/webm', storageKey: `recordings/${b.bookingId}/r.webm`, sizeBytes: 10 });
    // Finishing (the appointment time has passed) sends the email with a link of its own.
    clock = new Date(clock.getTime() + 3 * 86_400_000);
    // Sessions idle that long have expired: everyone signs in again.
    for (const user of [notary, otherNotary, office, admin]) cookies[(user.role + (user === otherNotary ? '2' : '')) as Who] = await user.sessionCookie();
    expect((await call('console.bookings.markOutcome', { bookingId: b.bookingId, outcome: 'completed' }, { cookie: cookies.notary })).status).toBe(200);
    const [mail] = await app.deps.db.select().from(outbox).where(eq(outbox.dedupeKey, `notarized-ready:${b.bookingId}`));
    const stored = mail!.payload as { message: MailBody; sealedSecrets: Record<string, string> };
    // Stored with a placeholder; the link is filled in at send time.
    expect(stored.message.text).not.toMatch(/\/booking\/[A-Za-z0-9_-]{43}/);
    const message = fillSecrets(app.deps.secrets, stored.message, stored.sealedSecrets);
    expect(message.subject).toBe(actLabels.documentReadySubject);
    const link = /\/booking\/([A-Za-z0-9_-]{43})/.exec(message.text)![1]!;
    expect(link).not.toBe(b.token);

    for (const token of [b.token, link]) {
      const res = await fetch(`${app.url}/api/manage/notarized/${b.documentId}?token=${token}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="affidavit-notarized.pdf"/);
      const pdf = Buffer.from(await res.arrayBuffer());
      expect(createHash('sha256').update(pdf).digest('hex')).toBe(act!.sealedSha256);
      const file = path.join(dir, `${kind}-delivered.pdf`);
      writeFileSync(file, pdf);
      const report = spawnSync('pdfsig', [file], { encoding: 'utf8' }).stdout;
      expect(report).toContain('Signature is Valid');
      expect(report).toContain('Nora Notary');
    }
    // The email says until when the copy is kept, and where anyone can check it (decisions 091, 092).
    const keptUntil = new Date(act!.sealedAt!.getTime() + app.deps.config.NOTARIZED_DOCUMENT_RETENTION_DAYS * 86_400_000);
    expect(app.deps.config.NOTARIZED_DOCUMENT_RETENTION_DAYS).toBe(90);
    expect(message.text).toContain(`We keep your notarized document for download until ${formatInZone(keptUntil, 'America/Chicago').date}`);
    expect(message.text).toContain('https://notary.test/verify');
    expect(message.html).toContain('Verify a notarized document');

    // ---- /verify: the code printed on the certificate page, the file's hash, nothing of the signer ----
    const delivered = Buffer.from(await (await fetch(`${app.url}/api/manage/notarized/${b.documentId}?token=${b.token}`)).arrayBuffer());
    const printed = verificationLinkPattern.exec(delivered.toString('latin1'));
    expect(printed![0]).toMatch(/^\/verify\?code=[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    expect(delivered.toString('latin1')).toContain(`https://notary.test/verify?code=${printed![1]}`);
    const code = printed![1]!;
    const check = (input: unknown) => call('verification.check', input);
    const intactByFile = await check({ sha256: act!.sealedSha256 });
    expect(intactByFile.data).toMatchObject({
      outcome: 'intact',
      checkedBy: 'file',
      act: { notaryName: 'Nora Notary', commissionNumber: 'IA-778899', commissionState: 'Iowa', commissionExpiresOn: '2029-06-30', actType: 'acknowledgment', verificationCode: code, signatureLevel: expect.any(String), timestampAuthority: null },
    });
    expect(JSON.stringify(intactByFile.data)).not.toMatch(/Grace|Hopper|grace@|IA-?DL|driving/);
    expect((await check({ code: code.toLowerCase().replace(/-/g, ' ') })).data).toMatchObject({ outcome: 'intact', checkedBy: 'code' });
    expect((await check({ code, sha256: act!.sealedSha256 })).data).toMatchObject({ outcome: 'intact', checkedBy: 'file' });
    const changedBytes = Buffer.from(delivered);
    changedBytes.writeUInt8(changedBytes[200]! ^ 1, 200);
    expect((await check({ code, sha256: createHash('sha256').update(changedBytes).digest('hex') })).data).toMatchObject({ outcome: 'changed', act: { notaryName: 'Nora Notary' } });
    expect((await check({ sha256: createHash('sha256').update(changedBytes).digest('hex') })).data).toEqual({ outcome: 'unknown' });
    expect((await check({ code: 'ZZZZ-ZZZZ-ZZZZ' })).data).toEqual({ outcome: 'unknown' });
    expect(await check({ code: 'not a code' })).toMatchObject({ status: 400, message: verifyMessages.badCode });
    expect((await check({})).status).toBe(400);

    // Staff can send it again.
    expect((await call('act.resendDocument', { bookingId: b.bookingId }, { cookie: cookies.staff })).status).toBe(200);
    expect((await app.deps.db.select().from(outbox).where(eq(outbox.kind, 'notarized_document_ready'))).length).toBeGreaterThanOrEqual(2);

    // ---- Access: strangers, other customers, unassigned notaries, office staff ----
    const sealedUrl = `${app.url}/api/manage/notarized/${b.documentId}`;
    expect((await fetch(sealedUrl)).status).toBe(404);
    expect((await fetch(`${sealedUrl}?token=${other.token}`)).status).toBe(404);
    const imageUrl = `${app.url}/api/staff/identity/${verificationId}/front`;
    expect((await fetch(imageUrl)).status).toBe(401);
    expect((await fetch(imageUrl, { headers: { cookie: cookies.notary2 } })).status).toBe(403);
    expect((await fetch(imageUrl, { headers: { cookie: cookies.staff } })).status).toBe(403);
    expect((await fetch(imageUrl, { headers: { cookie: cookies.notary } })).status).toBe(200);
    expect((await fetch(imageUrl, { headers: { cookie: cookies.admin } })).status).toBe(200);
    const staffSealed = `${app.url}/api/staff/notarized/${b.bookingId}/${b.documentId}`;
    expect((await fetch(staffSealed)).status).toBe(401);
    expect((await fetch(staffSealed, { headers: { cookie: cookies.notary2 } })).status).toBe(403);
    expect((await fetch(staffSealed, { headers: { cookie: cookies.notary } })).status).toBe(200);
    for (const [who, cookie, status] of [['stranger', undefined, 401], ['unassigned notary', cookies.notary2, 403], ['office staff', cookies.staff, 403]] as const) {
      expect((await call('act.identity', { bookingId: b.bookingId }, { cookie, type: 'query' })).status, who).toBe(status);
      expect((await call('act.get', { bookingId: b.bookingId }, { cookie, type: 'query' })).status, who).toBe(status);
    }
    // Another customer's link sees nothing of this booking.
    expect((await call('manageAct.adoptSignature', { token: other.token, documentId: b.documentId, kind: 'drawn', png: `data:image/png;base64,${png}` })).status).toBe(404);
    // The journal: own entries for the notary, none for another notary, refused to office staff and strangers.
    expect(((await call('act.journal', {}, { cookie: cookies.notary2, type: 'query' })).data as unknown[]).length).toBe(0);
    expect((await call('act.journal', {}, { cookie: cookies.staff, type: 'query' })).status).toBe(403);
    expect((await fetch(`${app.url}/api/staff/journal.csv`)).status).toBe(401);
    expect((await fetch(`${app.url}/api/staff/journal.csv`, { headers: { cookie: cookies.staff } })).status).toBe(403);
    const csv = await fetch(`${app.url}/api/staff/journal.csv?from=2026-01-01`, { headers: { cookie: cookies.notary } });
    expect(csv.headers.get('content-disposition')).toContain('attachment');
    expect(await csv.text()).toContain(act!.sealedSha256!);
    const pdf = await fetch(`${app.url}/api/staff/journal.pdf`, { headers: { cookie: cookies.admin } });
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect((await call('act.journal', {}, { cookie: cookies.admin, type: 'query' })).data).toHaveLength(1);

    // Retention, as for documents: the ID photos go, the details are cleared; the journal stays.
    const [verification] = await app.deps.db.select().from(identityVerifications).where(eq(identityVerifications.id, verificationId));
    clock = new Date(clock.getTime() + (app.deps.config.DOCUMENT_RETENTION_DAYS + 1) * 86_400_000);
    await purgeExpiredIdentity(app.deps);
    const [erased] = await app.deps.db.select().from(identityVerifications).where(eq(identityVerifications.id, verificationId));
    expect(erased).toMatchObject({ status: 'verified', imageKeys: null, nameOnId: null });
    expect(erased!.erasedAt).not.toBeNull();
    expect(await app.deps.storage.exists(verification!.imageKeys![0]!)).toBe(false);
    expect(await verifyJournal(app.deps)).toMatchObject({ ok: true, entries: 1 });

    // The original goes after DOCUMENT_RETENTION_DAYS; the notarized copy stays, listed and downloadable…
    await purgeExpiredDocuments(app.deps);
    const [original] = await app.deps.db.select().from(documents).where(eq(documents.id, b.documentId));
    expect(original!.status).toBe('deleted');
    expect((await call('manageAct.get', { token: b.token }, { type: 'query' })).data).toMatchObject({ documents: [{ documentId: b.documentId, sealed: true }] });
    expect((await fetch(`${app.url}/api/manage/notarized/${b.documentId}?token=${b.token}`)).status).toBe(200);
    await purgeExpiredNotarizedCopies(app.deps);
    expect(await app.deps.storage.exists(act!.sealedKey!)).toBe(true);
    // …until NOTARIZED_DOCUMENT_RETENTION_DAYS after sealing; /verify still answers from the journal.
    const beforeCopies = clock;
    clock = new Date(act!.sealedAt!.getTime() + (app.deps.config.NOTARIZED_DOCUMENT_RETENTION_DAYS + 1) * 86_400_000);
    expect(await purgeExpiredNotarizedCopies(app.deps)).toMatchObject({ deleted: 1 });
    expect(await app.deps.storage.exists(act!.sealedKey!)).toBe(false);
    expect((await fetch(`${app.url}/api/manage/notarized/${b.documentId}?token=${b.token}`)).status).toBe(404);
    expect((await call('manageAct.get', { token: b.token }, { type: 'query' })).data).toMatchObject({ documents: [] });
    expect((await call('verification.check', { sha256: act!.sealedSha256 })).data).toMatchObject({ outcome: 'intact', act: { notaryName: 'Nora Notary' } });
    // Rate limited per address (30 a minute): guessing codes gets nowhere fast.
    const statuses = [];
    for (let i = 0; i < 31; i++) statuses.push((await call('verification.check', { code: 'ZZZZ-ZZZZ-ZZZ0' })).status);
    expect(statuses).toContain(429);
    clock = beforeCopies;
    clock = new Date(clock.getTime() - (app.deps.config.DOCUMENT_RETENTION_DAYS + 1) * 86_400_000);
  });

  it('the session room cannot start until identity is verified and confirmed, nor finish as completed with a document unsealed', async () => {
    const b = await confirmedBooking(app.deps);
    await assign(b.bookingId, notary.id);
    const [row] = await app.deps.db.select({ startsAt: bookings.startsAt }).from(bookings).where(eq(bookings.id, b.bookingId));
    const saved = clock;
    clock = new Date(row!.startsAt!.getTime() - 5 * 60_000);
    try {
      const participant = { bookingId: b.bookingId, role: 'notary' as const, staffId: notary.id, staffTimeZone: null };
      await expect(startSession(app.deps, participant)).rejects.toThrow(identityMessages.notVerified);
      await submit(b.token, 'Ida Fail');
      await expect(startSession(app.deps, participant)).rejects.toThrow(identityMessages.notVerified);
      await submit(b.token, 'Grace Hopper');
      await expect(startSession(app.deps, participant)).rejects.toThrow(identityMessages.notConfirmed);
      const [verified] = await app.deps.db.select().from(identityVerifications).where(and(eq(identityVerifications.bookingId, b.bookingId), eq(identityVerifications.status, 'verified')));
      await call('act.confirmIdentity', { bookingId: b.bookingId, verificationId: verified!.id }, { cookie: await notary.sessionCookie() });
      expect((await startSession(app.deps, participant)).recordingId).toMatch(/^[0-9a-f-]{36}$/);
      clock = new Date(row!.startsAt!.getTime() + 60 * 60_000);
      await app.deps.db.update(sessionRecordings).set({ status: 'stored' }).where(eq(sessionRecordings.bookingId, b.bookingId));
      await expect(finishSession(app.deps, { staffId: notary.id, role: 'notary' }, { bookingId: b.bookingId, outcome: 'completed' })).rejects.toThrow(actMessages.notSealed);
    } finally {
      clock = saved;
    }
  });

  it('admins upload a notary’s PKCS#12: checked, stored encrypted, refused to anyone else', async () => {
    for (const user of [notary, otherNotary, office, admin]) cookies[(user.role + (user === otherNotary ? '2' : '')) as Who] = await user.sessionCookie();
    const cert = generateTestCertificate('Nora Uploaded', new Date());
    const input = { staffUserId: otherNotary.id, p12Base64: cert.p12.toString('base64'), password: cert.password };
    expect((await call('act.uploadCertificate', input, { cookie: cookies.notary2 })).status).toBe(403);
    expect((await call('act.uploadCertificate', input, { cookie: cookies.staff })).status).toBe(403);
    expect((await call('act.uploadCertificate', input)).status).toBe(401);
    const wrong = await call('act.uploadCertificate', { ...input, password: 'not it' }, { cookie: cookies.admin });
    expect(wrong).toMatchObject({ status: 400, message: 'This is not a PKCS#12 file, or the password is wrong.' });
    const ok = await call('act.uploadCertificate', input, { cookie: cookies.admin });
    expect(ok.data).toMatchObject({ certificate: { kind: 'uploaded', subject: expect.stringContaining('Nora Uploaded') } });
    const [row] = await app.deps.db.select().from(notaryProfiles).where(eq(notaryProfiles.staffUserId, otherNotary.id));
    expect(row!.certificateP12).toMatch(/^sb1\./);
    expect(row!.certificateP12).not.toContain(cert.p12.toString('base64').slice(0, 40));
    expect(row!.certificatePassword).not.toContain(cert.password);
    expect(app.deps.secrets.open(row!.certificateP12!, `notary-p12:${otherNotary.id}`)).toEqual(cert.p12);
    // Sealed for another row, it does not open.
    expect(() => app.deps.secrets.open(row!.certificateP12!, `notary-p12:${notary.id}`)).toThrow();
  });
});
