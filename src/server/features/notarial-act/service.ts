import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { DomainError } from '../../errors.ts';
import { and, asc, desc, eq, isNotNull, isNull, ne, or } from 'drizzle-orm';
import {
  actMessages,
  type ActDocumentView,
  type ActType,
  type ActView,
} from '../../../shared/notarial-act.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { bookings, customers, documents, notarialDocuments, notaryProfiles, sessionRecordings, staffUsers } from '../../db/schema.ts';
import type { Deps } from '../../deps.ts';
import type { StaffIdentity } from '../staff/session.ts';
import { writeAudit } from '../audit.ts';
import { issueManageToken } from '../booking/service.ts';
import { latestVerified } from '../identity/service.ts';
import { requireActAccess, sessionStartBlocker } from '../identity/service.ts';
import { appendJournalEntry, checkpointAfterAct, type JournalActData } from '../journal/service.ts';
import { formatVerificationCode } from '../../../shared/verification.ts';
import { notarizedCopyKeptUntil } from './retention-service.ts';
import { bookingIdForToken } from '../manage-booking/service.ts';
import { onNotarizedDocumentReady } from '../notifications/events.ts';
import { notifySessionUpdated } from '../session-events.ts';
/**
 * pdf-lib, @signpdf and node-forge (some 250 files) load with the first page
 * count, seal or certificate, not at start: no request before that needs them
 * (docs/decisions/048-database-endpoints-and-start-up.md).
 */
const pdfModule = () => import('./pdf.ts');
const certificatesModule = () => import('./certificates.ts');

/**
 * Signing and sealing in the session, and delivery of the sealed PDF. The
 * notary places the signature, the signer adopts one, the notary completes
 * the certificate and seals; each seal writes a journal entry in the same
 * transaction. The original upload is never touched: the sealed copy sits
 * beside it with its SHA-256 recorded.
 */

type ActRow = typeof notarialDocuments.$inferSelect;
const pngMagic = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

async function actDocuments(db: DbOrTx, bookingId: string) {
  return db
    .select({ doc: documents, act: notarialDocuments })
    .from(documents)
    .leftJoin(notarialDocuments, eq(notarialDocuments.documentId, documents.id))
    .where(
      and(
        eq(documents.bookingId, bookingId),
        ne(documents.scanStatus, 'infected'),
        // The original goes after DOCUMENT_RETENTION_DAYS; a notarized copy still kept stays listed (decision 092).
        or(eq(documents.status, 'stored'), and(isNotNull(notarialDocuments.sealedKey), isNull(notarialDocuments.sealedDeletedAt))),
      ),
    )
    .orderBy(asc(documents.createdAt));
}

async function signerName(db: DbOrTx, bookingId: string): Promise<{ name: string; reference: string; priceCents: number; currency: string; timeZone: string }> {
  const [row] = await db
    .select({ first: customers.firstName, last: customers.lastName, reference: bookings.reference, priceCents: bookings.priceCents, currency: bookings.currency, timeZone: bookings.timeZone })
    .from(bookings)
    .leftJoin(customers, eq(customers.id, bookings.customerId))
    .where(eq(bookings.id, bookingId));
  if (!row) throw new DomainError('NOT_FOUND', 'Booking not found.');
  return { name: [row.first, row.last].filter(Boolean).join(' '), reference: row.reference, priceCents: row.priceCents, currency: row.currency, timeZone: row.timeZone };
}

function documentView(doc: typeof documents.$inferSelect, act: ActRow | null): ActDocumentView {
  return {
    documentId: doc.id,
    name: doc.originalName,
    contentType: doc.contentType ?? 'application/octet-stream',
    placement: act?.placement ?? null,
    signed: !!act?.signedAt,
    signatureKind: act?.signatureKind ?? null,
    actType: act?.actType ?? null,
    sealed: !!act?.sealedAt,
    sealedSha256: act?.sealedSha256 ?? null,
    pageCount: act?.pageCount ?? null,
  };
}

async function actView(db: DbOrTx, bookingId: string): Promise<ActView> {
  const rows = await actDocuments(db, bookingId);
  const signer = await signerName(db, bookingId);
  const docs = rows.map((r) => documentView(r.doc, r.act));
  return { bookingId, signerName: signer.name, documents: docs, allSealed: docs.length > 0 && docs.every((d) => d.sealed) };
}

export async function actForStaff(deps: Deps, staff: StaffIdentity, bookingId: string): Promise<ActView> {
  await requireActAccess(deps, staff, bookingId);
  return actView(deps.db, bookingId);
}

export async function actForCustomer(deps: Deps, token: string): Promise<ActView> {
  return actView(deps.db, await bookingIdForToken(deps.db, token));
}

async function documentOfBooking(db: DbOrTx, bookingId: string, documentId: string) {
  const rows = await actDocuments(db, bookingId);
  const row = rows.find((r) => r.doc.id === documentId);
  if (!row) throw new DomainError('NOT_FOUND', 'Document not found.');
  return row;
}

async function readSource(deps: Deps, doc: typeof documents.$inferSelect) {
  const stored = await deps.storage.get(doc.storageKey);
  return { bytes: await buffer(stored.body), contentType: doc.contentType ?? 'application/octet-stream' };
}

/** The notary shows where the signer signs: a page and a point on it. */
export async function placeSignature(deps: Deps, staff: StaffIdentity, input: { bookingId: string; documentId: string; page: number; xPercent: number; yPercent: number }): Promise<ActView> {
  await requireActAccess(deps, staff, input.bookingId, { notaryOnly: true });
  const { doc, act } = await documentOfBooking(deps.db, input.bookingId, input.documentId);
  if (act?.sealedAt) throw new DomainError('CONFLICT', actMessages.alreadySealed);
  const { pageCountOf } = await pdfModule();
  const pages = await pageCountOf(await readSource(deps, doc));
  if (input.page > pages) throw new DomainError('BAD_REQUEST', actMessages.badPlacement);
  const placement = { page: input.page, xPercent: input.xPercent, yPercent: input.yPercent };
  await deps.db
    .insert(notarialDocuments)
    .values({ bookingId: input.bookingId, documentId: doc.id, placement, pageCount: pages })
    .onConflictDoUpdate({ target: notarialDocuments.documentId, set: { placement, pageCount: pages } });
  await notifySessionUpdated(deps, input.bookingId, 'placement');
  return actView(deps.db, input.bookingId);
}

/** The signer adopts a signature (typed in a script font or drawn; both arrive as a PNG). */
export async function adoptSignature(deps: Deps, input: { token: string; documentId: string; kind: 'typed' | 'drawn'; text?: string; png: string }): Promise<ActView> {
  const bookingId = await bookingIdForToken(deps.db, input.token);
  const { act } = await documentOfBooking(deps.db, bookingId, input.documentId);
  if (!act?.placement) throw new DomainError('PRECONDITION_FAILED', actMessages.notPlaced);
  if (act.sealedAt) throw new DomainError('CONFLICT', actMessages.alreadySealed);
  const bytes = Buffer.from(input.png.slice(input.png.indexOf(',') + 1), 'base64');
  if (bytes.length < 60 || !bytes.subarray(0, 8).equals(pngMagic)) throw new DomainError('BAD_REQUEST', actMessages.signatureImage);
  if (input.kind === 'typed' && !input.text) throw new DomainError('BAD_REQUEST', 'Type your name to adopt it as your signature.');
  await deps.db.transaction(async (tx) => {
    await tx
      .update(notarialDocuments)
      .set({ signatureKind: input.kind, signatureText: input.kind === 'typed' ? input.text! : null, signaturePng: bytes.toString('base64'), signedAt: deps.now() })
      .where(eq(notarialDocuments.id, act.id));
    await writeAudit(tx, { actorType: 'customer', action: 'signature.adopted', entityType: 'booking', entityId: bookingId, data: { documentId: input.documentId, kind: input.kind } });
  });
  await notifySessionUpdated(deps, bookingId, 'signature');
  return actView(deps.db, bookingId);
}

// ---- Notary profile and certificate ------------------------------------------------

export interface NotaryProfileView {
  commissionNumber: string | null;
  commissionExpiresOn: string | null;
  commissionState: string;
  commissionCounty: string | null;
  certificate: { kind: 'uploaded' | 'test'; subject: string | null; expiresAt: Date | null } | null;
}

async function profileRow(db: DbOrTx, staffUserId: string) {
  const [row] = await db.select().from(notaryProfiles).where(eq(notaryProfiles.staffUserId, staffUserId));
  return row;
}

function profileView(row: typeof notaryProfiles.$inferSelect | undefined): NotaryProfileView {
  return {
    commissionNumber: row?.commissionNumber ?? null,
    commissionExpiresOn: row?.commissionExpiresOn ?? null,
    commissionState: row?.commissionState ?? 'Iowa',
    commissionCounty: row?.commissionCounty ?? null,
    certificate: row?.certificateKind ? { kind: row.certificateKind, subject: row.certificateSubject, expiresAt: row.certificateExpiresAt } : null,
  };
}

export async function getNotaryProfile(deps: Deps, staffUserId: string): Promise<NotaryProfileView> {
  return profileView(await profileRow(deps.db, staffUserId));
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
  await deps.db.insert(notaryProfiles).values({ staffUserId: staff.user.id, ...values }).onConflictDoUpdate({ target: notaryProfiles.staffUserId, set: values });
  await writeAudit(deps.db, { actorType: 'staff', actorId: staff.user.id, action: 'notary.commission_updated', entityType: 'staff_user', entityId: staff.user.id });
  return getNotaryProfile(deps, staff.user.id);
}

/** An admin uploads a notary's PKCS#12 and password; both are sealed before they reach the database. */
export async function uploadCertificate(deps: Deps, admin: StaffIdentity, input: { staffUserId: string; p12Base64: string; password: string }): Promise<NotaryProfileView> {
  const [user] = await deps.db.select({ role: staffUsers.role }).from(staffUsers).where(eq(staffUsers.id, input.staffUserId));
  if (user?.role !== 'notary') throw new DomainError('BAD_REQUEST', 'Certificates are for notaries only.');
  const p12 = Buffer.from(input.p12Base64, 'base64');
  const { CertificateError, readP12 } = await certificatesModule();
  let info;
  try {
    info = readP12(p12, input.password);
  } catch (error) {
    if (error instanceof CertificateError) throw new DomainError('BAD_REQUEST', error.message);
    throw error;
  }
  if (info.notAfter.getTime() <= deps.now().getTime()) throw new DomainError('BAD_REQUEST', 'This certificate has expired.');
  await storeCertificate(deps, input.staffUserId, { p12, password: input.password, kind: 'uploaded', info });
  await writeAudit(deps.db, { actorType: 'staff', actorId: admin.user.id, action: 'notary.certificate_uploaded', entityType: 'staff_user', entityId: input.staffUserId, data: { subject: info.subject } });
  return getNotaryProfile(deps, input.staffUserId);
}

async function storeCertificate(deps: Deps, staffUserId: string, cert: { p12: Buffer; password: string; kind: 'uploaded' | 'test'; info: { subject: string; notAfter: Date } }) {
  const values = {
    certificateP12: deps.secrets.seal(cert.p12, `notary-p12:${staffUserId}`),
    certificatePassword: deps.secrets.seal(cert.password, `notary-p12-password:${staffUserId}`),
    certificateKind: cert.kind,
    certificateSubject: cert.info.subject,
    certificateExpiresAt: cert.info.notAfter,
  };
  await deps.db.insert(notaryProfiles).values({ staffUserId, ...values }).onConflictDoUpdate({ target: notaryProfiles.staffUserId, set: values });
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
  const { generateTestCertificate } = await certificatesModule();
  const generated = generateTestCertificate(notaryName, deps.now());
  await storeCertificate(deps, staffUserId, { p12: generated.p12, password: generated.password, kind: 'test', info: { subject: generated.info.subject, notAfter: generated.info.notAfter } });
  return { p12: generated.p12, password: generated.password };
}

// ---- Sealing -------------------------------------------------------------------------

/**
 * The notary completes the certificate and applies seal and signature. Needs:
 * the signer's identity confirmed, a signature adopted, the commission on file
 * and unexpired. Writes the journal entry in the same transaction as the seal.
 */
export async function sealDocument(deps: Deps, staff: StaffIdentity, input: { bookingId: string; documentId: string; actType: ActType }): Promise<ActView> {
  await requireActAccess(deps, staff, input.bookingId, { notaryOnly: true });
  const blocker = await sessionStartBlocker(deps.db, input.bookingId);
  if (blocker) throw new DomainError('PRECONDITION_FAILED', actMessages.identityFirst);
  const { doc, act } = await documentOfBooking(deps.db, input.bookingId, input.documentId);
  if (act?.sealedAt) throw new DomainError('CONFLICT', actMessages.alreadySealed);
  if (!act?.placement || !act.signaturePng || !act.signedAt) throw new DomainError('PRECONDITION_FAILED', actMessages.notSigned);
  const profile = await profileRow(deps.db, staff.user.id);
  if (!profile?.commissionNumber || !profile.commissionExpiresOn) throw new DomainError('PRECONDITION_FAILED', actMessages.commissionMissing);
  const now = deps.now();
  if (profile.commissionExpiresOn < now.toISOString().slice(0, 10)) throw new DomainError('PRECONDITION_FAILED', actMessages.commissionExpired);

  const notaryName = staff.user.name || staff.user.email;
  const certificate = await signingCertificate(deps, staff.user.id, notaryName);
  const signer = await signerName(deps.db, input.bookingId);
  const source = await readSource(deps, doc);
  const { buildSealedPdf } = await pdfModule();
  // Printed on the certificate page, so it is part of what is signed and hashed (decision 091).
  const verificationCode = formatVerificationCode(randomBytes(8));
  const sealed = await buildSealedPdf({
    source,
    placement: act.placement,
    signaturePng: Buffer.from(act.signaturePng, 'base64'),
    act: {
      type: input.actType,
      performedAt: now,
      timeZone: staff.user.timeZone,
      signerName: signer.name,
      documentTitle: doc.originalName,
      notaryName,
      commissionNumber: profile.commissionNumber,
      commissionExpiresOn: profile.commissionExpiresOn,
      commissionState: profile.commissionState,
      county: profile.commissionCounty,
      verification: { code: verificationCode, url: `${deps.config.publicUrl}/verify?code=${verificationCode}` },
    },
    certificate,
  });
  // Beside the original, never over it.
  const sealedKey = `${input.bookingId}/sealed-${doc.id}.pdf`;
  await deps.storage.put(sealedKey, Readable.from(sealed.pdf), { contentType: 'application/pdf', upsert: true });
  const verification = await latestVerified(deps.db, input.bookingId);
  // The journal names the recording of the act: the one running (or last stored) when sealing.
  const [recording] = await deps.db
    .select({ id: sessionRecordings.id })
    .from(sessionRecordings)
    .where(and(eq(sessionRecordings.bookingId, input.bookingId), ne(sessionRecordings.status, 'deleted')))
    .orderBy(desc(sessionRecordings.startedAt))
    .limit(1);

  await deps.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(notarialDocuments)
      .set({ actType: input.actType, sealedKey, sealedSha256: sealed.sha256, pageCount: sealed.pageCount, sealedAt: now, sealedBy: staff.user.id })
      .where(and(eq(notarialDocuments.id, act.id)))
      .returning({ id: notarialDocuments.id });
    if (!updated) throw new DomainError('CONFLICT', actMessages.alreadySealed);
    const data: JournalActData = {
      actType: input.actType,
      documentTitle: doc.originalName,
      pageCount: sealed.pageCount,
      signerName: signer.name,
      signerAddress: null,
      identity: {
        provider: verification!.provider,
        verificationId: verification!.providerSessionId,
        idType: verification!.documentType,
        issuingState: verification!.issuingState,
        expiresOn: verification!.expiresOn,
      },
      feeCents: signer.priceCents,
      currency: signer.currency,
      recordingRef: recording?.id ?? null,
      sealedSha256: sealed.sha256,
      notaryName,
      bookingReference: signer.reference,
      verificationCode,
      commissionNumber: profile.commissionNumber,
      commissionState: profile.commissionState,
      commissionExpiresOn: profile.commissionExpiresOn,
      signatureLevel: sealed.signatureLevel,
      timestampAuthority: sealed.timestampAuthority,
    };
    await appendJournalEntry(tx, { notaryId: staff.user.id, bookingId: input.bookingId, kind: 'act', performedAt: now, data: { ...data } });
    await writeAudit(tx, { actorType: 'staff', actorId: staff.user.id, action: 'document.sealed', entityType: 'booking', entityId: input.bookingId, data: { documentId: doc.id, sha256: sealed.sha256 } });
  });
  // A signed checkpoint of the journal's new head (decision 090).
  await checkpointAfterAct(deps);
  await notifySessionUpdated(deps, input.bookingId, 'sealed');
  return actView(deps.db, input.bookingId);
}

// ---- Finishing and delivery ------------------------------------------------------------

/** Why the session cannot be finished as completed yet, or null (the room's finish calls this). */
export async function finishBlocker(db: DbOrTx, bookingId: string): Promise<string | null> {
  // A booking without documents has nothing to seal.
  const view = await actView(db, bookingId);
  return view.documents.every((d) => d.sealed) ? null : actMessages.notSealed;
}

/** Inside the finishing transaction: "Your notarized document is ready", with a manage link. */
export async function onActFinished(tx: Tx, deps: Deps, bookingId: string, options: { resend?: boolean } = {}): Promise<void> {
  const manageToken = await issueManageToken(tx, bookingId, 'notarized-document');
  // The first copy to go sets the date the email gives (decision 092).
  const [first] = await tx
    .select({ sealedAt: notarialDocuments.sealedAt })
    .from(notarialDocuments)
    .where(and(eq(notarialDocuments.bookingId, bookingId), isNotNull(notarialDocuments.sealedAt)))
    .orderBy(asc(notarialDocuments.sealedAt))
    .limit(1);
  const keptUntil = notarizedCopyKeptUntil(deps, first?.sealedAt ?? deps.now());
  await onNotarizedDocumentReady(tx, deps, { bookingId, manageToken, keptUntil, resend: options.resend });
}

/** Staff send the email again (a new link; earlier ones keep working). */
export async function resendDocumentReady(deps: Deps, staff: StaffIdentity, bookingId: string): Promise<void> {
  if (staff.user.role === 'notary') await requireActAccess(deps, staff, bookingId);
  if (await finishBlocker(deps.db, bookingId)) throw new DomainError('PRECONDITION_FAILED', actMessages.notSealed);
  await deps.db.transaction(async (tx) => {
    await onActFinished(tx, deps, bookingId, { resend: true });
    await writeAudit(tx, { actorType: 'staff', actorId: staff.user.id, action: 'notarized_document.resent', entityType: 'booking', entityId: bookingId });
  });
}

/** The sealed PDF of one document of a booking (callers have authorised the booking). */
export async function openSealed(deps: Deps, bookingId: string, documentId: string) {
  const [row] = await deps.db
    .select({ key: notarialDocuments.sealedKey, deletedAt: notarialDocuments.sealedDeletedAt, name: documents.originalName })
    .from(notarialDocuments)
    .innerJoin(documents, eq(documents.id, notarialDocuments.documentId))
    .where(and(eq(notarialDocuments.bookingId, bookingId), eq(notarialDocuments.documentId, documentId)));
  // Deleted by retention (decision 092): gone, as for any missing file.
  if (!row?.key || row.deletedAt) return null;
  const object = await deps.storage.get(row.key);
  return { ...object, name: `${row.name.replace(/\.[^.]+$/, '')}-notarized.pdf` };
}
