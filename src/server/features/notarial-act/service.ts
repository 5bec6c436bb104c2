import { randomBytes } from 'node:crypto';
import { sessionChargedCents } from '../payments/service.ts';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { DomainError } from '../../errors.ts';
import {
  actMessages,
  type ActDocumentView,
  type ActSigner,
  type ActType,
  type ActView,
  notNotarizableReasonRequired,
  notarizedFileName,
  type SignatureLevel,
  type SignerAbroad,
} from '../../../shared/notarial-act.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import type { StaffIdentity } from '../staff/session.ts';
import { writeAudit } from '../audit.ts';
import { findBooking, findCustomer, lockBookingRow } from '../booking/service.ts';
import { findBookingDocument, listBookingDocuments, type DocumentRow } from '../documents/service.ts';
import { staffRoleOf } from '../staff/service.ts';
import { identityProofingStatus, journalIdentity, latestVerified, requireActAccess } from '../identity/service.ts';
import { actCoSigners, credibleWitnessesOf, listForBooking, namesInProse, participantsAbroad } from '../participants/service.ts';
import { authoriseSigner, ownsField } from './field-owner.ts';
import { appendJournalEntry, journaledFeeCents, type JournalActData } from '../journal/service.ts';
import { authorise, type Caller } from '../access/service.ts';
import { isUuid } from '../../../shared/ids.ts';
import { maxSignatureSize, pngDataFits, pngSize } from '../../images/image-header.ts';
import type { CertificateInfo } from './certificates.ts';
import { certificateMessages } from './seal-errors.ts';
import { makeTestCertificate, readCertificate, sealInWorker, timestampAuthorityOf } from './seal.ts';
import { checkpointAfterAct } from '../journal/service.ts';
import { formatVerificationCode } from '../../../shared/verification.ts';
import { notarizedCopyKeptUntil } from './retention-service.ts';
import { onNotarizedDocumentReady } from '../notifications/events.ts';
import { actAnswers, actChanged, actRecording, actStage, administerOath as administerOathStep, confirmAbroad as confirmAbroadStep, answerOath as answerOathStep, giveConsent as giveConsentStep, takeTransition } from '../act/service.ts';
import * as actRepo from './repository.ts';
import * as fieldsRepo from './fields-repository.ts';
import { fieldMessages, type FieldView } from '../../../shared/document-fields.ts';
import { commissionStateTimeZone } from '../../../shared/commission-zones.ts';
import { actTexts } from '../../../shared/act-stages.ts';
/**
 * pdf-lib, @signpdf and node-forge load only in the seal worker
 * (seal-pool.ts, docs/decisions/061): this thread never parses a PDF, decodes
 * an image or derives a key.
 */

/**
 * Signing and sealing in the session, and delivery of the sealed PDF. The
 * notary places the signature, the signer adopts one, the notary completes
 * the certificate and seals; each seal writes a journal entry in the same
 * transaction. The original upload is never touched: the sealed copy sits
 * beside it with its SHA-256 recorded.
 */

type ActRow = actRepo.ActRow;
const pngMagic = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The booking's documents (the documents feature's rows) beside their act rows (ours), oldest first. */
async function actDocuments(db: DbOrTx, bookingId: string): Promise<{ doc: DocumentRow; act: ActRow | null }[]> {
  const [docs, acts] = await Promise.all([listBookingDocuments(db, bookingId), actRepo.actsOfBooking(db, bookingId)]);
  const actOf = new Map(acts.map((act) => [act.documentId, act]));
  return docs
    .map((doc) => ({ doc, act: actOf.get(doc.id) ?? null }))
    .filter(
      ({ doc, act }) =>
        doc.scanStatus !== 'infected' &&
        // The original goes after DOCUMENT_RETENTION_DAYS; a notarized copy still kept stays listed (decision 092).
        (doc.status === 'stored' || (act?.sealedKey != null && act.sealedDeletedAt === null)),
    );
}

export async function signerName(db: DbOrTx, bookingId: string): Promise<{ name: string; customerId: string | null; reference: string; priceCents: number; currency: string; timeZone: string }> {
  const booking = await findBooking(db, bookingId);
  if (!booking) throw new DomainError('NOT_FOUND', 'Booking not found.');
  const customer = booking.customerId ? await findCustomer(db, booking.customerId) : null;
  return { name: [customer?.firstName, customer?.lastName].filter(Boolean).join(' '), customerId: booking.customerId, reference: booking.reference, priceCents: booking.priceCents, currency: booking.currency, timeZone: booking.timeZone };
}

/** A signer's location and, abroad, the notary's confirmation (decision 106), as their journal entry records them. */
function whereSigned(answers: { signerLocation: string | null; abroadConfirmedAt: Date | null; abroadConfirmedBy: string | null }): Pick<JournalActData, 'signerLocation' | 'abroadConfirmation'> {
  return {
    signerLocation: answers.signerLocation,
    abroadConfirmation: answers.abroadConfirmedAt ? { confirmedAt: answers.abroadConfirmedAt.toISOString(), confirmedBy: answers.abroadConfirmedBy, statement: actTexts.abroadStatement } : null,
  };
}

/** `owed(field)`: the field's signer still takes part (a participant marked not completed owes nothing; decision 123). */
function documentView(doc: DocumentRow, act: ActRow | null, fields: FieldView[], owed: (field: FieldView) => boolean = () => true): ActDocumentView {
  return {
    documentId: doc.id,
    name: doc.originalName,
    contentType: doc.contentType ?? 'application/octet-stream',
    fields,
    signed: fields.some((f) => f.filled) && fields.every((f) => f.filled || !owed(f)),
    signatureKind: act?.signatureKind ?? null,
    actType: act?.actType ?? null,
    sealed: !!act?.sealedAt,
    sealedSha256: act?.sealedSha256 ?? null,
    pageCount: act?.pageCount ?? null,
    notNotarizable: !!act?.notNotarizableAt,
    notNotarizableReason: act?.notNotarizableReason ?? null,
    supporting: !!act?.supportingAt,
    notarizedName: act?.sealedAt ? notarizedFileName(doc.originalName) : null,
    signatureLevel: act?.signatureLevel ?? null,
  };
}

/**
 * The act as the room shows it. `viewerParticipantId`: a co-signer or witness
 * viewing by their own link — the answers shown (name, location, consent,
 * oath) are then their own, never the customer's (decision 123).
 */
export async function actView(db: DbOrTx, bookingId: string, viewerParticipantId: string | null = null): Promise<ActView> {
  const rows = await actDocuments(db, bookingId);
  const signer = await signerName(db, bookingId);
  const fields = (await fieldsRepo.bookingFields(db, bookingId)).map(fieldsRepo.fieldView);
  const [{ stage }, answers, people, witnesses] = await Promise.all([actStage(db, bookingId), actAnswers(db, bookingId, viewerParticipantId), listForBooking(db, bookingId), credibleWitnessesOf(db, bookingId)]);
  const signers: ActSigner[] = [
    { participantId: null, name: signer.name, role: 'customer', active: true, tone: 0 },
    ...people.map((p, i): ActSigner => ({ participantId: p.id, name: p.name, role: p.role, active: p.status === 'invited' || p.status === 'joined', tone: i + 1 })),
  ];
  const owed = (field: FieldView) => signers.find((s) => s.participantId === field.participantId)?.active ?? true;
  const docs = rows.map((r) => documentView(r.doc, r.act, fields.filter((f) => f.documentId === r.doc.id), owed));
  // Documents set aside as not notarizable are neither sealed nor waited for.
  const toSeal = docs.filter((d) => !d.notNotarizable && !d.supporting);
  return {
    bookingId,
    signerName: signers.find((s) => s.participantId === viewerParticipantId)?.name ?? signer.name,
    signers,
    viewerParticipantId,
    credibleWitnesses: witnesses.map((w) => ({ witnessId: w.witnessId, signerParticipantId: w.signerParticipantId })),
    documents: docs,
    allSealed: toSeal.length > 0 && toSeal.every((d) => d.sealed),
    stage,
    signerLocation: answers.signerLocation,
    consentGiven: !!answers.consentAt,
    abroadConfirmed: !!answers.abroadConfirmedAt,
    oathRequested: answers.oathRequested,
    oathKind: answers.oathKind,
  };
}

export async function actForStaff(deps: Deps, staff: StaffIdentity, bookingId: string): Promise<ActView> {
  await requireActAccess(deps, staff, bookingId, 'view_act');
  return actView(deps.db, bookingId);
}

/** The customer's view (booking page and room), or a co-signer's or witness's own (their link, in the room). */
export async function actForCustomer(deps: Deps, token: string): Promise<ActView> {
  const grant = await authorise(deps, { token }, 'view_act');
  return actView(deps.db, grant.bookingId, grant.participant?.id ?? null);
}

export async function documentOfBooking(db: DbOrTx, bookingId: string, documentId: string) {
  const rows = await actDocuments(db, bookingId);
  const row = rows.find((r) => r.doc.id === documentId);
  if (!row) throw new DomainError('NOT_FOUND', 'Document not found.');
  return row;
}

export async function readSource(deps: Deps, doc: DocumentRow) {
  const stored = await deps.storage.get(doc.storageKey);
  return { bytes: await buffer(stored.body), contentType: doc.contentType ?? 'application/octet-stream' };
}

/**
 * The signer adopts a signature, or initials (typed in a script font or
 * drawn; both arrive as a PNG): it fills every empty Signature (or Initials)
 * field of the document that is theirs (decision 100).
 */
export async function adoptSignature(
  deps: Deps,
  input: { token: string; documentId: string; kind: 'typed' | 'drawn'; field?: 'signature' | 'initials'; text?: string; png: string },
): Promise<ActView> {
  const signer = await authoriseSigner(deps, input.token);
  const { bookingId, participantId } = signer;
  const target = input.field ?? 'signature';
  const { act } = await documentOfBooking(deps.db, bookingId, input.documentId);
  if (!act) throw new DomainError('PRECONDITION_FAILED', actMessages.notPlaced);
  if (act.sealedAt) throw new DomainError('CONFLICT', actMessages.alreadySealed);
  if (act.notNotarizableAt) throw new DomainError('CONFLICT', actMessages.markedNotNotarizable);
  if (act.supportingAt) throw new DomainError('CONFLICT', actMessages.supportingFile);
  const bytes = Buffer.from(input.png.slice(input.png.indexOf(',') + 1), 'base64');
  if (bytes.length < 60 || !bytes.subarray(0, 8).equals(pngMagic)) throw new DomainError('BAD_REQUEST', actMessages.signatureImage);
  // Its size from the header, before anything decodes it (a 17 KB PNG can declare 12000 × 12000).
  const size = pngSize(bytes);
  if (!size) throw new DomainError('BAD_REQUEST', actMessages.signatureImage);
  if (size.width > maxSignatureSize.width || size.height > maxSignatureSize.height) throw new DomainError('BAD_REQUEST', actMessages.signatureTooLarge);
  if (!(await pngDataFits(bytes))) throw new DomainError('BAD_REQUEST', actMessages.signatureImage);
  if (input.kind === 'typed' && !input.text) throw new DomainError('BAD_REQUEST', target === 'initials' ? 'Type your initials to adopt them.' : 'Type your name to adopt it as your signature.');
  const { customerId } = await signerName(deps.db, bookingId);
  // A transition of the act (decision 073): recording running, identity proven (ID confirmed, identity questions passed), location and consent given, a signer abroad cleared — the signer's own (decision 123).
  await deps.db.transaction(async (tx) => {
    // This signer's own fields of this kind (field-owner.ts), read under the booking's lock below.
    const mine = async () => (await fieldsRepo.documentFieldRows(tx, input.documentId)).filter((f) => f.kind === target && ownsField(signer, f));
    const now = deps.now();
    return takeTransition(deps, tx, { bookingId, transition: 'adoptSignature', actor: { type: 'customer' }, participantId, data: { documentId: input.documentId, field: target, kind: input.kind } }, async () => {
      const fields = await mine();
      if (fields.length === 0) throw new DomainError('PRECONDITION_FAILED', actMessages.notPlaced);
      const png = bytes.toString('base64');
      // The document's own record of the adopted signature is the customer's (the primary signer's); a co-signer's is on their fields.
      if (target === 'signature' && participantId === null) {
        const updated = await actRepo.recordSignature(tx, act.id, { signatureKind: input.kind, signatureText: input.kind === 'typed' ? input.text! : null, signaturePng: png, signedAt: now });
        if (!updated) throw new DomainError('CONFLICT', actMessages.alreadySealed);
      } else if ((await documentOfBooking(tx, bookingId, input.documentId)).act?.sealedAt) throw new DomainError('CONFLICT', actMessages.alreadySealed);
      const filled = await fieldsRepo.fillFields(
        tx,
        fields.filter((f) => !f.filledAt).map((f) => f.id),
        { value: png, filledAt: now, filledBy: participantId ?? customerId },
      );
      if (filled.length === 0) throw new DomainError('CONFLICT', fieldMessages.alreadyFilled);
      await writeAudit(tx, { actorType: 'customer', action: target === 'signature' ? 'signature.adopted' : 'initials.adopted', entityType: 'booking', entityId: bookingId, data: { documentId: input.documentId, kind: input.kind, fieldIds: filled, participantId } });
      return { changed: true, result: undefined };
    });
  });
  actChanged(deps, bookingId);
  return actView(deps.db, bookingId, participantId);
}

// ---- Notary profile and certificate ------------------------------------------------

export interface NotaryProfileView {
  commissionNumber: string | null;
  commissionExpiresOn: string | null;
  commissionState: string;
  commissionCounty: string | null;
  certificate: {
    kind: 'uploaded' | 'test';
    subject: string | null;
    expiresAt: Date | null;
    issuer: string | null;
    validFrom: Date | null;
    keyUsage: string[];
    /** Within 30 days of its expiry (or past it). */
    expiresSoon: boolean;
  } | null;
  /** The level a seal reaches now: B-LTA with a timestamp authority configured, B-B without. */
  sealLevel: SignatureLevel;
}

/** keyUsage bits (an extension that has some but neither signing one is not a signing certificate). */
const keyUsageBits = new Set(['digitalSignature', 'nonRepudiation', 'keyEncipherment', 'dataEncipherment', 'keyAgreement', 'keyCertSign', 'cRLSign', 'encipherOnly', 'decipherOnly']);

/** The console warns this long before a signing certificate expires. */
export const certificateWarningDays = 30;

async function profileRow(db: DbOrTx, staffUserId: string) {
  return actRepo.findProfile(db, staffUserId);
}

function profileView(deps: Deps, row: actRepo.NotaryProfileRow | undefined): NotaryProfileView {
  const info = row?.certificateInfo ?? null;
  const expiresAt = row?.certificateExpiresAt ?? null;
  return {
    commissionNumber: row?.commissionNumber ?? null,
    commissionExpiresOn: row?.commissionExpiresOn ?? null,
    commissionState: row?.commissionState ?? 'Iowa',
    commissionCounty: row?.commissionCounty ?? null,
    certificate: row?.certificateKind
      ? {
          kind: row.certificateKind,
          subject: row.certificateSubject,
          expiresAt,
          issuer: info?.issuer ?? null,
          validFrom: info ? new Date(info.notBefore) : null,
          keyUsage: info?.keyUsage ?? [],
          expiresSoon: !!expiresAt && expiresAt.getTime() - deps.now().getTime() < certificateWarningDays * 86_400_000,
        }
      : null,
    sealLevel: timestampAuthorityOf(deps.config) ? 'B-LTA' : 'B-B',
  };
}

export async function getNotaryProfile(deps: Deps, staffUserId: string): Promise<NotaryProfileView> {
  return profileView(deps, await profileRow(deps.db, staffUserId));
}

export async function updateCommission(
  deps: Deps,
  staff: StaffIdentity,
  input: { commissionNumber: string; commissionExpiresOn: string; commissionState: string; commissionCounty?: string | null },
): Promise<NotaryProfileView> {
  if (staff.user.role !== 'notary') throw new DomainError('FORBIDDEN', 'Only notaries have a commission.');
  const values = {
    commissionNumber: input.commissionNumber,
    commissionExpiresOn: input.commissionExpiresOn,
    commissionState: input.commissionState,
    commissionCounty: input.commissionCounty || null,
  };
  await actRepo.upsertProfile(deps.db, staff.user.id, values);
  await writeAudit(deps.db, { actorType: 'staff', actorId: staff.user.id, action: 'notary.commission_updated', entityType: 'staff_user', entityId: staff.user.id });
  return getNotaryProfile(deps, staff.user.id);
}

/** An admin uploads a notary's PKCS#12 and password; both are sealed before they reach the database. */
export async function uploadCertificate(deps: Deps, admin: StaffIdentity, input: { staffUserId: string; p12Base64: string; password: string }): Promise<NotaryProfileView> {
  if ((await staffRoleOf(deps.db, input.staffUserId)) !== 'notary') throw new DomainError('BAD_REQUEST', 'Certificates are for notaries only.');
  const p12 = Buffer.from(input.p12Base64, 'base64');
  const info = await readCertificate(p12, input.password);
  if (info.notAfter.getTime() <= deps.now().getTime()) throw new DomainError('BAD_REQUEST', certificateMessages.expired);
  if (info.notBefore.getTime() > deps.now().getTime() + 5 * 60_000) throw new DomainError('BAD_REQUEST', certificateMessages.notYetValid);
  if (!info.keyUsage.includes('digitalSignature') && !info.keyUsage.includes('nonRepudiation') && info.keyUsage.some((u) => keyUsageBits.has(u))) {
    throw new DomainError('BAD_REQUEST', certificateMessages.noSigningUsage);
  }
  await storeCertificate(deps, input.staffUserId, { p12, password: input.password, kind: 'uploaded', info });
  await writeAudit(deps.db, { actorType: 'staff', actorId: admin.user.id, action: 'notary.certificate_uploaded', entityType: 'staff_user', entityId: input.staffUserId, data: { subject: info.subject } });
  return getNotaryProfile(deps, input.staffUserId);
}

async function storeCertificate(deps: Deps, staffUserId: string, cert: { p12: Buffer; password: string; kind: 'uploaded' | 'test'; info: CertificateInfo }) {
  const { info } = cert;
  const values = {
    certificateP12: deps.secrets.seal(cert.p12, `notary-p12:${staffUserId}`),
    certificatePassword: deps.secrets.seal(cert.password, `notary-p12-password:${staffUserId}`),
    certificateKind: cert.kind,
    certificateSubject: cert.info.subject,
    certificateExpiresAt: cert.info.notAfter,
    certificateInfo: {
      subject: info.subject,
      issuer: info.issuer,
      serialNumber: info.serialNumber,
      notBefore: info.notBefore.toISOString(),
      notAfter: info.notAfter.toISOString(),
      keyUsage: info.keyUsage,
      selfSigned: info.selfSigned,
    },
  };
  await actRepo.upsertProfile(deps.db, staffUserId, values);
}

/** The notary's certificate; in test mode (no Stripe keys) a labelled self-signed one is made on first use. */
async function signingCertificate(deps: Deps, staffUserId: string, notaryName: string): Promise<{ p12: Buffer; password: string }> {
  const row = await profileRow(deps.db, staffUserId);
  if (row?.certificateP12 && row.certificatePassword) {
    try {
      return {
        p12: deps.secrets.open(row.certificateP12, `notary-p12:${staffUserId}`),
        password: deps.secrets.open(row.certificatePassword, `notary-p12-password:${staffUserId}`).toString('utf8'),
      };
    } catch (error) {
      // A test certificate sealed by an earlier process's key is simply made again.
      if (row.certificateKind !== 'test') throw error;
    }
  }
  if (deps.identity.mode !== 'test') throw new DomainError('PRECONDITION_FAILED', actMessages.certificateMissing);
  const generated = await makeTestCertificate(notaryName, deps.now());
  await storeCertificate(deps, staffUserId, { p12: generated.p12, password: generated.password, kind: 'test', info: generated.info });
  return { p12: generated.p12, password: generated.password };
}

// ---- Sealing -------------------------------------------------------------------------

/**
 * The fee one act records in the journal (decisions 074, 108): what is left of
 * the session's fee after the acts already journaled, capped at the
 * commissioning state's maximum per act (null: no maximum). Never negative,
 * and the acts of a session never add up to more than was paid.
 */
export function journalFeeCents(input: { paidCents: number; journaledCents: number; maxPerActCents: number | null }): number {
  const left = Math.max(0, input.paidCents - input.journaledCents);
  return input.maxPerActCents === null ? left : Math.min(left, input.maxPerActCents);
}

/** How long one seal may hold its claim before another request may take it over (a crash, kill -9). */
export const sealLeaseMs = 2 * 60_000;

/**
 * The notary completes the certificate and applies seal and signature. Needs:
 * the signer's identity confirmed, a signature adopted, a recording running,
 * the commission on file and unexpired. Writes the journal entry in the same
 * transaction as the seal.
 *
 * Once per document (docs/decisions/070-sealing-once.md): under the booking's
 * row lock the request claims the document with a lease, builds the sealed
 * PDF outside any transaction into an object of its own, and records it —
 * again under the lock, only if the claim is still its own. A repeat after
 * the seal (a retry, a double click that arrives late) answers the sealed
 * state; one that arrives while another request holds the claim is refused
 * with 409 "being sealed"; every node agrees, since the claim is a row.
 */
export async function sealDocument(deps: Deps, staff: StaffIdentity, input: { bookingId: string; documentId: string; actType: ActType }): Promise<ActView> {
  await requireActAccess(deps, staff, input.bookingId, 'seal');
  const claim = crypto.randomUUID();
  const startedAt = deps.now();
  const prepared = await deps.db.transaction(async (tx) => {
    await lockBookingRow(tx, input.bookingId);
    const { doc, act } = await documentOfBooking(tx, input.bookingId, input.documentId);
    if (act?.sealedAt) return null;
    if (act?.notNotarizableAt) throw new DomainError('CONFLICT', actMessages.markedNotNotarizable);
    if (act?.supportingAt) throw new DomainError('CONFLICT', actMessages.supportingFile);
    // The act's guard (decision 073): recording running, identity proofing complete (credential analysis, identity questions, the notary's confirmation; decision 085), the oath for a jurat.
    // Every signer still taking part has filled their fields of this document (decision 123); one removed or marked not completed is left out.
    await takeTransition(deps, tx, { bookingId: input.bookingId, transition: 'seal', actor: { type: 'staff', id: staff.user.id }, input: { actType: input.actType, documentId: input.documentId } }, async () => ({ changed: false, result: undefined }));
    // Every co-signer in the session too (issue 29): verified, identity questions passed, confirmed by the notary.
    const coSigners = await actCoSigners(tx, input.bookingId);
    for (const coSigner of coSigners) {
      if (!(await identityProofingStatus(deps, input.bookingId, tx, coSigner.id)).complete) throw new DomainError('PRECONDITION_FAILED', actMessages.coSignerIdentityFirst(coSigner.name));
    }
    // The seal stamps what the signers filled, a signature among it (decision 100); the guard above waited for every signer
    // still taking part, so a field still empty is one of a participant marked not completed: left out (decision 123).
    const fields = (await fieldsRepo.documentFieldRows(tx, doc.id)).filter((f) => f.filledAt && f.value !== null);
    if (!act || !fields.some((f) => f.kind === 'signature')) throw new DomainError('PRECONDITION_FAILED', actMessages.notSigned);
    const profile = await profileRow(tx, staff.user.id);
    if (!profile?.commissionNumber || !profile.commissionExpiresOn) throw new DomainError('PRECONDITION_FAILED', actMessages.commissionMissing);
    if (profile.commissionExpiresOn < startedAt.toISOString().slice(0, 10)) throw new DomainError('PRECONDITION_FAILED', actMessages.commissionExpired);
    if (!(await actRepo.claimSeal(tx, act.id, claim, startedAt, new Date(startedAt.getTime() + sealLeaseMs)))) {
      throw new DomainError('CONFLICT', actMessages.sealing);
    }
    // The journal's identity facts, read once under the lock the guard was asked under.
    const proofing = await journalIdentity(deps, input.bookingId, null, tx);
    // One journal entry per signer per act, each with that signer's own identity proofing.
    const coSignerProofing: { name: string; participantId: string; proofing: Awaited<ReturnType<typeof journalIdentity>>; answers: Awaited<ReturnType<typeof actAnswers>>; credibleWitness?: JournalActData['credibleWitness'] }[] = [];
    // Each signer's own answers (where they are, the notary's confirmation for a signer abroad), never the customer's.
    for (const c of coSigners) coSignerProofing.push({ name: c.name, participantId: c.id, proofing: await journalIdentity(deps, input.bookingId, c.id, tx), answers: await actAnswers(tx, input.bookingId, c.id) });
    const answers = await actAnswers(tx, input.bookingId);
    // A credible witness goes in the entry of the signer they identified (decision 124).
    const witnesses = await credibleWitnessesOf(tx, input.bookingId);
    const credibleWitness = async (signerParticipantId: string | null): Promise<JournalActData['credibleWitness']> => {
      const w = witnesses.find((c) => c.signerParticipantId === signerParticipantId);
      if (!w) return null;
      const verified = await latestVerified(tx, input.bookingId, w.witnessId);
      return {
        name: w.witnessName,
        participantId: w.witnessId,
        verificationId: verified?.providerSessionId ?? null,
        recordedAt: w.recordedAt.toISOString(),
        oath: w.oathKind && w.oathAnsweredAt ? { kind: w.oathKind, at: w.oathAnsweredAt.toISOString() } : null,
      };
    };
    const customerWitness = await credibleWitness(null);
    for (const c of coSignerProofing) c.credibleWitness = await credibleWitness(c.participantId);
    return { doc, act, fields, proofing, coSigners, coSignerProofing, answers, customerWitness, profile: { ...profile, commissionNumber: profile.commissionNumber, commissionExpiresOn: profile.commissionExpiresOn } };
  });
  // Sealed already (a repeat): the same answer as the first time.
  if (!prepared) return actView(deps.db, input.bookingId);
  const { doc, act, fields, profile, proofing, coSigners, coSignerProofing, answers, customerWitness } = prepared;
  // Each claim writes its own object, so a slow request whose claim was taken over never overwrites the recorded file.
  const sealedKey = `${input.bookingId}/sealed-${doc.id}-${claim}.pdf`;
  let stored = false;
  try {
    const now = deps.now();
    const notaryName = staff.user.name || staff.user.email;
    const certificate = await signingCertificate(deps, staff.user.id, notaryName);
    const signer = await signerName(deps.db, input.bookingId);
    const tsa = timestampAuthorityOf(deps.config);
    const source = await readSource(deps, doc);
    // Printed on the certificate page, so it is part of what is signed and hashed (decision 091).
    const verificationCode = formatVerificationCode(randomBytes(8));
    // In the seal worker (decision 061): decoding, placing, hashing and signing never on the request thread.
    // The source was read for this seal only: its bytes move to the worker, not a copy (decision 136).
    const sealed = await sealInWorker({
      source,
      fields: fields.map((f) => ({
        kind: f.kind,
        page: f.page,
        box: { x: f.x, y: f.y, width: f.width, height: f.height },
        ...(f.kind === 'signature' || f.kind === 'initials' ? { png: Buffer.from(f.value!, 'base64') } : { text: f.value! }),
      })),
      act: {
        type: input.actType,
        performedAt: now,
        // Dated in the commissioning state's zone, not the notary's console zone (issue 26).
        timeZone: commissionStateTimeZone(profile.commissionState) ?? staff.user.timeZone,
        // The certificate names every signer: the customer, then each co-signer in the session.
        signerName: namesInProse([signer.name, ...coSigners.map((c) => c.name)]),
        documentTitle: doc.originalName,
        notaryName,
        commissionNumber: profile.commissionNumber,
        commissionExpiresOn: profile.commissionExpiresOn,
        commissionState: profile.commissionState,
        county: profile.commissionCounty,
        verification: { code: verificationCode, url: `${deps.config.publicUrl}/verify?code=${verificationCode}` },
      },
      certificate,
      tsa,
    }, 'handOver');
    // Beside the original, never over it.
    await deps.storage.put(sealedKey, Readable.from(sealed.pdf), { contentType: 'application/pdf', upsert: true });
    stored = true;
    // The journal names the recording of the act: the one running (or last stored) when sealing.
    const recording = await actRecording(deps.db, input.bookingId);

    const recorded = await deps.db.transaction((tx) =>
      takeTransition(deps, tx, { bookingId: input.bookingId, transition: 'seal', actor: { type: 'staff', id: staff.user.id }, input: { actType: input.actType }, data: { documentId: doc.id } }, async () => {
        const done = await actRepo.completeSeal(tx, act.id, claim, { actType: input.actType, sealedKey, sealedSha256: sealed.sha256, signatureLevel: sealed.level, pageCount: sealed.pageCount, sealedAt: now, sealedBy: staff.user.id });
        if (!done) return { changed: false, result: false };
        // One fee per session, as paid (decision 074), each act at most the commissioning state's maximum (decision 108).
        const feeCents = journalFeeCents({
          // The session's price plus co-signers' fees paid later from the booking page, less refunds (decisions 126, 133).
          paidCents: await sessionChargedCents(tx, input.bookingId, signer.priceCents),
          journaledCents: await journaledFeeCents(tx, input.bookingId),
          maxPerActCents: deps.config.NOTARY_MAX_FEE_CENTS_BY_STATE[profile.commissionState] ?? null,
        });
        const data: JournalActData = {
          actType: input.actType,
          documentTitle: doc.originalName,
          pageCount: sealed.pageCount,
          signerName: signer.name,
          signerAddress: proofing.address,
          identity: proofing.identity,
          feeCents,
          currency: signer.currency,
          recordingRef: recording?.id ?? null,
          sealedSha256: sealed.sha256,
          notaryName,
          bookingReference: signer.reference,
          verificationCode,
          commissionNumber: profile.commissionNumber,
          commissionState: profile.commissionState,
          commissionExpiresOn: profile.commissionExpiresOn,
          signatureLevel: sealed.level,
          timestampAuthority: tsa ? new URL(tsa.url).host : null,
          ...whereSigned(answers),
          credibleWitness: customerWitness,
        };
        await appendJournalEntry(tx, { notaryId: staff.user.id, bookingId: input.bookingId, kind: 'act', performedAt: now, data: { ...data } });
        // The co-signers' entries: the same act, their name and proofing; the session's one fee is on the first entry only.
        for (const co of coSignerProofing) {
          const coData: JournalActData = {
            ...data,
            signerName: co.name,
            signerAddress: co.proofing.address,
            identity: co.proofing.identity,
            feeCents: 0,
            participantId: co.participantId,
            ...whereSigned(co.answers),
            credibleWitness: co.credibleWitness ?? null,
          };
          await appendJournalEntry(tx, { notaryId: staff.user.id, bookingId: input.bookingId, kind: 'act', performedAt: now, data: { ...coData } });
        }
        await writeAudit(tx, { actorType: 'staff', actorId: staff.user.id, action: 'document.sealed', entityType: 'booking', entityId: input.bookingId, data: { documentId: doc.id, sha256: sealed.sha256, signatureLevel: sealed.level } });
        return { changed: true, result: true };
      }),
    );
    if (!recorded) {
      // Our lease ran out and another request sealed it meanwhile: its file is the one on record.
      await deps.storage.delete(sealedKey).catch(() => {});
      return actView(deps.db, input.bookingId);
    }
  } catch (error) {
    await actRepo.releaseSeal(deps.db, act.id, claim).catch(() => {});
    if (stored) await deps.storage.delete(sealedKey).catch(() => {});
    throw error;
  }
  // A signed checkpoint of the journal's new head (decision 090).
  await checkpointAfterAct(deps);
  actChanged(deps, input.bookingId);
  return actView(deps.db, input.bookingId);
}

// ---- Finishing and delivery ------------------------------------------------------------

/** Why the session cannot be finished as completed yet, or null (the room's finish calls this). */
export async function finishBlocker(db: DbOrTx, bookingId: string): Promise<string | null> {
  // A booking without documents has nothing to seal; a document set aside as not notarizable is not waited for.
  const view = await actView(db, bookingId);
  return view.documents.every((d) => d.sealed || d.notNotarizable || d.supporting) ? null : actMessages.notSealed;
}

/**
 * The notary sets a document aside as not notarizable (a damaged file, a
 * document that may not be notarized), with a reason, so the act is not stuck
 * on it: it is never signed or sealed and no longer blocks Finish. Taken back
 * the same way. Under the booking's lock, so it never crosses a seal.
 */
export async function markNotNotarizable(
  deps: Deps,
  staff: StaffIdentity,
  input: { bookingId: string; documentId: string; notNotarizable: boolean; reason?: string },
): Promise<ActView> {
  await requireActAccess(deps, staff, input.bookingId, 'seal');
  const reason = input.reason?.trim() ?? '';
  if (input.notNotarizable && reason.length < 3) throw new DomainError('BAD_REQUEST', notNotarizableReasonRequired);
  const changed = await deps.db.transaction(async (tx) => {
    await lockBookingRow(tx, input.bookingId);
    const { doc, act } = await documentOfBooking(tx, input.bookingId, input.documentId);
    if (act?.sealedAt) throw new DomainError('CONFLICT', actMessages.alreadySealed);
    if (!!act?.notNotarizableAt === input.notNotarizable) return false;
    const values = input.notNotarizable
      ? { notNotarizableAt: deps.now(), notNotarizableReason: reason, notNotarizableBy: staff.user.id }
      : { notNotarizableAt: null, notNotarizableReason: null, notNotarizableBy: null };
    await actRepo.upsertAct(tx, input.bookingId, doc.id, values);
    await writeAudit(tx, {
      actorType: 'staff',
      actorId: staff.user.id,
      action: input.notNotarizable ? 'document.not_notarizable' : 'document.notarizable_again',
      entityType: 'booking',
      entityId: input.bookingId,
      data: { documentId: doc.id, ...(input.notNotarizable ? { reason } : {}) },
    });
    return true;
  });
  if (changed) actChanged(deps, input.bookingId);
  return actView(deps.db, input.bookingId);
}

/** Inside the finishing transaction: "Your notarized document is ready", with a manage link. */
export async function onActFinished(tx: Tx, deps: Deps, bookingId: string, options: { resend?: boolean } = {}): Promise<void> {
  // The first copy to go sets the date the email gives (decision 092).
  const keptUntil = notarizedCopyKeptUntil(deps, (await actRepo.firstSealedAt(tx, bookingId)) ?? deps.now());
  await onNotarizedDocumentReady(tx, deps, { bookingId, keptUntil, resend: options.resend });
}

/** Staff send the email again (a new link; earlier ones keep working). */
export async function resendDocumentReady(deps: Deps, staff: StaffIdentity, bookingId: string): Promise<void> {
  await requireActAccess(deps, staff, bookingId, 'finish');
  if (await finishBlocker(deps.db, bookingId)) throw new DomainError('PRECONDITION_FAILED', actMessages.notSealed);
  await deps.db.transaction(async (tx) => {
    await onActFinished(tx, deps, bookingId, { resend: true });
    await writeAudit(tx, { actorType: 'staff', actorId: staff.user.id, action: 'notarized_document.resent', entityType: 'booking', entityId: bookingId });
  });
}

/**
 * The sealed PDF of one document, for whoever the act admits: its signer (a
 * customer link), the notary who sealed it, admins (features/access,
 * 'download_notarized'). `bookingId`, when the address names one, must match.
 * Not sealed (or not this booking's): null.
 */
export async function openSealed(deps: Deps, caller: Caller, input: { documentId: string; bookingId?: string }) {
  if (!isUuid(input.documentId) || (input.bookingId !== undefined && !isUuid(input.bookingId))) return null;
  const act = await actRepo.actOfDocument(deps.db, input.documentId);
  // Deleted by retention (decision 092): gone, as for any missing file.
  if (!act?.sealedKey || act.sealedDeletedAt || (input.bookingId !== undefined && input.bookingId !== act.bookingId)) return null;
  const doc = await findBookingDocument(deps.db, act.bookingId, act.documentId);
  if (!doc) return null;
  const grant = await authorise(deps, caller, 'download_notarized', { bookingId: act.bookingId, notaryId: act.sealedBy });
  const object = await deps.storage.get(act.sealedKey);
  return { ...object, bookingId: act.bookingId, grant, name: notarizedFileName(doc.originalName) };
}

/**
 * The notary marks a file as supporting (an ID photo, a reference copy) or as
 * a document to notarize again: a supporting file is shown in the room but
 * never signed, sealed or journaled, and does not hold up Finish. Under the
 * booking's lock; a sealed document stays what it is.
 */
export async function markSupporting(deps: Deps, staff: StaffIdentity, input: { bookingId: string; documentId: string; supporting: boolean }): Promise<ActView> {
  await requireActAccess(deps, staff, input.bookingId, 'seal');
  const changed = await deps.db.transaction(async (tx) => {
    await lockBookingRow(tx, input.bookingId);
    const { doc, act } = await documentOfBooking(tx, input.bookingId, input.documentId);
    if (act?.sealedAt) throw new DomainError('CONFLICT', actMessages.alreadySealed);
    if (!!act?.supportingAt === input.supporting) return false;
    const values = { supportingAt: input.supporting ? deps.now() : null };
    await actRepo.upsertAct(tx, input.bookingId, doc.id, values);
    await writeAudit(tx, { actorType: 'staff', actorId: staff.user.id, action: input.supporting ? 'document.supporting' : 'document.to_notarize', entityType: 'booking', entityId: input.bookingId, data: { documentId: doc.id } });
    return true;
  });
  if (changed) actChanged(deps, input.bookingId);
  return actView(deps.db, input.bookingId);
}

// ---- The signer's location and consent, the oath (issue 26) ----------------------------------

/** "Where are you right now?" and "I consent to sign electronically", stored with the time and address. */
export async function giveConsent(deps: Deps, input: { token: string; location: string }, address: string | null): Promise<ActView> {
  // Each signer consents for themselves (a co-signer's or witness's answers are on their own row).
  const { bookingId, participantId } = await authoriseSigner(deps, input.token);
  await giveConsentStep(deps, bookingId, { location: input.location, address, participantId });
  return actView(deps.db, bookingId, participantId);
}

/** A signer outside the US: the notary confirms the act is allowed under RULONA's rule for signers abroad (decision 106). */
export async function confirmAbroad(deps: Deps, staff: StaffIdentity, bookingId: string, participantId: string | null = null): Promise<ActView> {
  await requireActAccess(deps, staff, bookingId, 'seal');
  await confirmAbroadStep(deps, staff.user.id, bookingId, participantId);
  return actView(deps.db, bookingId);
}

/** The co-signers and witnesses abroad, for the notary to confirm each (their countries are not shown to the other signers). */
export async function signersAbroad(deps: Deps, staff: StaffIdentity, bookingId: string): Promise<SignerAbroad[]> {
  await requireActAccess(deps, staff, bookingId, 'seal');
  return participantsAbroad(deps.db, bookingId);
}

/** The notary presses "Administer oath" (a jurat needs the signer's answer before sealing). */
export async function administerOath(deps: Deps, staff: StaffIdentity, bookingId: string): Promise<ActView> {
  await requireActAccess(deps, staff, bookingId, 'seal');
  await administerOathStep(deps, staff.user.id, bookingId);
  return actView(deps.db, bookingId);
}

/** The signer answers "I swear" or "I affirm". */
export async function answerOath(deps: Deps, input: { token: string; kind: 'swear' | 'affirm' }): Promise<ActView> {
  const { bookingId, participantId } = await authoriseSigner(deps, input.token);
  await answerOathStep(deps, bookingId, input.kind, participantId);
  return actView(deps.db, bookingId, participantId);
}
