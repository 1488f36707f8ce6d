import { crc32 as zlibCrc32, inflateSync } from 'node:zlib';
import { CAPTCHA_DEFAULTS } from '@xcad/protocol';
import { describe, expect, it } from 'vitest';
import {
  CAPTCHA_ALPHABET,
  GLYPH_MAX_LUMINANCE,
  glyphStrokes,
  normalizeCaptchaAnswer,
  planCaptcha,
  randomCaptchaText,
  renderCaptcha,
  type CaptchaOptions,
  type CaptchaPlan,
} from './captcha';

const DEFAULT_OPTIONS = { width: CAPTCHA_DEFAULTS.width, height: CAPTCHA_DEFAULTS.height, fontSize: CAPTCHA_DEFAULTS.fontSize };
// Darker than any glyph colour's anti-aliased core can miss, lighter than any curve or dot gets.
const DARK = GLYPH_MAX_LUMINANCE + 15;
const ROUNDING = 1e-9;

interface Chunk {
  type: string;
  data: Buffer;
  crc: number;
}

function chunksOf(png: Buffer): Chunk[] {
  const chunks: Chunk[] = [];
  for (let offset = 8; offset < png.length;) {
    const length = png.readUInt32BE(offset);
    chunks.push({
      type: png.toString('latin1', offset + 4, offset + 8),
      data: png.subarray(offset + 8, offset + 8 + length),
      crc: png.readUInt32BE(offset + 8 + length),
    });
    offset += 12 + length;
  }
  return chunks;
}

interface Decoded {
  width: number;
  height: number;
  /** BT.601 luma of pixel (x, y). */
  luma(x: number, y: number): number;
}

/** A decoder for what the renderer writes: 8-bit RGB, unfiltered rows. */
function decode(png: Buffer): Decoded {
  const chunks = chunksOf(png);
  const header = chunks[0]!.data;
  const width = header.readUInt32BE(0);
  const height = header.readUInt32BE(4);
  const raw = inflateSync(Buffer.concat(chunks.filter((chunk) => chunk.type === 'IDAT').map((chunk) => chunk.data)));
  const stride = 1 + 3 * width;
  for (let y = 0; y < height; y += 1) expect(raw[y * stride], `filter of row ${y}`).toBe(0);
  return {
    width,
    height,
    luma: (x, y) => {
      const at = y * stride + 1 + 3 * x;
      return 0.299 * raw[at]! + 0.587 * raw[at + 1]! + 0.114 * raw[at + 2]!;
    },
  };
}

type Point = readonly [number, number];

function distanceToSegment(px: number, py: number, [x1, y1]: Point, [x2, y2]: Point): number {
  const dx = x2 - x1;
  const dy = y2 - y1;
  const lengthSquared = dx * dx + dy * dy;
  const t = lengthSquared === 0 ? 0 : Math.min(1, Math.max(0, ((px - x1) * dx + (py - y1) * dy) / lengthSquared));
  return Math.hypot(px - x1 - t * dx, py - y1 - t * dy);
}

function strokeLength(plan: CaptchaPlan, glyphIndex: number): number {
  let length = 0;
  for (const stroke of plan.glyphs[glyphIndex]!.strokes) {
    for (let index = 1; index < stroke.length; index += 1) {
      length += Math.hypot(stroke[index]![0] - stroke[index - 1]![0], stroke[index]![1] - stroke[index - 1]![1]);
    }
  }
  return length;
}

/**
 * Reads the image back and checks each glyph against the plan: every dark pixel lies in exactly
 * one glyph's cell, on that glyph's own strokes, and every glyph has a fair share of ink.
 */
function expectGlyphsInTheirCells(text: string, options: CaptchaOptions & { seed: number }): void {
  const plan = planCaptcha(text, options);
  const image = decode(renderCaptcha(text, options));
  const reach = plan.strokeWidth / 2 + 0.5;
  const inkPerGlyph = plan.glyphs.map(() => 0);
  for (let y = 0; y < image.height; y += 1) {
    for (let x = 0; x < image.width; x += 1) {
      if (image.luma(x, y) >= DARK) continue;
      const [cx, cy] = [x + 0.5, y + 0.5];
      const owner = plan.glyphs.findIndex(({ box }) => cx >= box.left && cx <= box.right);
      expect(owner, `dark pixel (${x}, ${y}) of ${text} outside every cell`).toBeGreaterThanOrEqual(0);
      const glyph = plan.glyphs[owner]!;
      expect(cy, `dark pixel (${x}, ${y}) above its cell`).toBeGreaterThanOrEqual(glyph.box.top);
      expect(cy, `dark pixel (${x}, ${y}) below its cell`).toBeLessThanOrEqual(glyph.box.bottom);
      const nearest = Math.min(
        ...glyph.strokes.flatMap((stroke) => stroke.slice(1).map((point, index) => distanceToSegment(cx, cy, stroke[index]!, point))),
      );
      expect(nearest, `dark pixel (${x}, ${y}) off the strokes of ${glyph.character}`).toBeLessThan(reach);
      inkPerGlyph[owner]! += 1;
    }
  }
  for (const [index, ink] of inkPerGlyph.entries()) {
    // At least a quarter of the stroke area reads as dark: the anti-aliased edges of thin strokes
    // stay lighter than DARK, and curves and dots lighten some of the rest.
    expect(ink, `ink of ${text[index]} in ${text} at ${JSON.stringify(options)}`).toBeGreaterThanOrEqual(
      (strokeLength(plan, index) * plan.strokeWidth) / 4,
    );
  }
}

describe('renderCaptcha: the PNG', () => {
  it('is an 8-bit RGB PNG of the asked size whose chunks carry valid CRCs', () => {
    const png = renderCaptcha('T8A6', { width: 123, height: 45, fontSize: 16 });
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const chunks = chunksOf(png);
    expect(chunks[0]!.type).toBe('IHDR');
    expect(chunks.at(-1)!.type).toBe('IEND');
    expect(chunks.map((chunk) => chunk.type)).toContain('IDAT');
    const header = chunks[0]!.data;
    expect(header).toHaveLength(13);
    expect({ width: header.readUInt32BE(0), height: header.readUInt32BE(4), depth: header[8], colourType: header[9] }).toEqual({
      width: 123,
      height: 45,
      depth: 8,
      colourType: 2,
    });
    expect([header[10], header[11], header[12]]).toEqual([0, 0, 0]);
    for (const chunk of chunks) {
      expect(chunk.crc, `CRC of ${chunk.type}`).toBe(zlibCrc32(Buffer.concat([Buffer.from(chunk.type, 'latin1'), chunk.data])));
    }
    const raw = inflateSync(Buffer.concat(chunks.filter((chunk) => chunk.type === 'IDAT').map((chunk) => chunk.data)));
    expect(raw).toHaveLength(45 * (1 + 3 * 123));
  });

  it('ends with the standard IEND chunk (its CRC-32 is the one every PNG reader checks)', () => {
    const png = renderCaptcha('T8A6', { width: 123, height: 45, fontSize: 16 });
    expect([...png.subarray(-12)]).toEqual([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);
  });

  it('draws a light background with dark text', () => {
    const image = decode(renderCaptcha('HKNU', { ...DEFAULT_OPTIONS, seed: 7 }));
    const corners = [
      image.luma(0, 0),
      image.luma(image.width - 1, 0),
      image.luma(0, image.height - 1),
      image.luma(image.width - 1, image.height - 1),
    ];
    // A corner may hold a noise dot; most of them show the background.
    expect(corners.filter((luma) => luma > 200).length).toBeGreaterThanOrEqual(3);
    let dark = 0;
    for (let y = 0; y < image.height; y += 1) for (let x = 0; x < image.width; x += 1) if (image.luma(x, y) < DARK) dark += 1;
    expect(dark).toBeGreaterThan(100);
  });
});

describe('renderCaptcha: what it shows', () => {
  it('shows different pictures for different texts, even with the same random drawing', () => {
    const seed = 12345;
    const first = renderCaptcha('T8A6', { ...DEFAULT_OPTIONS, seed });
    expect(renderCaptcha('T8A6', { ...DEFAULT_OPTIONS, seed }).equals(first)).toBe(true);
    expect(renderCaptcha('T8A7', { ...DEFAULT_OPTIONS, seed }).equals(first)).toBe(false);
    expect(renderCaptcha('K8A6', { ...DEFAULT_OPTIONS, seed }).equals(first)).toBe(false);
  });

  it('draws each image differently when no seed is given', () => {
    const images = Array.from({ length: 5 }, () => renderCaptcha('T8A6', DEFAULT_OPTIONS).toString('base64'));
    expect(new Set(images).size).toBe(5);
  });

  it('renders every character of the alphabet as ink inside its own cell', () => {
    const characters = [...CAPTCHA_ALPHABET];
    for (let start = 0; start < characters.length; start += 4) {
      const text = characters
        .slice(start, start + 4)
        .join('')
        .padEnd(4, 'A');
      for (const seed of [1, 2, 3]) expectGlyphsInTheirCells(text, { ...DEFAULT_OPTIONS, seed: seed * 1000 + start });
    }
  });

  it('keeps texts of 4 to 6 characters inside the image at every size the API accepts', () => {
    for (const width of [60, 300]) {
      for (const height of [20, 120]) {
        for (const fontSize of [10, 48]) {
          for (const text of ['MWMW', 'W7KAM', 'MWMWMW', 'J2C5Y9']) {
            for (const seed of [11, 12]) {
              const options = { width, height, fontSize, seed };
              const boxes = planCaptcha(text, options).glyphs.map((glyph) => glyph.box);
              // A 2 px margin on every side; the text fills it exactly when it has to shrink.
              for (const [index, box] of boxes.entries()) {
                expect(box.left).toBeGreaterThanOrEqual(2 - ROUNDING);
                expect(box.right).toBeLessThanOrEqual(width - 2 + ROUNDING);
                expect(box.top).toBeGreaterThanOrEqual(2 - ROUNDING);
                expect(box.bottom).toBeLessThanOrEqual(height - 2 + ROUNDING);
                if (index > 0) expect(box.left).toBeGreaterThan(boxes[index - 1]!.right);
              }
              expectGlyphsInTheirCells(text, options);
            }
          }
        }
      }
    }
  });

  it('draws capitals about fontSize px tall when the image has room, smaller when it has not', () => {
    const inkHeights = (options: CaptchaOptions & { seed: number }): number[] => {
      const plan = planCaptcha('HAT7', options);
      return plan.glyphs.map(({ box }) => box.bottom - box.top - plan.strokeWidth - 1);
    };
    for (const fontSize of [10, 16, 40]) {
      // Rotated by up to 25° and scaled by 0.9 to 1.1, a 6-unit-tall glyph spans 0.81 to 1.31 of its cap height.
      for (const height of inkHeights({ width: 300, height: 120, fontSize, seed: fontSize })) {
        expect(height).toBeGreaterThanOrEqual(0.8 * fontSize);
        expect(height).toBeLessThanOrEqual(1.32 * fontSize);
      }
    }
    for (const height of inkHeights({ width: 60, height: 20, fontSize: 48, seed: 5 })) expect(height).toBeLessThan(16);
  });
});

describe('the captcha alphabet and text', () => {
  it('mixes digits and letters without characters people confuse', () => {
    for (const ambiguous of '0Oo1lIiQqDdZzSsBbGg') expect(CAPTCHA_ALPHABET).not.toContain(ambiguous);
    expect(CAPTCHA_ALPHABET).toMatch(/\d/);
    expect(CAPTCHA_ALPHABET).toMatch(/[A-Z]/);
    expect(CAPTCHA_ALPHABET).toMatch(/^[0-9A-Z]+$/);
    expect(new Set(CAPTCHA_ALPHABET).size).toBe(CAPTCHA_ALPHABET.length);
  });

  it('has a stroke glyph inside the 4 x 6 grid for every character', () => {
    for (const character of CAPTCHA_ALPHABET) {
      const points = glyphStrokes(character).flat();
      expect(points.length, character).toBeGreaterThanOrEqual(2);
      for (const [x, y] of points) {
        expect(x, character).toBeGreaterThanOrEqual(0);
        expect(x, character).toBeLessThanOrEqual(4);
        expect(y, character).toBeGreaterThanOrEqual(0);
        expect(y, character).toBeLessThanOrEqual(6);
      }
    }
    expect(() => glyphStrokes('O')).toThrow();
  });

  it('draws random texts of the asked length from the alphabet, every character about as often', () => {
    for (const length of [4, 5, 6]) expect(randomCaptchaText(length)).toMatch(new RegExp(`^[${CAPTCHA_ALPHABET}]{${length}}$`));
    const counts = new Map<string, number>();
    for (let draw = 0; draw < 1000; draw += 1)
      for (const character of randomCaptchaText(5)) counts.set(character, (counts.get(character) ?? 0) + 1);
    const expected = 5000 / CAPTCHA_ALPHABET.length;
    expect([...counts.keys()].sort().join('')).toBe([...CAPTCHA_ALPHABET].sort().join(''));
    // 200 expected per character, standard deviation about 14: 70 away is beyond 5 deviations.
    for (const count of counts.values()) expect(Math.abs(count - expected)).toBeLessThan(70);
  });

  it('reads answers case-insensitively and without surrounding spaces', () => {
    expect(normalizeCaptchaAnswer(' t8a6 ')).toBe('T8A6');
    expect(normalizeCaptchaAnswer('T8A6')).toBe('T8A6');
  });
});
