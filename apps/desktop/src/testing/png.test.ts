import { crc32, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodePng, pixelAt, rgbOf, shareOfColour } from './png';

function chunk(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length, 0);
  head.write(type, 4, 'latin1');
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])), 0);
  return Buffer.concat([head, body, tail]);
}

/** A PNG whose rows use the given filter bytes over already-filtered row data. */
function png(width: number, height: number, channels: 3 | 4, filteredRows: number[][]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = channels === 4 ? 6 : 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from(filteredRows.flat()))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('decodePng', () => {
  it('undoes every row filter', () => {
    // 2×5 RGB: row 0 unfiltered, then Sub, Up, Average and Paeth rows.
    const image = decodePng(
      png(2, 5, 3, [
        [0, 10, 20, 30, 40, 50, 60],
        [1, 5, 5, 5, 1, 1, 1],
        [2, 1, 2, 3, 4, 5, 6],
        [3, 10, 10, 10, 10, 10, 10],
        [4, 0, 0, 0, 1, 1, 1],
      ]),
    );
    expect(image).toMatchObject({ width: 2, height: 5 });
    expect(pixelAt(image, 1, 0)).toEqual([40, 50, 60, 255]);
    expect(pixelAt(image, 1, 1)).toEqual([6, 6, 6, 255]);
    expect(pixelAt(image, 0, 2)).toEqual([6, 7, 8, 255]);
    // Average: first pixel (0 + up) / 2 + 10; second (left + up) / 2 + 10.
    expect(pixelAt(image, 0, 3)).toEqual([13, 13, 14, 255]);
    expect(pixelAt(image, 1, 3)).toEqual([21, 22, 23, 255]);
    // Paeth picks up for the first pixel (no left), then the nearest of left, up and up-left.
    expect(pixelAt(image, 0, 4)).toEqual([13, 13, 14, 255]);
    expect(pixelAt(image, 1, 4)).toEqual([22, 23, 24, 255]);
  });

  it('reads RGBA and measures a colour over a rectangle', () => {
    const image = decodePng(png(2, 1, 4, [[0, 27, 32, 48, 255, 255, 255, 255, 128]]));
    expect(pixelAt(image, 1, 0)).toEqual([255, 255, 255, 128]);
    expect(shareOfColour(image, { x: 0, y: 0, width: 2, height: 1 }, rgbOf('#1b2030'))).toBe(0.5);
  });

  it('refuses what is not a PNG it can read', () => {
    expect(() => decodePng(Buffer.from('GIF89a'))).toThrow(/not a PNG/);
    const header = png(1, 1, 3, [[0, 1, 2, 3]]);
    header[24] = 16;
    expect(() => decodePng(header)).toThrow(/unsupported PNG/);
  });
});
