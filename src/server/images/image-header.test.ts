import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { jpegHeader, pngBomb, pngZipBomb } from '../../../tests/helpers/images.ts';
import { imageSize, jpegSize, pngDataFits, pngSize } from './image-header.ts';

const fixtures = new URL('../../../tests/fixtures/', import.meta.url);

describe('image sizes from the header alone', () => {
  it('reads the real fixtures', async () => {
    const png = readFileSync(new URL('sample.png', fixtures));
    const jpg = readFileSync(new URL('sample.jpg', fixtures));
    expect(pngSize(png)).toMatchObject({ width: expect.any(Number), height: expect.any(Number) });
    expect(jpegSize(jpg)).toMatchObject({ width: expect.any(Number), height: expect.any(Number) });
    expect(await pngDataFits(png)).toBe(true);
  });

  it('sees a 17 KB decompression bomb for the 12000 × 12000 image it is, without decoding it', async () => {
    const bomb = pngBomb(12_000, 12_000);
    expect(bomb.length).toBeLessThan(40_000);
    expect(imageSize(bomb, 'image/png')).toEqual({ width: 12_000, height: 12_000 });
    expect(imageSize(jpegHeader(9_000, 7_000), 'image/jpeg')).toEqual({ width: 9_000, height: 7_000 });
  });

  it('refuses a small header over data that inflates past what the header allows', async () => {
    expect(await pngDataFits(pngZipBomb())).toBe(false);
  });

  it('answers null for what is not an image header', () => {
    expect(imageSize(Buffer.from('%PDF-1.4'), 'image/png')).toBeNull();
    expect(jpegSize(Buffer.from([0xff, 0xd8, 0xff, 0xda, 0, 2]))).toBeNull();
    expect(pngSize(Buffer.alloc(10))).toBeNull();
  });
});
