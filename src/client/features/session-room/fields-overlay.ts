import type { FieldView } from '../../../shared/document-fields.ts';
import type { ActSigner } from '../../../shared/notarial-act.ts';
import { fieldCaption, signerOf } from '../notarial-act/field-layer.tsx';
import type { DocumentOverlay } from './document-view-source.ts';

/** Each signer's colour on the recording: the room's tones (field-layer.tsx), blue, fuchsia, teal and orange 700. */
const toneColours = ['#1d4ed8', '#a21caf', '#0f766e', '#c2410c'];

/**
 * The fields of the page on screen, drawn over it on the notary's recording
 * (docs/decisions/103-recording-composite.md: the page being signed, with its
 * fields as they are filled). Each box is outlined in its signer's colour and
 * says what the room shows in it: its kind while empty, then "Signed",
 * "Initialled" or its text, with the signer's name when there are several.
 */
export function fieldsOverlay(fields: readonly FieldView[], signers: readonly ActSigner[], page: number): DocumentOverlay {
  const onPage = fields.filter((field) => field.page === page);
  return (context, box) => {
    for (const field of onPage) {
      const colour = toneColours[(signerOf(signers, field)?.tone ?? 0) % toneColours.length]!;
      const x = box.x + field.x * box.width;
      const y = box.y + field.y * box.height;
      const width = field.width * box.width;
      const height = field.height * box.height;
      context.fillStyle = field.filled ? 'rgba(255, 255, 255, 0.92)' : 'rgba(255, 255, 255, 0.7)';
      context.fillRect(x, y, width, height);
      context.strokeStyle = colour;
      context.lineWidth = field.filled ? 1 : 2;
      context.strokeRect(x, y, width, height);
      context.fillStyle = colour;
      context.font = `600 ${Math.round(Math.min(14, Math.max(8, height * 0.6)))}px sans-serif`;
      context.textBaseline = 'middle';
      context.fillText(fieldCaption(field, signers), x + 3, y + height / 2, Math.max(1, width - 6));
    }
  };
}
