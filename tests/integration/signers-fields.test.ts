import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, bookings, credibleWitnesses, documentFields, documents, identityVerifications, journalEntries, notarialDocuments, notarySessions, sessionParticipants, sessionRecordings } from '../../src/server/db/schema.ts';
import type { Deps } from '../../src/server/deps.ts';
import { participantRemovedMessage } from '../../src/server/features/access/service.ts';
import { actStage } from '../../src/server/features/act/service.ts';
import type { JournalActData } from '../../src/server/features/journal/service.ts';
import { hashToken } from '../../src/server/tokens.ts';
import { actStageMessages } from '../../src/shared/act-stages.ts';
import { fieldMessages } from '../../src/shared/document-fields.ts';
import type { ActView, NotaryIdentityView, SignerAbroad } from '../../src/shared/notarial-act.ts';
import type { SessionView } from '../../src/shared/session.ts';
import { startTestApp, type TestServer } from '../helpers/app.ts';
import { bookingIn } from '../helpers/bookings.ts';
import { dbKinds } from '../helpers/db.ts';
import { kbaPassed } from '../helpers/identity.ts';
import { createStaffUser, trpcHttp, type TestStaffUser } from '../helpers/staff.ts';

/**
 * Several signers, each their own fields (issue 29; decisions 123, 124),
 * through the real HTTP surface on both databases: the notary places fields
 * for the customer, a co-signer and a witness; each link fills only its own
 * (with its own consent and identity); sealing waits for every signer still
 * taking part and names who has not signed; a participant marked not
 * completed no longer holds it up and their empty fields are left out; a
 * credible witness is recorded on the act's trail and in the identified
 * signer's journal entry.
 */
const fixtures = new URL('../fixtures/', import.meta.url);
const samplePdf = readFileSync(new URL('sample.pdf', fixtures));
const jpg = readFileSync(new URL('sample.jpg', fixtures)).toString('base64');
const png = readFileSync(new URL('sample.png', fixtures)).toString('base64');
const dir = mkdtempSync(path.join(tmpdir(), 'signers-it-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each(dbKinds)('each signer their own fields on %s', (kind) => {
  let app: TestServer;
  let notary: TestStaffUser;
  let cookie: string;

  beforeAll(async () => {
    app = await startTestApp(kind, { PUBLIC_URL: 'https://notary.test', BOOKING_SLOT_CAPACITY: '100' });
    notary = await createStaffUser(app.deps, { role: 'notary', name: 'Nora Notary' });
    cookie = await notary.sessionCookie();
    await call('act.updateCommission', { commissionNumber: 'IA-778899', commissionExpiresOn: '2099-06-30', commissionState: 'Iowa', commissionCounty: 'Polk' }, { cookie });
  }, 300_000);
  afterAll(() => app?.close());

  async function call<T = ActView>(route: string, input: unknown, options: { cookie?: string; type?: 'query' | 'mutation' } = {}) {
    const res = await trpcHttp(app.url, route, { input, cookie: options.cookie, type: options.type ?? 'mutation', headers: { origin: app.url } });
    return { status: res.status, data: res.body.result?.data.json as T, message: res.body.error?.json.message as string | undefined };
  }
  const submit = (token: string, nameOnId: string) =>
    fetch(`${app.url}/api/manage/identity/test?token=${token}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: app.url }, body: JSON.stringify({ nameOnId, front: jpg, back: png, selfie: jpg }) });

  /** A person of the session by their own link: the customer (participant null) or a co-signer or witness. */
  interface Person {
    name: string;
    token: string;
    participantId: string | null;
  }

  /**
   * A confirmed booking assigned to the notary, the room open, a recording
   * running; the customer Grace, co-signers Alan and Bob and the witness Ada,
   * each with their own link, identity verified and identity questions passed.
   */
  async function session(deps: Deps) {
    const b = await bookingIn(deps, 'confirmed');
    await deps.db.update(bookings).set({ notaryId: notary.id, startsAt: new Date(Date.now() + 5 * 60_000) }).where(eq(bookings.id, b.bookingId));
    const [doc] = await deps.db.select().from(documents).where(eq(documents.bookingId, b.bookingId));
    await deps.storage.put(doc!.storageKey, Readable.from(samplePdf), { contentType: 'application/pdf' });
    const grace: Person = { name: 'Grace Hopper', token: b.manageToken!, participantId: null };
    const people: Person[] = [grace];
    const added = [['Alan Turing', 'signer'], ['Bob Kahn', 'signer'], ['Ada Lovelace', 'witness']] as const;
    for (const [index, [name, role]] of added.entries()) {
      const token = randomBytes(32).toString('base64url');
      const [row] = await deps.db
        .insert(sessionParticipants)
        // Added a second apart, as people are (two inserts can share a millisecond, and the list is in order of adding).
        .values({ bookingId: b.bookingId, createdAt: new Date(Date.now() - (added.length - index) * 1000), role, name, email: `${name.split(' ')[0]!.toLowerCase()}-${b.bookingId.slice(0, 6)}@example.com`, tokenHash: hashToken(token), createdBy: 'customer', status: 'joined' })
        .returning();
      people.push({ name, token, participantId: row!.id });
    }
    for (const person of people) {
      expect((await submit(person.token, person.name)).status).toBe(200);
      await kbaPassed(deps, b.bookingId, person.participantId);
    }
    await deps.db.insert(sessionRecordings).values({ bookingId: b.bookingId, status: 'recording', mimeType: 'video/webm', storageKey: `recordings/${b.bookingId}/r.webm` });
    await deps.db.insert(notarySessions).values({ bookingId: b.bookingId, startedAt: new Date() }).onConflictDoNothing();
    const [, alan, bob, ada] = people as [Person, Person, Person, Person];
    return { bookingId: b.bookingId, documentId: doc!.id, grace, alan, bob, ada };
  }

  const verificationOf = async (bookingId: string, participantId: string | null) =>
    (await app.deps.db.select().from(identityVerifications).where(eq(identityVerifications.bookingId, bookingId))).find((r) => r.participantId === participantId)!.id;
  const confirm = async (bookingId: string, person: Person) => expect((await call('act.confirmIdentity', { bookingId, verificationId: await verificationOf(bookingId, person.participantId) }, { cookie })).status).toBe(200);
  const fieldsOf = (view: ActView) => view.documents[0]!.fields;

  it('the notary places fields per signer; each link fills only its own, after its own identity and consent; sealing waits for every signer still taking part, named; one marked not completed is left out', async () => {
    const s = await session(app.deps);
    const { bookingId, documentId, grace, alan, bob, ada } = s;
    const place = async (kind: string, y: number, who: Person | { participantId: string | null }) => {
      const placed = await call('act.saveField', { bookingId, documentId, kind, page: 1, x: 0.1, y, width: 0.3, height: 0.05, participantId: who.participantId }, { cookie });
      expect(placed.status).toBe(200);
      return fieldsOf(placed.data).find((f) => Math.abs(f.y - y) < 1e-9)!;
    };
    const graceSign = await place('signature', 0.1, grace);
    const graceDate = await place('date', 0.2, grace);
    const alanSign = await place('signature', 0.3, alan);
    const adaSign = await place('signature', 0.4, ada);
    const bobSign = await place('signature', 0.5, bob);
    expect([graceSign, alanSign, adaSign, bobSign].map((f) => f.participantId)).toEqual([null, alan.participantId, ada.participantId, bob.participantId]);
    // A field for someone of another booking, or no one, is refused; nothing is added.
    const other = await session(app.deps);
    expect(await call('act.saveField', { bookingId, documentId, kind: 'text', page: 1, x: 0.1, y: 0.9, width: 0.3, height: 0.05, participantId: other.alan.participantId }, { cookie })).toMatchObject({ status: 400, message: fieldMessages.unknownSigner });
    expect(await app.deps.db.select().from(documentFields).where(eq(documentFields.documentId, documentId))).toHaveLength(5);

    // Each view names every signer and carries the viewer's own answers.
    const alanView = await call('manageAct.get', { token: alan.token }, { type: 'query' });
    expect(alanView.data).toMatchObject({ viewerParticipantId: alan.participantId, signerName: 'Alan Turing', consentGiven: false });
    expect(alanView.data.signers.map((x) => [x.name, x.role, x.active])).toEqual([
      ['Grace Hopper', 'customer', true],
      ['Alan Turing', 'signer', true],
      ['Bob Kahn', 'signer', true],
      ['Ada Lovelace', 'witness', true],
    ]);

    // Alan's identity is his own: the customer's confirmation does not make him confirmed, nor his the customer's.
    await confirm(bookingId, alan);
    expect((await actStage(app.deps.db, bookingId)).stage).toBe('recording');
    await confirm(bookingId, grace);
    expect((await call('manageAct.giveConsent', { token: grace.token, location: 'IA', consent: true })).status).toBe(200);
    // The customer consented; Alan has not: he cannot sign yet, and his consent is his own row's.
    expect(await call('manageAct.adoptSignature', { token: alan.token, documentId, kind: 'typed', text: 'Alan Turing', png: `data:image/png;base64,${png}` })).toMatchObject({ status: 412, message: actStageMessages.consentRequired });
    expect((await call('manageAct.giveConsent', { token: alan.token, location: 'MN', consent: true })).data).toMatchObject({ consentGiven: true, signerLocation: 'MN' });
    const [alanRow] = await app.deps.db.select().from(sessionParticipants).where(eq(sessionParticipants.id, alan.participantId!));
    expect(alanRow).toMatchObject({ signerLocation: 'MN', consentAt: expect.any(Date) });
    const [sessionRow] = await app.deps.db.select().from(notarySessions).where(eq(notarySessions.bookingId, bookingId));
    expect(sessionRow!.signerLocation).toBe('IA');

    // Alan cannot fill the customer's fields: a clear refusal, nothing changes.
    expect(await call('manageAct.fillField', { token: alan.token, fieldId: graceDate.id, kind: 'date', locale: 'en-US', timeZone: 'America/Chicago' })).toMatchObject({ status: 403, message: fieldMessages.notYours });
    expect(await call('manageAct.fillField', { token: alan.token, fieldId: adaSign.id, kind: 'text', text: 'Ada' })).toMatchObject({ status: 403, message: fieldMessages.notYours });
    // His signature fills his own field only.
    const adopted = await call('manageAct.adoptSignature', { token: alan.token, documentId, kind: 'typed', text: 'Alan Turing', png: `data:image/png;base64,${png}` });
    expect(adopted.status).toBe(200);
    expect(fieldsOf(adopted.data).filter((f) => f.filled).map((f) => f.id)).toEqual([alanSign.id]);
    const [alanField] = await app.deps.db.select().from(documentFields).where(eq(documentFields.id, alanSign.id));
    expect(alanField!.filledBy).toBe(alan.participantId);
    // The document's adopted signature stays the customer's to give.
    const [act] = await app.deps.db.select().from(notarialDocuments).where(eq(notarialDocuments.documentId, documentId));
    expect(act!.signedAt).toBeNull();
    // He cannot see the customer's identity documents (staff only) nor act for her.
    expect((await fetch(`${app.url}/api/staff/identity/${await verificationOf(bookingId, null)}/front?token=${alan.token}`)).status).toBe(401);
    expect((await call('act.identity', { bookingId }, { type: 'query' })).status).toBe(401);
    expect((await call('manageBooking.get', { token: alan.token }, { type: 'query' })).status).toBe(403);

    // Sealing waits for every signer still taking part, named.
    const seal = () => call('act.seal', { bookingId, documentId, actType: 'acknowledgment' }, { cookie });
    await confirm(bookingId, bob);
    await confirm(bookingId, ada);
    expect(await seal()).toMatchObject({ status: 412, message: actStageMessages.notSignedBy(['Grace Hopper', 'Ada Lovelace', 'Bob Kahn'], 4) });
    expect((await call('manageAct.adoptSignature', { token: grace.token, documentId, kind: 'typed', text: 'Grace Hopper', png: `data:image/png;base64,${png}` })).status).toBe(200);
    expect((await call('manageAct.fillField', { token: grace.token, fieldId: graceDate.id, kind: 'date', locale: 'en-US', timeZone: 'America/Chicago' })).status).toBe(200);
    // The witness signs their witness field after their own consent.
    expect((await call('manageAct.giveConsent', { token: ada.token, location: 'IA', consent: true })).status).toBe(200);
    expect((await call('manageAct.adoptSignature', { token: ada.token, documentId, kind: 'typed', text: 'Ada Lovelace', png: `data:image/png;base64,${png}` })).status).toBe(200);
    expect(await seal()).toMatchObject({ status: 412, message: actStageMessages.notSignedBy(['Bob Kahn'], 1) });

    // Bob cannot proceed: the notary marks his part not completed. He no longer holds up the seal; his link is refused.
    expect((await call('participants.remove', { bookingId, participantId: bob.participantId, reason: 'Could not proceed' }, { cookie })).status).toBe(200);
    expect(await call('manageAct.adoptSignature', { token: bob.token, documentId, kind: 'typed', text: 'Bob Kahn', png: `data:image/png;base64,${png}` })).toMatchObject({ status: 403, message: participantRemovedMessage });
    expect(await call('session.get', { token: bob.token }, { type: 'query' })).toMatchObject({ status: 403, message: participantRemovedMessage });
    const notaryView = await call('act.get', { bookingId }, { cookie, type: 'query' });
    expect(notaryView.data.documents[0]!.signed).toBe(true);
    expect(notaryView.data.signers.find((x) => x.participantId === bob.participantId)!.active).toBe(false);
    expect((await seal()).status).toBe(200);
    // Bob's empty field stays empty (left out of the seal); the certificate names the signers who signed.
    const [bobField] = await app.deps.db.select().from(documentFields).where(eq(documentFields.id, bobSign.id));
    expect(bobField!.filledAt).toBeNull();
    const [sealed] = await app.deps.db.select().from(notarialDocuments).where(eq(notarialDocuments.documentId, documentId));
    const file = path.join(dir, `${kind}-signers.pdf`);
    writeFileSync(file, await buffer((await app.deps.storage.get(sealed!.sealedKey!)).body));
    expect(spawnSync('pdftotext', [file, '-'], { encoding: 'utf8' }).stdout.replace(/\s+/g, ' ')).toContain('by Grace Hopper and Alan Turing');
    const entries = (await app.deps.db.select().from(journalEntries).where(eq(journalEntries.bookingId, bookingId)).orderBy(journalEntries.seq)).map((e) => e.data as JournalActData);
    expect(entries.map((e) => e.signerName)).toEqual(['Grace Hopper', 'Alan Turing']);
    // Each fill is a step of the act, with whose it was.
    const steps = await app.deps.db.select().from(auditLog).where(and(eq(auditLog.entityId, bookingId), eq(auditLog.action, 'act.adoptSignature')));
    expect(steps.map((x) => (x.data as { participantId?: string }).participantId ?? null).sort()).toEqual([null, null, alan.participantId, ada.participantId].sort());
  });

  it('the room lists a supporting file to the customer and the notary, never to a co-signer, whose link is refused it (decision 133)', async () => {
    const { bookingId, documentId, grace, alan } = await session(app.deps);
    const key = `${bookingId}/id-photo.jpg`;
    await app.deps.storage.put(key, Readable.from(Buffer.from(jpg, 'base64')), { contentType: 'image/jpeg' });
    const [photo] = await app.deps.db.insert(documents).values({ bookingId, originalName: 'id-photo.jpg', contentType: 'image/jpeg', sizeBytes: 100, storageKey: key, status: 'stored', scanStatus: 'clean' }).returning();
    await app.deps.db.insert(notarialDocuments).values({ bookingId, documentId: photo!.id, supportingAt: new Date() });
    const listed = async (input: Record<string, unknown>, asNotary = false) =>
      (await call<SessionView>('session.get', input, { type: 'query', cookie: asNotary ? cookie : undefined })).data.documents.map((d) => d.id).sort();
    expect(await listed({ token: grace.token })).toEqual([documentId, photo!.id].sort());
    expect(await listed({ bookingId }, true)).toEqual([documentId, photo!.id].sort());
    expect(await listed({ token: alan.token })).toEqual([documentId]);
    const download = (id: string, token: string) => fetch(`${app.url}/api/manage/documents/${id}?token=${token}`);
    expect((await download(documentId, alan.token)).status).toBe(200);
    expect((await download(photo!.id, alan.token)).status).toBe(403);
    expect((await download(photo!.id, grace.token)).status).toBe(200);
  });

  it('a co-signer abroad (their own answer to "Where are you right now?") waits for the notary’s confirmation to sign, holds up the seal by name, and their journal entry records it (RULONA, decision 106)', async () => {
    const { bookingId, documentId, grace, alan, bob } = await session(app.deps);
    for (const person of [grace, alan, bob]) await confirm(bookingId, person);
    await call('act.saveField', { bookingId, documentId, kind: 'signature', page: 1, x: 0.1, y: 0.1, width: 0.3, height: 0.05, participantId: null }, { cookie });
    expect((await call('manageAct.giveConsent', { token: grace.token, location: 'IA', consent: true })).status).toBe(200);
    expect((await call('manageAct.adoptSignature', { token: grace.token, documentId, kind: 'typed', text: grace.name, png: `data:image/png;base64,${png}` })).status).toBe(200);
    // The customer is in Iowa; Alan, a co-signer, is in France: his own answer, on his own row.
    expect((await call('manageAct.giveConsent', { token: alan.token, location: 'Outside the United States: France', consent: true })).data).toMatchObject({ signerLocation: 'Outside the United States: France' });
    await call('act.saveField', { bookingId, documentId, kind: 'signature', page: 1, x: 0.1, y: 0.5, width: 0.3, height: 0.05, participantId: alan.participantId }, { cookie });
    const alanSigns = () => call('manageAct.adoptSignature', { token: alan.token, documentId, kind: 'typed', text: alan.name, png: `data:image/png;base64,${png}` });
    expect(await alanSigns()).toMatchObject({ status: 412, message: actStageMessages.abroadNotConfirmed });
    // The customer's confirmation would not clear him (she is not abroad: refused), nor does anything but his own.
    expect(await call('act.confirmAbroad', { bookingId, participantId: null }, { cookie })).toMatchObject({ status: 412, message: actStageMessages.notAbroad });
    // With his field removed he still holds up the seal, named: the act involves a signer abroad.
    const [alanField] = await app.deps.db.select().from(documentFields).where(and(eq(documentFields.documentId, documentId), eq(documentFields.participantId, alan.participantId!)));
    await app.deps.db.delete(documentFields).where(eq(documentFields.id, alanField!.id));
    const seal = () => call('act.seal', { bookingId, documentId, actType: 'acknowledgment' }, { cookie });
    expect(await seal()).toMatchObject({ status: 412, message: actStageMessages.abroadNotConfirmedFor(['Alan Turing']) });
    await call('act.saveField', { bookingId, documentId, kind: 'signature', page: 1, x: 0.1, y: 0.5, width: 0.3, height: 0.05, participantId: alan.participantId }, { cookie });
    // The notary's room lists him with his country (staff only: the other signers never see it), confirms for him: on the trail with his id; he signs; the seal goes.
    const abroad = () => call<SignerAbroad[]>('act.signersAbroad', { bookingId }, { cookie, type: 'query' });
    expect((await abroad()).data).toEqual([{ participantId: alan.participantId, name: 'Alan Turing', country: 'France', confirmed: false }]);
    expect((await call('act.signersAbroad', { bookingId }, { type: 'query' })).status).toBe(401);
    expect((await call('act.confirmAbroad', { bookingId, participantId: alan.participantId }, { cookie })).status).toBe(200);
    expect((await abroad()).data).toEqual([expect.objectContaining({ participantId: alan.participantId, confirmed: true })]);
    const trail = await app.deps.db.select().from(auditLog).where(and(eq(auditLog.entityId, bookingId), eq(auditLog.action, 'act.confirmAbroad')));
    expect(trail).toEqual([expect.objectContaining({ actorId: notary.id, data: expect.objectContaining({ participantId: alan.participantId }) })]);
    expect((await alanSigns()).status).toBe(200);
    expect((await seal()).status).toBe(200);
    const entries = (await app.deps.db.select().from(journalEntries).where(eq(journalEntries.bookingId, bookingId)).orderBy(journalEntries.seq)).map((e) => e.data as JournalActData);
    expect(entries.map((e) => [e.signerName, e.signerLocation, e.abroadConfirmation?.confirmedBy ?? null])).toEqual([
      ['Grace Hopper', 'IA', null],
      ['Alan Turing', 'Outside the United States: France', notary.id],
      ['Bob Kahn', null, null],
    ]);
  });

  it('the notary identifies each participant in the Identity view and records a credible witness: on the recording, identified first, on the trail and in that signer’s journal entry', async () => {
    const s = await session(app.deps);
    const { bookingId, documentId, grace, alan, bob, ada } = s;
    // The notary's identity view lists each participant's own proofing, to confirm on camera.
    const identity = await call<NotaryIdentityView>('act.identity', { bookingId }, { cookie, type: 'query' });
    expect(identity.data.participants.map((p) => [p.name, p.role, p.latest?.status, p.latest?.nameMatchesBooking, p.blocker !== null])).toEqual([
      ['Alan Turing', 'signer', 'verified', true, true],
      ['Bob Kahn', 'signer', 'verified', true, true],
      ['Ada Lovelace', 'witness', 'verified', true, true],
    ]);
    const record = (input: Record<string, unknown>) => call('act.recordCredibleWitness', { bookingId, witnessId: ada.participantId, signerParticipantId: alan.participantId, ...input }, { cookie });
    // Not a witness; not a signer of this session; the witness not yet identified; no recording.
    expect(await record({ witnessId: bob.participantId })).toMatchObject({ status: 400, message: actStageMessages.credibleWitnessNotWitness });
    expect(await record({ signerParticipantId: ada.participantId })).toMatchObject({ status: 400, message: actStageMessages.credibleWitnessUnknownSigner });
    expect(await record({})).toMatchObject({ status: 412, message: actStageMessages.credibleWitnessIdentityFirst('Ada Lovelace') });
    await confirm(bookingId, ada);
    await app.deps.db.update(sessionRecordings).set({ status: 'stored' }).where(eq(sessionRecordings.bookingId, bookingId));
    expect(await record({})).toMatchObject({ status: 412, message: actStageMessages.recordingRequired });
    await app.deps.db.update(sessionRecordings).set({ status: 'recording' }).where(eq(sessionRecordings.bookingId, bookingId));
    // Another notary may not.
    const other = await createStaffUser(app.deps, { role: 'notary' });
    expect((await call('act.recordCredibleWitness', { bookingId, witnessId: ada.participantId, signerParticipantId: alan.participantId }, { cookie: await other.sessionCookie() })).status).toBe(403);
    expect((await record({})).status).toBe(200);
    expect((await record({})).status).toBe(200);
    expect(await app.deps.db.select().from(credibleWitnesses).where(eq(credibleWitnesses.bookingId, bookingId))).toEqual([expect.objectContaining({ witnessId: ada.participantId, signerParticipantId: alan.participantId, recordedBy: notary.id })]);
    // Once on the trail (the repeat changed nothing).
    const trail = await app.deps.db.select().from(auditLog).where(and(eq(auditLog.entityId, bookingId), eq(auditLog.action, 'act.recordCredibleWitness')));
    expect(trail).toEqual([expect.objectContaining({ actorId: notary.id, data: expect.objectContaining({ witnessId: ada.participantId, signerParticipantId: alan.participantId }) })]);
    expect((await call('act.get', { bookingId }, { cookie, type: 'query' })).data.credibleWitnesses).toEqual([{ witnessId: ada.participantId, signerParticipantId: alan.participantId }]);

    // The act, with Bob set aside, sealed: the credible witness is in Alan's entry only.
    await call('participants.remove', { bookingId, participantId: bob.participantId, reason: 'Left' }, { cookie });
    for (const person of [grace, alan]) {
      await confirm(bookingId, person);
      await call('act.saveField', { bookingId, documentId, kind: 'signature', page: 1, x: 0.1, y: person.participantId ? 0.5 : 0.1, width: 0.3, height: 0.05, participantId: person.participantId }, { cookie });
      expect((await call('manageAct.giveConsent', { token: person.token, location: 'IA', consent: true })).status).toBe(200);
      expect((await call('manageAct.adoptSignature', { token: person.token, documentId, kind: 'typed', text: person.name, png: `data:image/png;base64,${png}` })).status).toBe(200);
    }
    // A credible witness vouches under oath (decision 134): even for an acknowledgment the seal waits for Ada's answer.
    const sealAck = () => call('act.seal', { bookingId, documentId, actType: 'acknowledgment' }, { cookie });
    expect(await sealAck()).toMatchObject({ status: 412, message: actStageMessages.credibleWitnessOathOwedBy(['Ada Lovelace']) });
    expect(await call('manageAct.answerOath', { token: ada.token, kind: 'swear' })).toMatchObject({ status: 412, message: actStageMessages.oathNotAsked });
    expect((await call('act.administerOath', { bookingId }, { cookie })).status).toBe(200);
    const sworn = await call('manageAct.answerOath', { token: ada.token, kind: 'swear' });
    expect(sworn.data).toMatchObject({ viewerParticipantId: ada.participantId, oathKind: 'swear' });
    // On the trail, with whose answer it was and the moment on the recording's timeline.
    const [recording] = await app.deps.db.select().from(sessionRecordings).where(eq(sessionRecordings.bookingId, bookingId));
    const oaths = await app.deps.db.select().from(auditLog).where(and(eq(auditLog.entityId, bookingId), eq(auditLog.action, 'act.answerOath')));
    expect(oaths).toEqual([expect.objectContaining({ data: expect.objectContaining({ participantId: ada.participantId, kind: 'swear', recordingId: recording!.id, atMs: expect.any(Number) }) })]);
    expect((await sealAck()).status).toBe(200);
    const entries = (await app.deps.db.select().from(journalEntries).where(eq(journalEntries.bookingId, bookingId)).orderBy(journalEntries.seq)).map((e) => e.data as JournalActData);
    expect(entries.map((e) => [e.signerName, e.credibleWitness?.name ?? null])).toEqual([
      ['Grace Hopper', null],
      ['Alan Turing', 'Ada Lovelace'],
    ]);
    expect(entries[1]!.credibleWitness).toMatchObject({ participantId: ada.participantId, verificationId: expect.stringMatching(/^vs_/), recordedAt: expect.any(String), oath: { kind: 'swear', at: expect.any(String) } });
  });
});
