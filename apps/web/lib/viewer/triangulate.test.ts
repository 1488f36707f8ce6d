import { describe, expect, it } from 'vitest';
import { triangulateRings } from './triangulate';

/** Total area of the triangles (indices into x, y pairs). */
function areaOf(coords: number[], tri: Uint32Array): number {
  let sum = 0;
  for (let i = 0; i < tri.length; i += 3) {
    const [a, b, c] = [tri[i] as number, tri[i + 1] as number, tri[i + 2] as number];
    const ax = coords[2 * a] as number,
      ay = coords[2 * a + 1] as number;
    const bx = coords[2 * b] as number,
      by = coords[2 * b + 1] as number;
    const cx = coords[2 * c] as number,
      cy = coords[2 * c + 1] as number;
    sum += Math.abs((bx - ax) * (cy - ay) - (cx - ax) * (by - ay)) / 2;
  }
  return sum;
}

const square = (x: number, y: number, s: number) => [x, y, x + s, y, x + s, y + s, x, y + s];

describe('triangulateRings', () => {
  it('fills a square with two triangles covering its area', () => {
    const coords = square(10, 10, 4);
    const tri = triangulateRings(coords, [0]);
    expect(tri.length).toBe(6);
    expect(areaOf(coords, tri)).toBeCloseTo(16, 9);
  });

  it('leaves a hole empty and fills an island inside the hole again (even-odd)', () => {
    const coords = [...square(0, 0, 10), ...square(2, 2, 6), ...square(4, 4, 2)];
    const tri = triangulateRings(coords, [0, 4, 8], 'evenodd');
    // 100 - 36 + 4
    expect(areaOf(coords, tri)).toBeCloseTo(68, 9);
  });

  it('treats separate areas of one fill as separate areas', () => {
    const coords = [...square(0, 0, 1), ...square(5, 5, 2)];
    expect(areaOf(coords, triangulateRings(coords, [0, 4]))).toBeCloseTo(5, 9);
  });

  it('fills each ring of a wide polyline on its own under the non-zero rule (overlaps painted twice)', () => {
    const coords = [...square(0, 0, 2), ...square(1, 0, 2)];
    expect(areaOf(coords, triangulateRings(coords, [0, 4], 'nonzero'))).toBeCloseTo(8, 9);
  });

  it('skips rings of fewer than three points and returns nothing for no area', () => {
    expect(triangulateRings([0, 0, 1, 1], [0]).length).toBe(0);
    expect(triangulateRings([], []).length).toBe(0);
  });
});
