import { deflateSync } from 'node:zlib';

/**
 * Hostile images for the decode limits (issue 24, finding 1), made in memory:
 * a PNG declaring `width × height` pixels whose data is all zeros (1-bit grey,
 * so 12000 × 12000 is ~18 MB raw and ~17 KB deflated, and a decoder expanding
 * it to RGBA needs 576 MB), and a small PNG whose data inflates far beyond
 * what its header allows.
 */
const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

export function png(width: number, height: number, idat: Buffer, { bitDepth = 1, colorType = 0 } = {}): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = bitDepth;
  ihdr[9] = colorType;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

/** A decompression bomb: a valid PNG of `width × height` zero pixels. */
export function pngBomb(width: number, height: number): Buffer {
  const row = Math.ceil(width / 8) + 1;
  return png(width, height, deflateSync(Buffer.alloc(row * height), { level: 9 }));
}

/** A 100 × 100 PNG header over data that inflates to `inflatedBytes`. */
export function pngZipBomb(inflatedBytes = 64 * 1024 * 1024): Buffer {
  return png(100, 100, deflateSync(Buffer.alloc(inflatedBytes), { level: 9 }), { bitDepth: 8, colorType: 6 });
}

/** A baseline JPEG's markers only (SOI, APP0, SOF0 with the size, EOI): enough for a header reader. */
export function jpegHeader(width: number, height: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]);
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x0b, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x01, 0x01, 0x11, 0x00]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])]);
}
