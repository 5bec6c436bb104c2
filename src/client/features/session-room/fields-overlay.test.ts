import { describe, expect, it } from 'vitest';
import type { FieldView } from '../../../shared/document-fields.ts';
import type { ActSigner } from '../../../shared/notarial-act.ts';
import { fieldsOverlay } from './fields-overlay.ts';

/** A 2D context that keeps what was drawn: each caption with its colour, each outline. */
function recordingContext() {
  const texts: { text: string; colour: string; x: number; y: number }[] = [];
  const outlines: { colour: string; x: number; y: number; width: number; height: number }[] = [];
  const context = {
    fillStyle: '',
    strokeStyle: '',
    lineWidth: 1,
    font: '',
    textBaseline: 'alphabetic',
    fillRect() {},
    strokeRect(x: number, y: number, width: number, height: number) {
      outlines.push({ colour: context.strokeStyle, x, y, width, height });
    },
    fillText(text: string, x: number, y: number) {
      texts.push({ text, colour: context.fillStyle, x, y });
    },
  };
  return { context: context as unknown as CanvasRenderingContext2D, texts, outlines };
}

const field = (over: Partial<FieldView>): FieldView => ({
  id: crypto.randomUUID(),
  documentId: 'd',
  kind: 'signature',
  page: 3,
  x: 0.1,
  y: 0.5,
  width: 0.3,
  height: 0.05,
  participantId: null,
  filled: false,
  text: null,
  filledAt: null,
  ...over,
});
const signer = (name: string, participantId: string | null, tone: number): ActSigner => ({ name, participantId, tone, role: participantId ? 'signer' : 'customer', active: true });

describe('the fields drawn over the page on the notary’s recording', () => {
  it('draws the shown page’s fields where they are on the page, in the page’s box, as the room shows them', () => {
    const { context, texts, outlines } = recordingContext();
    const fields = [field({}), field({ kind: 'date', filled: true, text: '11/26/2026', y: 0.6 }), field({ page: 1 })];
    fieldsOverlay(fields, [signer('Grace Hopper', null, 0)], 3)(context, { x: 0, y: 40, width: 640, height: 680 });
    expect(texts.map((t) => t.text)).toEqual(['Signature', '11/26/2026']);
    expect(outlines[0]).toMatchObject({ x: 64, y: 40 + 340, width: 192, height: 34 });
  });

  it('with several signers, names each field’s signer in their colour, and says Signed once filled', () => {
    const { context, texts } = recordingContext();
    const signers = [signer('Grace Hopper', null, 0), signer('Alan Turing', 'p-alan', 1)];
    const fields = [field({ participantId: 'p-alan', filled: true }), field({ kind: 'initials', y: 0.7 })];
    fieldsOverlay(fields, signers, 3)(context, { x: 0, y: 0, width: 100, height: 100 });
    expect(texts).toMatchObject([
      { text: 'Signed · Alan Turing', colour: '#a21caf' },
      { text: 'Initials · Grace Hopper', colour: '#1d4ed8' },
    ]);
  });
});
