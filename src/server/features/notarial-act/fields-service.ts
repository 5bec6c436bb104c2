import { DomainError } from '../../errors.ts';
import { actMessages, type ActView } from '../../../shared/notarial-act.ts';
import { fieldBoxProblem, fieldMessages, formatFieldDate, maxFieldsPerDocument, type FieldKind } from '../../../shared/document-fields.ts';
import type { Deps } from '../../deps.ts';
import type { StaffIdentity } from '../staff/session.ts';
import { writeAudit } from '../audit.ts';
import { lockBookingRow } from '../booking/service.ts';
import { requireActAccess } from '../identity/service.ts';
import { activeParticipants } from '../participants/service.ts';
import { assertOwnField, authoriseSigner } from './field-owner.ts';
import { actChanged, takeTransition } from '../act/service.ts';
import { actView, documentOfBooking, readSource, signerName } from './service.ts';
import { inspectDocument } from './seal.ts';
import * as actRepo from './repository.ts';
import * as fieldsRepo from './fields-repository.ts';

/**
 * Fields on a document (docs/decisions/100-document-fields.md). The notary
 * places, moves, resizes and removes Signature, Initials, Date and Text
 * fields; the signer fills them (signatures and initials through
 * adoptSignature in service.ts, dates and texts here). Every change goes to
 * both participants through the act's one bus (`actChanged`).
 */

type Box = { page: number; x: number; y: number; width: number; height: number };

/**
 * The notary places a field for a signer — the booking's customer
 * (`participantId` null or absent) or a co-signer or witness still taking
 * part (decision 123) — or moves / resizes one still empty (its signer stays).
 */
export async function saveField(deps: Deps, staff: StaffIdentity, input: Box & { bookingId: string; documentId: string; fieldId?: string; kind: FieldKind; participantId?: string | null }): Promise<ActView> {
  await requireActAccess(deps, staff, input.bookingId, 'seal');
  const problem = fieldBoxProblem(input);
  if (problem) throw new DomainError('BAD_REQUEST', problem);
  const { doc, act } = await documentOfBooking(deps.db, input.bookingId, input.documentId);
  refuseClosed(act);
  // Counted once per document, in the seal worker (never on this thread); known afterwards from the row.
  const pages = act?.pageCount ?? (await inspectDocument(await readSource(deps, doc), 'handOver'));
  if (input.page > pages) throw new DomainError('BAD_REQUEST', fieldMessages.noSuchPage);
  const box = { page: input.page, x: input.x, y: input.y, width: input.width, height: input.height };
  await deps.db.transaction(async (tx) => {
    await lockBookingRow(tx, input.bookingId);
    const { act: locked } = await documentOfBooking(tx, input.bookingId, input.documentId);
    refuseClosed(locked);
    if (!locked?.pageCount) await actRepo.recordPageCount(tx, input.bookingId, doc.id, pages);
    if (input.fieldId) {
      const existing = await fieldsRepo.fieldById(tx, input.bookingId, input.fieldId);
      if (!existing || existing.documentId !== doc.id) throw new DomainError('NOT_FOUND', fieldMessages.notFound);
      if (existing.filledAt) throw new DomainError('CONFLICT', fieldMessages.filled);
      if (existing.kind !== input.kind) throw new DomainError('BAD_REQUEST', fieldMessages.wrongKind);
      if (!(await fieldsRepo.moveField(tx, existing.id, box))) throw new DomainError('CONFLICT', fieldMessages.filled);
      return;
    }
    if ((await fieldsRepo.countFields(tx, doc.id)) >= maxFieldsPerDocument) throw new DomainError('BAD_REQUEST', fieldMessages.tooMany);
    const participantId = input.participantId ?? null;
    // A field is for someone who signs in this session and still takes part (never another booking's participant).
    if (participantId !== null && !(await activeParticipants(tx, input.bookingId)).some((p) => p.id === participantId)) throw new DomainError('BAD_REQUEST', fieldMessages.unknownSigner);
    const field = await fieldsRepo.insertField(tx, { bookingId: input.bookingId, documentId: doc.id, kind: input.kind, participantId, createdBy: staff.user.id, ...box });
    await writeAudit(tx, { actorType: 'staff', actorId: staff.user.id, action: 'document.field_placed', entityType: 'booking', entityId: input.bookingId, data: { documentId: doc.id, fieldId: field.id, kind: input.kind, page: input.page, participantId } });
  });
  actChanged(deps, input.bookingId);
  return actView(deps.db, input.bookingId);
}

/** The notary removes an empty field. */
export async function removeField(deps: Deps, staff: StaffIdentity, input: { bookingId: string; fieldId: string }): Promise<ActView> {
  await requireActAccess(deps, staff, input.bookingId, 'seal');
  await deps.db.transaction(async (tx) => {
    await lockBookingRow(tx, input.bookingId);
    const field = await fieldsRepo.fieldById(tx, input.bookingId, input.fieldId);
    if (!field) throw new DomainError('NOT_FOUND', fieldMessages.notFound);
    refuseClosed((await documentOfBooking(tx, input.bookingId, field.documentId)).act);
    if (field.filledAt || !(await fieldsRepo.deleteEmptyField(tx, field.id))) throw new DomainError('CONFLICT', fieldMessages.filled);
    await writeAudit(tx, { actorType: 'staff', actorId: staff.user.id, action: 'document.field_removed', entityType: 'booking', entityId: input.bookingId, data: { documentId: field.documentId, fieldId: field.id, kind: field.kind, page: field.page } });
  });
  actChanged(deps, input.bookingId);
  return actView(deps.db, input.bookingId);
}

/**
 * The signer fills a Date field (today's date, written by the server in the
 * signer's locale and time zone: nothing typed) or a Text field. A step of
 * the act: refused unless the recording runs and the act is at signing.
 */
export async function fillField(
  deps: Deps,
  input: { token: string; fieldId: string } & ({ kind: 'date'; locale: string; timeZone: string } | { kind: 'text'; text: string }),
): Promise<ActView> {
  const signer = await authoriseSigner(deps, input.token);
  const { bookingId, participantId } = signer;
  const now = deps.now();
  const value = input.kind === 'date' ? formatFieldDate(now, input.locale, input.timeZone) : input.text;
  if (value === null) throw new DomainError('BAD_REQUEST', fieldMessages.badLocale);
  const { customerId } = await signerName(deps.db, bookingId);
  await deps.db.transaction(async (tx) => {
    // Whose field it is, before the act's guard reads that signer's own facts (field-owner.ts: the one place).
    const field = await fieldsRepo.fieldById(tx, bookingId, input.fieldId);
    if (!field) throw new DomainError('NOT_FOUND', fieldMessages.notFound);
    assertOwnField(signer, field);
    return takeTransition(deps, tx, { bookingId, transition: 'adoptSignature', actor: { type: 'customer' }, participantId, data: { fieldId: input.fieldId, field: input.kind } }, async () => {
      if (field.kind !== input.kind) throw new DomainError('BAD_REQUEST', fieldMessages.wrongKind);
      refuseClosed((await documentOfBooking(tx, bookingId, field.documentId)).act);
      if (field.filledAt) throw new DomainError('CONFLICT', fieldMessages.alreadyFilled);
      const filled = await fieldsRepo.fillFields(tx, [field.id], { value, filledAt: now, filledBy: participantId ?? customerId });
      if (filled.length === 0) throw new DomainError('CONFLICT', fieldMessages.alreadyFilled);
      await writeAudit(tx, { actorType: 'customer', action: 'document.field_filled', entityType: 'booking', entityId: bookingId, data: { documentId: field.documentId, fieldId: field.id, kind: field.kind, participantId } });
      return { changed: true, result: undefined };
    });
  });
  actChanged(deps, bookingId);
  return actView(deps.db, bookingId, participantId);
}

function refuseClosed(act: { sealedAt: Date | null; notNotarizableAt: Date | null; supportingAt: Date | null } | null | undefined) {
  if (act?.sealedAt) throw new DomainError('CONFLICT', actMessages.alreadySealed);
  if (act?.notNotarizableAt) throw new DomainError('CONFLICT', actMessages.markedNotNotarizable);
  if (act?.supportingAt) throw new DomainError('CONFLICT', actMessages.supportingFile);
}
