import { inflateSync } from 'node:zlib';
import { PDFArray, PDFContext, PDFCrossRefStream, PDFDict, PDFName, PDFNumber, PDFObjectParser, PDFRawStream, PDFRef, PDFStream, type PDFDocument, type PDFObject } from 'pdf-lib';

/**
 * Incremental updates (ISO 32000-1 §7.5.6): what changed in a loaded
 * document, written after a file's own bytes with a cross-reference section
 * of the kind the file already ends with. The seal of a customer's PDF is one
 * (decision 139), its validation data and document timestamp two more
 * (decision 060).
 */

type CrossReferenceKind = 'table' | 'stream';

/** A cross-reference section as the file holds it: its kind and trailer (an xref stream's dictionary), its entries still unread. */
type Section = { kind: 'table'; trailer: PDFDict; table: string } | { kind: 'stream'; trailer: PDFDict; stream: PDFRawStream };

export type Entry = { type: 'free' } | { type: 'offset'; offset: number; generation: number } | { type: 'compressed'; stream: number };

const name = (key: string) => PDFName.of(key);

/** The last `startxref` of a file, looked for in its last KB: some writers leave blank lines or bytes after %%EOF. */
function lastStartxref(file: Buffer): number | null {
  const tail = file.toString('latin1', Math.max(0, file.length - 1024));
  const found = [...tail.matchAll(/startxref\s+(\d+)\s+%%EOF/g)].at(-1);
  const offset = Number(found?.[1]);
  return found && Number.isSafeInteger(offset) && offset < file.length ? offset : null;
}

/** The cross-reference section at `offset`: an `xref` table and its trailer, or an `N G obj` stream of /Type /XRef. Anything else is null. */
function sectionAt(file: Buffer, offset: number, context: PDFContext): Section | null {
  try {
    const head = file.toString('latin1', offset, offset + 40);
    if (head.startsWith('xref')) {
      const trailerAt = file.indexOf('trailer', offset, 'latin1');
      if (trailerAt === -1) return null;
      const trailer = PDFObjectParser.forBytes(file.subarray(trailerAt + 'trailer'.length), context).parseObject();
      return trailer instanceof PDFDict ? { kind: 'table', trailer, table: file.toString('latin1', offset + 4, trailerAt) } : null;
    }
    const header = /^(\d+)\s+(\d+)\s+obj\b/.exec(head);
    if (!header) return null;
    const stream = PDFObjectParser.forBytes(file.subarray(offset + header[0].length), context).parseObject();
    if (!(stream instanceof PDFRawStream) || stream.dict.get(name('Type')) !== name('XRef')) return null;
    return { kind: 'stream', trailer: stream.dict, stream };
  } catch {
    return null;
  }
}

/** A section's entries by object number, or null when they cannot be read as written. */
function entriesOf(section: Section): Map<number, Entry> | null {
  const entries = new Map<number, Entry>();
  if (section.kind === 'table') {
    const tokens = section.table.match(/\d+|[nf]/g) ?? [];
    for (let at = 0; at < tokens.length; ) {
      const first = Number(tokens[at]);
      const count = Number(tokens[at + 1]);
      if (!Number.isSafeInteger(first) || !Number.isSafeInteger(count)) return null;
      at += 2;
      for (let index = 0; index < count; index++, at += 3) {
        const [offset, generation, type] = [tokens[at], tokens[at + 1], tokens[at + 2]];
        if (type !== 'n' && type !== 'f') return null;
        entries.set(first + index, type === 'f' ? { type: 'free' } : { type: 'offset', offset: Number(offset), generation: Number(generation) });
      }
    }
    return entries;
  }
  const { dict, contents } = section.stream;
  const widths = dict.lookup(name('W'), PDFArray).asArray().map((width) => (width as PDFNumber).asNumber());
  const size = dict.lookup(name('Size'), PDFNumber).asNumber();
  const index = dict.lookupMaybe(name('Index'), PDFArray)?.asArray().map((value) => (value as PDFNumber).asNumber()) ?? [0, size];
  const columns = widths.reduce((sum, width) => sum + width, 0);
  // Inflated no further than its /Size of rows (each with a predictor byte) could take, 32 MB at most: a stream that inflates past it is a bomb, not a table.
  const rows = unpredicted(section.stream, filtered(dict, contents, Math.min(32 * 1024 * 1024, (size + 1) * (columns + 1))), columns);
  if (!rows || widths.length !== 3) return null;
  const read = (at: number, width: number) => {
    let value = 0;
    for (let byte = 0; byte < width; byte++) value = value * 256 + rows[at + byte]!;
    return value;
  };
  let at = 0;
  for (let subsection = 0; subsection < index.length; subsection += 2) {
    for (let number = index[subsection]!; number < index[subsection]! + index[subsection + 1]!; number++) {
      if (at + widths[0]! + widths[1]! + widths[2]! > rows.length) return null;
      const type = widths[0] === 0 ? 1 : read(at, widths[0]!);
      const second = read(at + widths[0]!, widths[1]!);
      const third = read(at + widths[0]! + widths[1]!, widths[2]!);
      at += widths[0]! + widths[1]! + widths[2]!;
      if (type === 0) entries.set(number, { type: 'free' });
      else if (type === 1) entries.set(number, { type: 'offset', offset: second, generation: third });
      else if (type === 2) entries.set(number, { type: 'compressed', stream: second });
      else return null;
    }
  }
  return entries;
}

/** An xref stream's data without its filter: none or Flate (the only ones writers use for it). */
function filtered(dict: PDFDict, contents: Uint8Array, maxOutputLength: number): Buffer | null {
  const filter = dict.get(name('Filter'));
  if (filter === undefined) return Buffer.from(contents.buffer, contents.byteOffset, contents.byteLength);
  const only = filter instanceof PDFArray && filter.size() === 1 ? filter.get(0) : filter;
  return only === name('FlateDecode') ? inflateSync(contents, { maxOutputLength }) : null;
}

/** Rows without their PNG predictor (the /Predictor 12 most writers use): only None and Up are read, anything else is doubt. */
function unpredicted(stream: PDFRawStream, data: Buffer | null, columns: number): Buffer | null {
  if (!data) return null;
  const parameters = stream.dict.lookupMaybe(name('DecodeParms'), PDFDict);
  const predictor = parameters?.lookupMaybe(name('Predictor'), PDFNumber)?.asNumber() ?? 1;
  if (predictor === 1) return data;
  if (predictor < 10 || (parameters?.lookupMaybe(name('Columns'), PDFNumber)?.asNumber() ?? 1) !== columns) return null;
  if (!Number.isInteger(data.length / (columns + 1))) return null;
  const rows = Buffer.alloc((data.length / (columns + 1)) * columns);
  for (let row = 0; row * (columns + 1) < data.length; row++) {
    const filter = data[row * (columns + 1)];
    for (let column = 0; column < columns; column++) {
      const value = data[row * (columns + 1) + 1 + column]!;
      const above = row > 0 ? rows[(row - 1) * columns + column]! : 0;
      if (filter === 0) rows[row * columns + column] = value;
      else if (filter === 2) rows[row * columns + column] = (value + above) & 0xff;
      else return null;
    }
  }
  return rows;
}

const sameObject = (a: PDFObject | undefined, b: PDFObject | undefined) => a === b || (a !== undefined && b !== undefined && a.toString() === b.toString());

/** A file's cross-reference data, read from its last `startxref` back through each /Prev. */
export interface CrossReferences {
  startxref: number;
  kind: CrossReferenceKind;
  /** The newest trailer (an xref stream's dictionary). */
  trailer: PDFDict;
  /** Its /Size: object numbers below it may be in use (an object stream or xref stream pdf-lib does not keep, too). */
  size: number;
  /** The newest entry of each object number, each checked: it points at that object's `N G obj` or into an object stream that does. */
  entries: Map<number, Entry>;
  /** Whether an object is in use in more than one section: its earlier version is still in the bytes. */
  superseded: boolean;
}

/**
 * The cross-reference data a reader of `file` follows, or null when it
 * cannot be followed exactly: the last `startxref` (in the last KB) points
 * at an `xref` table or an xref stream, and so does each /Prev (at most 64;
 * no hybrid /XRefStm), and every entry in use points where it says.
 */
export function readCrossReferences(file: Buffer): CrossReferences | null {
  const startxref = lastStartxref(file);
  if (startxref === null) return null;
  const context = PDFContext.create();
  const entries = new Map<number, Entry>();
  const visited = new Set<number>();
  let superseded = false;
  let newest: Section | undefined;
  for (let at: number | undefined = startxref; at !== undefined; ) {
    if (visited.has(at) || visited.size === 64) return null;
    visited.add(at);
    const section = sectionAt(file, at, context);
    if (!section || section.trailer.has(name('XRefStm'))) return null;
    newest ??= section;
    let own: Map<number, Entry> | null;
    try {
      own = entriesOf(section);
    } catch {
      // A missing /W, a stream that does not inflate: doubt like any other.
      return null;
    }
    if (!own) return null;
    for (const [number, entry] of own) {
      const later = entries.get(number);
      if (!later) entries.set(number, entry);
      else if (later.type !== 'free' && entry.type !== 'free') superseded = true;
    }
    const prev = section.trailer.get(name('Prev'));
    at = prev instanceof PDFNumber ? prev.asNumber() : undefined;
  }
  const size = newest!.trailer.get(name('Size'));
  if (!(size instanceof PDFNumber)) return null;
  for (const [number, entry] of entries) {
    if (number >= size.asNumber()) return null;
    if (entry.type === 'offset') {
      const header = /^(\d+)\s+(\d+)\s+obj\b/.exec(file.toString('latin1', entry.offset, entry.offset + 32));
      if (!header || Number(header[1]) !== number || Number(header[2]) !== entry.generation) return null;
    } else if (entry.type === 'compressed' && entries.get(entry.stream)?.type !== 'offset') return null;
  }
  return { startxref, kind: newest!.kind, trailer: newest!.trailer, size: size.asNumber(), entries, superseded };
}

/**
 * The customer's file as something the seal can be appended to, checked
 * against what pdf-lib loaded from it — or null at any doubt, and the seal
 * then rewrites the whole file (decision 139). pdf-lib reads a file from
 * start to end and never its cross-reference data, so a reader of the
 * extended file, which follows that data, must find the same objects:
 * - the cross-reference data can be followed exactly (`readCrossReferences`);
 * - no object is in use in two sections: its earlier version, which pdf-lib
 *   never showed `stripActiveContent`, would stay in the bytes;
 * - every object pdf-lib loaded has an entry, of its generation;
 * - the newest trailer names the catalog, info and ID pdf-lib kept.
 */
export function baseRevision(file: Buffer, pdf: PDFDocument): CrossReferences | null {
  const references = readCrossReferences(file);
  if (!references || references.superseded) return null;
  for (const [ref] of pdf.context.enumerateIndirectObjects()) {
    const entry = references.entries.get(ref.objectNumber);
    if (!entry || entry.type === 'free') return null;
    if ((entry.type === 'offset' ? entry.generation : 0) !== ref.generationNumber) return null;
  }
  const kept = pdf.context.trailerInfo;
  for (const key of ['Root', 'Info', 'ID'] as const) if (!sameObject(references.trailer.get(name(key)), kept[key])) return null;
  return references;
}

// ---- What changed -----------------------------------------------------------------------------

/**
 * Every indirect object of a document as loaded: the object itself and its
 * bytes — for a stream, its dictionary's bytes and its contents' identity
 * (a scan's megabytes are never serialised to be compared).
 */
export type Snapshot = Map<PDFRef, { object: PDFObject; bytes: Buffer; contents?: Uint8Array }>;

const ownBytes = (object: PDFObject): Buffer => bytesOfObject(object instanceof PDFStream ? object.dict : object);

export function snapshot(pdf: PDFDocument): Snapshot {
  const taken: Snapshot = new Map();
  for (const [ref, object] of pdf.context.enumerateIndirectObjects()) {
    taken.set(ref, { object, bytes: ownBytes(object), contents: object instanceof PDFRawStream ? object.contents : undefined });
  }
  return taken;
}

/** The objects new since `before` or changed since (a stream pdf-lib made, not read, counts as changed). */
export function changedSince(pdf: PDFDocument, before: Snapshot): PDFRef[] {
  const changed: PDFRef[] = [];
  for (const [ref, object] of pdf.context.enumerateIndirectObjects()) {
    const was = before.get(ref);
    const same =
      was?.object === object &&
      (!(object instanceof PDFStream) || (object instanceof PDFRawStream && object.contents === was.contents)) &&
      ownBytes(object).equals(was.bytes);
    if (!same) changed.push(ref);
  }
  return changed;
}

// ---- Writing -------------------------------------------------------------------------------------

/** An object's bytes as pdf-lib writes it. */
export function bytesOfObject(object: PDFObject): Buffer {
  const bytes = Buffer.alloc(object.sizeInBytes());
  object.copyBytesInto(bytes, 0);
  return bytes;
}

/**
 * Appends `refs` (as they now are in `pdf`'s context) after `file` as an
 * incremental update: the objects, a cross-reference section for them of the
 * kind the file's last one is (a table and trailer, or an xref stream), with
 * /Prev pointing back at it. Earlier bytes are untouched, so earlier
 * signatures stay valid and the file stays a prefix of the result.
 */
export function appendIncrementalUpdate(pdf: PDFDocument, file: Buffer, refs: PDFRef[]): Buffer {
  const previous = lastStartxref(file);
  const kind = previous === null ? null : sectionAt(file, previous, PDFContext.create())?.kind;
  if (previous === null || !kind) throw new Error('no cross-reference section at the end of the file');
  const { context } = pdf;
  const parts: Buffer[] = [file, Buffer.from('\n')];
  let offset = file.length + 1;
  const offsets = new Map<PDFRef, number>();
  const write = (ref: PDFRef, object: PDFObject) => {
    const body = Buffer.concat([Buffer.from(`${ref.objectNumber} ${ref.generationNumber} obj\n`), bytesOfObject(object), Buffer.from('\nendobj\n')]);
    offsets.set(ref, offset);
    parts.push(body);
    offset += body.length;
  };
  for (const ref of [...refs].sort((a, b) => a.objectNumber - b.objectNumber)) {
    const object = context.lookup(ref);
    if (object) write(ref, object);
  }
  const info = context.trailerInfo;
  const trailer = (dict: PDFDict) => {
    dict.set(name('Size'), PDFNumber.of(context.largestObjectNumber + 1));
    dict.set(name('Root'), info.Root as PDFRef);
    if (info.Info) dict.set(name('Info'), info.Info);
    if (info.ID) dict.set(name('ID'), info.ID);
    dict.set(name('Prev'), PDFNumber.of(previous));
    return dict;
  };
  const startxref = offset;
  if (kind === 'table') {
    let xref = 'xref\n';
    for (const [ref, at] of offsets) xref += `${ref.objectNumber} 1\n${String(at).padStart(10, '0')} ${String(ref.generationNumber).padStart(5, '0')} n \n`;
    parts.push(Buffer.from(`${xref}trailer\n`), bytesOfObject(trailer(PDFDict.withContext(context))));
  } else {
    // The xref stream is an object too: its number is taken before /Size is written, and it lists itself.
    const ref = context.nextRef();
    const stream = PDFCrossRefStream.of(trailer(PDFDict.withContext(context)), [], true);
    for (const [object, at] of [...offsets, [ref, startxref] as const]) stream.addUncompressedEntry(object, at);
    write(ref, stream);
  }
  parts.push(Buffer.from(`\nstartxref\n${startxref}\n%%EOF\n`));
  return Buffer.concat(parts);
}
