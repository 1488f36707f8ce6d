import { createCanvas, loadImage, type SKRSContext2D } from '@napi-rs/canvas';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Scene } from '../display/types';
import { renderScenes } from './index';
import { list, modelScene, stroke, STYLES } from './test-scenes';
import { encodeOpaquePng } from '../codec/png';

/** A canvas with what `paint` draws on white; its pixels read back as the encoder reads them. */
function canvasOf(width: number, height: number, paint: (g: SKRSContext2D) => void): { g: SKRSContext2D; pixels: Uint8ClampedArray } {
  const canvas = createCanvas(width, height);
  const g = canvas.getContext('2d');
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, width, height);
  paint(g);
  return { g, pixels: g.getImageData(0, 0, width, height).data };
}

const encode = (g: SKRSContext2D, width: number, height: number, grey = false): Promise<Buffer> =>
  encodeOpaquePng({ width, height, rows: (y, n) => g.getImageData(0, y, width, n).data }, { grey });

/** The PNG decoded by the canvas: RGBA. */
async function decode(png: Uint8Array): Promise<{ width: number; height: number; data: Uint8ClampedArray }> {
  const img = await loadImage(Buffer.from(png));
  const c = createCanvas(img.width, img.height);
  const g = c.getContext('2d');
  g.drawImage(img, 0, 0);
  return { width: img.width, height: img.height, data: g.getImageData(0, 0, img.width, img.height).data };
}

/** IHDR's colour type: 0 grey, 2 RGB. */
const colourType = (png: Uint8Array): number => png[25] as number;

/** Pixels that differ in red, green or blue. */
function differences(a: Uint8ClampedArray, b: Uint8ClampedArray): number {
  let n = 0;
  for (let i = 0; i < a.length; i += 4) if (a[i] !== b[i] || a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2]) n++;
  return n;
}

const colourful = (g: SKRSContext2D): void => {
  g.lineWidth = 3;
  g.strokeStyle = '#d02020';
  g.beginPath();
  g.moveTo(2, 3);
  g.lineTo(35, 20);
  g.stroke();
  g.fillStyle = '#2040c0';
  g.beginPath();
  g.arc(12, 14, 6, 0, 2 * Math.PI);
  g.fill();
};

describe('PNG encoder (opaque canvas → RGB or grey PNG)', () => {
  it('writes every pixel as the canvas has it, at a width that is not a multiple of 4', async () => {
    const { g, pixels } = canvasOf(37, 23, colourful);
    const png = await encode(g, 37, 23);
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(colourType(png)).toBe(2);
    const img = await decode(png);
    expect([img.width, img.height]).toEqual([37, 23]);
    expect(differences(img.data, pixels)).toBe(0);
    // The drawing is there: red and blue pixels.
    expect(img.data.some((v, i) => i % 4 === 0 && v > 180 && (img.data[i + 1] as number) < 90)).toBe(true);
    expect(img.data.some((v, i) => i % 4 === 2 && v > 150 && (img.data[i - 2] as number) < 90)).toBe(true);
  });

  it('a wide image goes through in several strips, rows in order', async () => {
    const w = 3001,
      h = 203;
    const { g, pixels } = canvasOf(w, h, (c) => {
      for (let y = 0; y < h; y += 10) {
        c.fillStyle = `rgb(${(y * 7) % 256}, ${(y * 13) % 256}, ${(y * 29) % 256})`;
        c.fillRect((y * 11) % (w - 50), y, 50, 5);
      }
    });
    const png = await encode(g, w, h);
    const img = await decode(png);
    expect(differences(img.data, pixels)).toBe(0);
  });

  it('a grey image is written as 8-bit grey when the caller expects grey, same pixels, smaller file', async () => {
    const paint = (c: SKRSContext2D): void => {
      c.strokeStyle = '#000000';
      c.lineWidth = 1.5;
      for (let i = 0; i < 12; i++) {
        c.beginPath();
        c.moveTo(0, i * 7);
        c.lineTo(121, 90 - i * 5);
        c.stroke();
      }
      c.fillStyle = '#808080';
      c.fillRect(60, 40, 25, 17);
    };
    const { g, pixels } = canvasOf(121, 90, paint);
    const grey = await encode(g, 121, 90, true);
    const rgb = await encode(g, 121, 90, false);
    expect(colourType(grey)).toBe(0);
    expect(colourType(rgb)).toBe(2);
    expect(differences((await decode(grey)).data, pixels)).toBe(0);
    // Antialiased edges are there (grey levels), not just black and white.
    const levels = new Set<number>();
    for (let i = 0; i < pixels.length; i += 4) levels.add(pixels[i] as number);
    expect(levels.size).toBeGreaterThan(10);
    expect(grey.length).toBeLessThan(rgb.length);
  });

  it('a pixel that is not grey after all: RGB, nothing lost', async () => {
    const { g, pixels } = canvasOf(64, 40, (c) => {
      c.fillStyle = '#000000';
      c.fillRect(3, 3, 20, 20);
      // One coloured pixel, in the last rows.
      c.fillStyle = '#ff0000';
      c.fillRect(50, 38, 1, 1);
    });
    const png = await encode(g, 64, 40, true);
    expect(colourType(png)).toBe(2);
    const img = await decode(png);
    expect(differences(img.data, pixels)).toBe(0);
    expect([...img.data.subarray((38 * 64 + 50) * 4, (38 * 64 + 50) * 4 + 3)]).toEqual([255, 0, 0]);
  });

  it('rows are unfiltered and deflated: the IDAT inflates to height × (1 + 3 × width) bytes', async () => {
    const { g } = canvasOf(10, 4, colourful);
    const png = await encode(g, 10, 4);
    const idat = png.indexOf('IDAT');
    const length = png.readUInt32BE(idat - 4);
    const raw = inflateSync(png.subarray(idat + 4, idat + 4 + length));
    expect(raw.length).toBe(4 * (1 + 3 * 10));
    for (let y = 0; y < 4; y++) expect(raw[y * 31]).toBe(0);
  });

  it('refuses a size that is no image', async () => {
    await expect(encodeOpaquePng({ width: 0, height: 5, rows: () => new Uint8Array(0) })).rejects.toThrow(/Invalid image size/);
  });
});

describe('the PNG back end chooses grey or RGB from the colours it drew', () => {
  const lines = (style: number): Scene => modelScene(list([stroke(style, [0, 0, 100, 50], [0, 50, 100, 0])], STYLES));

  it('foreground lines: a grey PNG; red lines: an RGB PNG showing red', async () => {
    const black = await renderScenes([lines(0)], { format: 'png', width: 200 });
    expect(colourType(black)).toBe(0);
    const dark = await decode(black);
    let ink = 0;
    for (let i = 0; i < dark.data.length; i += 4) if ((dark.data[i] as number) < 100) ink++;
    expect(ink).toBeGreaterThan(200);
    const red = await renderScenes([lines(1)], { format: 'png', width: 200 });
    expect(colourType(red)).toBe(2);
    const img = await decode(red);
    let reds = 0;
    for (let i = 0; i < img.data.length; i += 4) if ((img.data[i] as number) > (img.data[i + 1] as number) + 80) reds++;
    expect(reds).toBeGreaterThan(200);
  });

  it('a colour drawing in grey mode is a grey PNG', async () => {
    const png = await renderScenes([lines(1)], { format: 'png', width: 200, color: 'gray' });
    expect(colourType(png)).toBe(0);
  });
});
