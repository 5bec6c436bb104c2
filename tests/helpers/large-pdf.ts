import { randomBytes } from 'node:crypto';
import { PDFDocument, PDFName } from 'pdf-lib';

/**
 * A scanned-looking PDF of about `bytes` (10 MB by default): `pages` letter
 * pages, each a full-page image XObject of incompressible bytes (labelled
 * DCT: nothing here decodes it), the shape of a customer's scan. For the seal
 * worker's test and `npm run bench`.
 */
export async function scannedPdf(bytes = 10 * 1024 * 1024, pages = 5): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const perPage = Math.floor(bytes / pages);
  for (let i = 0; i < pages; i++) {
    const page = pdf.addPage([612, 792]);
    const image = pdf.context.register(
      pdf.context.stream(randomBytes(perPage), { Type: 'XObject', Subtype: 'Image', Width: 2550, Height: 3300, ColorSpace: 'DeviceRGB', BitsPerComponent: 8, Filter: 'DCTDecode' }),
    );
    page.node.setXObject(PDFName.of('Scan'), image);
    const content = pdf.context.register(pdf.context.stream('q 612 0 0 792 0 0 cm /Scan Do Q'));
    page.node.set(PDFName.of('Contents'), content);
  }
  return Buffer.from(await pdf.save({ useObjectStreams: false }));
}
