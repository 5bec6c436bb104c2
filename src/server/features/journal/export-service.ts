import type { JournalListItem } from './service.ts';

/** The newest signed checkpoint (decision 090), printed at the end of every export. */
export interface ExportCheckpoint {
  seq: number;
  takenAt: Date;
  encoded: string;
  timestampAuthority: string | null;
}

const checkpointText = (c: ExportCheckpoint) =>
  `Signed checkpoint of the whole journal at entry ${c.seq}, ${c.takenAt.toISOString()}${c.timestampAuthority ? `, timestamped by ${c.timestampAuthority}` : ''}. Keep it outside the database; check with: npm run journal:verify -- --checkpoint <this line>`;

/** The journal as CSV (RFC 4180) and as a printable PDF, one row per entry. */
const columns = ['Entry', 'Kind', 'Corrects', 'Date and time (UTC)', 'Act', 'Document', 'Pages', 'Signer', 'Signer address', 'ID provider', 'Verification id', 'ID type', 'Issuing state', 'ID expires', 'Fee', 'Recording', 'Sealed SHA-256', 'Notary', 'Booking', 'Entry hash'];

function row(e: JournalListItem): string[] {
  const d = e.data as Record<string, unknown> & { identity?: Record<string, unknown> };
  const id = d.identity ?? {};
  const s = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
  const fee = typeof d.feeCents === 'number' ? `${(d.feeCents / 100).toFixed(2)} ${String(d.currency ?? 'usd').toUpperCase()}` : '';
  return [
    String(e.seq), e.kind, s(e.correctsSeq), e.performedAt.toISOString(), s(d.actType ?? d.note), s(d.documentTitle), s(d.pageCount), s(d.signerName), s(d.signerAddress),
    s(id.provider), s(id.verificationId), s(id.idType), s(id.issuingState), s(id.expiresOn), fee, s(d.recordingRef), s(d.sealedSha256), e.notaryName, s(d.bookingReference), e.hash,
  ];
}

const csvCell = (value: string) => {
  // A leading = + - @ would run as a formula in a spreadsheet.
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

export function journalCsv(entries: JournalListItem[], checkpoint: ExportCheckpoint | null = null): string {
  const rows = [columns, ...entries.map(row)];
  // One last row: kind "checkpoint", the note under Act, the checkpoint itself under Entry hash.
  if (checkpoint) rows.push(columns.map((_, i) => (i === 0 ? String(checkpoint.seq) : i === 1 ? 'checkpoint' : i === 3 ? checkpoint.takenAt.toISOString() : i === 4 ? checkpointText(checkpoint) : i === columns.length - 1 ? checkpoint.encoded : '')));
  return rows.map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

export async function journalPdf(entries: JournalListItem[], meta: { title: string; range: { from?: string; to?: string }; checkpoint?: ExportCheckpoint | null }): Promise<Buffer> {
  // pdf-lib loads with the first export, not at start.
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const size: [number, number] = [792, 612];
  let page = pdf.addPage(size);
  let y = size[1] - 48;
  const line = (text: string, f = font, s = 8) => {
    if (y < 40) {
      page = pdf.addPage(size);
      y = size[1] - 48;
    }
    page.drawText(text.replace(/[^\x20-\x7e\xa0-\xff]/g, '?').slice(0, 190), { x: 36, y, size: s, font: f });
    y -= s + 4;
  };
  line(meta.title, bold, 14);
  line(`Period: ${meta.range.from ?? 'start'} to ${meta.range.to ?? 'today'} - ${entries.length} entries`, font, 9);
  y -= 6;
  for (const entry of entries) {
    const r = row(entry);
    line(`#${r[0]} ${r[1]}${r[2] ? ` (corrects #${r[2]})` : ''} - ${r[3]} - ${r[4]} - ${r[5]} (${r[6]} pages)`, bold, 8);
    line(`Signer: ${r[7]}${r[8] ? `, ${r[8]}` : ''}. Identity: ${r[9]} ${r[10]}, ${r[11]} ${r[12]}, expires ${r[13]}. Fee ${r[14]}. Recording ${r[15] || '-'}.`);
    line(`Sealed SHA-256 ${r[16]} - Notary ${r[17]} - Booking ${r[18]}`);
    y -= 4;
  }
  if (meta.checkpoint) {
    y -= 6;
    line(checkpointText(meta.checkpoint), bold, 8);
    // The checkpoint string, in lines a reader can copy (journal:verify ignores the breaks).
    for (let i = 0; i < meta.checkpoint.encoded.length; i += 150) line(meta.checkpoint.encoded.slice(i, i + 150), font, 7);
  }
  return Buffer.from(await pdf.save());
}
