import { describe, expect, it } from 'vitest';
import { boxAt, fieldBoxProblem, fieldMessages, fieldName, fitBox, formatFieldDate, minFieldHeight, minFieldWidth, nextEmptyField, saveFieldInput, type FieldView } from './document-fields.ts';

const field = (over: Partial<FieldView>): FieldView => ({ id: 'f', documentId: 'd', kind: 'signature', page: 1, x: 0, y: 0, width: 0.3, height: 0.06, participantId: null, filled: false, text: null, filledAt: null, ...over });

describe('document fields', () => {
  it('names each field for screen readers by kind and page', () => {
    expect(fieldName('signature', 3)).toBe('Signature field on page 3');
    expect(fieldName('date', 1)).toBe('Date field on page 1');
  });

  it('refuses a box off the page or too small, accepts one that touches the edges', () => {
    expect(fieldBoxProblem({ x: 0.8, y: 0.5, width: 0.3, height: 0.05 })).toBe(fieldMessages.outsidePage);
    expect(fieldBoxProblem({ x: 0.5, y: 0.97, width: 0.3, height: 0.05 })).toBe(fieldMessages.outsidePage);
    expect(fieldBoxProblem({ x: 0.5, y: 0.5, width: 0.01, height: 0.05 })).toBe(fieldMessages.tooSmall);
    expect(fieldBoxProblem({ x: 0.5, y: 0.5, width: 0.1, height: 0.01 })).toBe(fieldMessages.tooSmall);
    expect(fieldBoxProblem({ x: 0.7, y: 0.95, width: 0.3, height: 0.05 })).toBeNull();
    expect(fieldBoxProblem({ x: 0, y: 0, width: minFieldWidth, height: minFieldHeight })).toBeNull();
  });

  it('bounds the input: fractions 0..1, a whole page number, a known kind', () => {
    const base = { bookingId: crypto.randomUUID(), documentId: crypto.randomUUID(), kind: 'date', page: 2, x: 0.1, y: 0.1, width: 0.2, height: 0.04 };
    expect(saveFieldInput.safeParse(base).success).toBe(true);
    for (const bad of [{ x: -0.1 }, { y: 1.5 }, { width: Number.NaN }, { page: 0 }, { page: 1.5 }, { kind: 'stamp' }]) expect(saveFieldInput.safeParse({ ...base, ...bad }).success, JSON.stringify(bad)).toBe(false);
  });

  it('keeps a dragged or resized box on the page and at least the minimum size', () => {
    expect(fitBox({ x: 0.9, y: -0.2, width: 0.3, height: 0.05 })).toEqual({ x: 0.7, y: 0, width: 0.3, height: 0.05 });
    expect(fitBox({ x: 0.5, y: 0.5, width: 0.001, height: 0.001 })).toEqual({ x: 0.5, y: 0.5, width: minFieldWidth, height: minFieldHeight });
    const placed = boxAt('signature', { x: 0.99, y: 0.99 });
    expect(fieldBoxProblem(placed)).toBeNull();
    expect(boxAt('date', { x: 0.5, y: 0.5 })).toEqual({ x: 0.4, y: 0.4825, width: 0.2, height: 0.035 });
  });

  it('the next empty field in reading order: page, then top to bottom, then left to right', () => {
    const fields = [field({ id: 'p3', page: 3, y: 0.1 }), field({ id: 'p1-low', page: 1, y: 0.8 }), field({ id: 'p1-high-right', page: 1, y: 0.2, x: 0.5 }), field({ id: 'p1-high-left', page: 1, y: 0.2, x: 0.1, filled: true })];
    expect(nextEmptyField(fields)?.id).toBe('p1-high-right');
    expect(nextEmptyField(fields.map((f) => ({ ...f, filled: true })))).toBeNull();
  });

  it('writes the date in the signer’s format and zone: US MM/DD/YYYY, and the day where the signer is', () => {
    // 03:30 UTC on November 27 is still November 26 in Chicago.
    const at = new Date('2026-11-27T03:30:00Z');
    expect(formatFieldDate(at, 'en-US', 'America/Chicago')).toBe('11/26/2026');
    expect(formatFieldDate(at, 'en-GB', 'Europe/London')).toBe('27/11/2026');
    expect(formatFieldDate(at, 'en-US', 'Mars/Olympus_Mons')).toBeNull();
  });
});
