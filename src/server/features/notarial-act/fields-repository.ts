import { and, asc, count, eq, inArray, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { documentFields } from '../../db/schema.ts';
import type { FieldKind, FieldView } from '../../../shared/document-fields.ts';

/** The fields placed on documents (docs/decisions/100-document-fields.md). */

export type FieldRow = typeof documentFields.$inferSelect;

export function fieldView(row: FieldRow): FieldView {
  return {
    id: row.id,
    documentId: row.documentId,
    kind: row.kind,
    page: row.page,
    x: row.x,
    y: row.y,
    width: row.width,
    height: row.height,
    participantId: row.participantId,
    filled: row.filledAt !== null,
    text: row.filledAt && (row.kind === 'date' || row.kind === 'text') ? row.value : null,
    filledAt: row.filledAt,
  };
}

/** Every field of a booking's documents, in reading order. */
export async function bookingFields(db: DbOrTx, bookingId: string): Promise<FieldRow[]> {
  return db.select().from(documentFields).where(eq(documentFields.bookingId, bookingId)).orderBy(asc(documentFields.page), asc(documentFields.y), asc(documentFields.x), asc(documentFields.createdAt));
}

export async function documentFieldRows(db: DbOrTx, documentId: string): Promise<FieldRow[]> {
  return db.select().from(documentFields).where(eq(documentFields.documentId, documentId)).orderBy(asc(documentFields.page), asc(documentFields.y), asc(documentFields.x));
}

export async function fieldById(db: DbOrTx, bookingId: string, fieldId: string): Promise<FieldRow | null> {
  const [row] = await db.select().from(documentFields).where(and(eq(documentFields.id, fieldId), eq(documentFields.bookingId, bookingId)));
  return row ?? null;
}

export async function countFields(db: DbOrTx, documentId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(documentFields).where(eq(documentFields.documentId, documentId));
  return Number(row?.n ?? 0);
}

type Box = { page: number; x: number; y: number; width: number; height: number };

export async function insertField(db: DbOrTx, values: Box & { bookingId: string; documentId: string; kind: FieldKind; participantId: string | null; createdBy: string }): Promise<FieldRow> {
  const [row] = await db.insert(documentFields).values(values).returning();
  return row!;
}

/** Moves or resizes an empty field (a filled one stays where it was signed); null when none matched. */
export async function moveField(db: DbOrTx, fieldId: string, box: Box): Promise<FieldRow | null> {
  const [row] = await db
    .update(documentFields)
    .set(box)
    .where(and(eq(documentFields.id, fieldId), isNull(documentFields.filledAt)))
    .returning();
  return row ?? null;
}

export async function deleteEmptyField(db: DbOrTx, fieldId: string): Promise<boolean> {
  const rows = await db
    .delete(documentFields)
    .where(and(eq(documentFields.id, fieldId), isNull(documentFields.filledAt)))
    .returning({ id: documentFields.id });
  return rows.length > 0;
}

/** Fills the given empty fields with one value; the ids actually filled. */
export async function fillFields(db: DbOrTx, fieldIds: string[], values: { value: string; filledAt: Date; filledBy: string | null }): Promise<string[]> {
  if (fieldIds.length === 0) return [];
  const rows = await db
    .update(documentFields)
    .set(values)
    .where(and(inArray(documentFields.id, fieldIds), isNull(documentFields.filledAt)))
    .returning({ id: documentFields.id });
  return rows.map((r) => r.id);
}
