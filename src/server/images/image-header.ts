import { promisify } from 'node:util';
import { inflate } from 'node:zlib';

const inflateAsync = promisify(inflate);

/**
 * An image's size from its header alone, before anything decodes it: a 17 KB
 * PNG can declare 12000 × 12000 pixels and need 576 MB once decoded (issue 24,
 * finding 1). Only the formats we accept (PNG, JPEG); anything else, or a
 * header that does not parse, is null.
 */
export interface ImageSize {
  width: number;
  height: number;
}

/** A document page image: at most 50 megapixels (a 600 dpi letter scan is ~34 MP). */
export const maxDocumentImagePixels = 50_000_000;
/** An adopted signature (the pad draws 600 × 180, a typed one at most 1200 × 110). */
export const maxSignatureSize: ImageSize = { width: 2000, height: 600 };

const pngMagic = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function pngSize(bytes: Buffer): ImageSize | null {
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(pngMagic) || bytes.toString('latin1', 12, 16) !== 'IHDR') return null;
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  return width > 0 && height > 0 ? { width, height } : null;
}

/** Start-of-frame markers carry the size: C0–CF except C4 (DHT), C8 (JPG) and CC (DAC). */
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

export function jpegSize(bytes: Buffer): ImageSize | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    // Fill bytes, then markers without a length (RSTn, TEM).
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null;
    const length = bytes.readUInt16BE(at + 2);
    if (length < 2) return null;
    if (isStartOfFrame(marker)) {
      if (at + 9 > bytes.length) return null;
      const height = bytes.readUInt16BE(at + 5);
      const width = bytes.readUInt16BE(at + 7);
      return width > 0 && height > 0 ? { width, height } : null;
    }
    at += 2 + length;
  }
  return null;
}

export function imageSize(bytes: Buffer, contentType: string): ImageSize | null {
  if (contentType === 'image/png') return pngSize(bytes);
  if (contentType === 'image/jpeg') return jpegSize(bytes);
  return null;
}

/**
 * A PNG whose compressed data inflates to more than its declared size needs
 * (a small IHDR over a zlib bomb) is not an image we decode: inflating with
 * `maxOutputLength` set to the size the header allows stops it in native code.
 */
export async function pngDataFits(bytes: Buffer): Promise<boolean> {
  const size = pngSize(bytes);
  if (!size) return false;
  const bitDepth = bytes[24]!;
  const channels = ({ 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 } as Record<number, number>)[bytes[25]!];
  if (!channels) return false;
  const interlaced = bytes[28] === 1;
  const rowBytes = Math.ceil((size.width * channels * bitDepth) / 8) + 1;
  // Adam7 adds at most a filter byte per row of each of the seven passes.
  const expected = rowBytes * size.height + (interlaced ? 7 * size.height + 7 * 8 : 0);
  const data: Buffer[] = [];
  let at = 8;
  while (at + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    if (at + 12 + length > bytes.length) return false;
    if (type === 'IDAT') data.push(bytes.subarray(at + 8, at + 8 + length));
    if (type === 'IEND') break;
    at += 12 + length;
  }
  if (data.length === 0) return false;
  try {
    // On libuv's pool, not the calling thread.
    await inflateAsync(Buffer.concat(data), { maxOutputLength: expected + 1024 });
    return true;
  } catch {
    return false;
  }
}
