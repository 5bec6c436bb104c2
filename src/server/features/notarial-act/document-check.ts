/**
 * Whether a customer's file can be read as a document at all (a PDF pdf-lib
 * parses, or a PNG/JPEG it embeds). Asked only after sealing or placing has
 * failed, to tell "this file is damaged" (the notary's to act on: mark it as
 * not notarizable) from our own faults (storage, the certificate, a bug),
 * which stay 500s. pdf-lib loads with the first use, not at start.
 */
export async function documentIsReadable(source: { bytes: Buffer; contentType: string }): Promise<boolean> {
  const { PDFDocument } = await import('pdf-lib');
  try {
    if (source.contentType === 'application/pdf') {
      const pdf = await PDFDocument.load(source.bytes, { ignoreEncryption: true });
      return pdf.getPageCount() > 0;
    }
    const probe = await PDFDocument.create();
    const bytes = Uint8Array.from(source.bytes);
    if (source.contentType === 'image/png') await probe.embedPng(bytes);
    else await probe.embedJpg(bytes);
    return true;
  } catch {
    return false;
  }
}
