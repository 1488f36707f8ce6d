import { describe, expect, it } from 'vitest';
import { compareInk, type RgbaImage } from './ink-compare';

/** A white image with black rectangles (x0, y0, x1, y1, inclusive). */
function picture(width: number, height: number, rects: [number, number, number, number][]): RgbaImage {
  const data = new Uint8Array(width * height * 4).fill(255);
  for (const [x0, y0, x1, y1] of rects)
    for (let y = y0; y <= y1; y++)
      for (let x = x0; x <= x1; x++) {
        const i = (y * width + x) * 4;
        data[i] = data[i + 1] = data[i + 2] = 0;
      }
  return { width, height, data };
}

describe('compareInk', () => {
  // A cross on the left and a small mark far to the right; the copy has lost the mark.
  const cross: [number, number, number, number][] = [
    [20, 49, 100, 50],
    [59, 10, 60, 90],
  ];
  const mark: [number, number, number, number] = [185, 40, 189, 44];
  const original = picture(200, 100, [...cross, mark]);
  const lostMark = picture(200, 100, cross);
  // 162 + 162 - 4 cross pixels, 25 in the mark.
  const crossInk = 320;

  it('uncropped: a render of the same view that lost a mark scores only the ink it lost', () => {
    const score = compareInk(lostMark, original, { crop: false, tolerance: 2 });
    expect(score?.precision).toBe(1);
    expect(score?.recall).toBeCloseTo(crossInk / (crossInk + 25), 6);
    expect(score?.f1).toBeGreaterThan(0.96);
  });

  it('cropped (the default): losing the far mark stretches the rest over the width, so the score collapses', () => {
    const cropped = compareInk(lostMark, original, { width: 200, tolerance: 2 });
    expect(cropped?.f1).toBeLessThan(0.5);
  });

  it('uncropped: identical renders score 1, renders of different widths are refused, a blank one gives null', () => {
    expect(compareInk(original, picture(200, 100, [...cross, mark]), { crop: false })?.f1).toBe(1);
    expect(() => compareInk(original, picture(210, 100, cross), { crop: false })).toThrow(/same width/);
    expect(compareInk(original, picture(200, 100, []), { crop: false })).toBeNull();
  });

  it('a given background: a render mostly covered by a solid fill keeps the white paper as its background', () => {
    // 70% of one picture is a black fill, so its most common colour is black; the copy kept half the fill.
    const filled = picture(100, 100, [[0, 0, 69, 99]]);
    const half = picture(100, 100, [[0, 0, 34, 99]]);
    // Each taken on its own most common colour, the fill's paper becomes its ink: the two look unrelated.
    expect(compareInk(half, filled, { crop: false, tolerance: 0 })?.f1).toBe(0);
    const score = compareInk(half, filled, { crop: false, tolerance: 0, background: [255, 255, 255] });
    expect(score?.precision).toBe(1);
    expect(score?.recall).toBeCloseTo(0.5, 6);
  });
});
