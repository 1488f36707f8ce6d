/**
 * XCLIP boundaries (SPATIAL_FILTER objects) in block coordinates, shared by the DXF and DWG
 * readers. A filter stores its boundary as drawn (in the coordinates of the clip, usually the WCS
 * of the moment the clip was made) and the inverse of the block reference's transform at that
 * moment: boundary → block coordinates. The clip then moves with the reference.
 */
import type { BlockClip } from '../model';

/** The identity as a 3×4 row-major matrix. */
export const IDENTITY_3X4: readonly number[] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0];

/**
 * The clip of a block reference: `points` (2 = opposite corners of a rectangle in the boundary's
 * plane, else a polygon), `inverse` the 3×4 row-major inverse insert matrix, `inverted` for an
 * inverted clip (then `points` is the hole). Undefined when the boundary is unusable.
 */
export function blockClip(points: [number, number][], inverse: readonly number[], inverted: boolean): BlockClip | undefined {
  let pts = points;
  if (pts.length === 2) {
    const [[x0, y0], [x1, y1]] = pts as [[number, number], [number, number]];
    pts = [
      [x0, y0],
      [x1, y0],
      [x1, y1],
      [x0, y1],
    ];
  }
  if (pts.length < 3 || inverse.length < 12) return undefined;
  const [a, b, , c, d, e, , f] = inverse as [number, number, number, number, number, number, number, number];
  const boundary = pts.map(([x, y]): [number, number] => [a * x + b * y + c, d * x + e * y + f]);
  if (!boundary.every(([x, y]) => Number.isFinite(x) && Number.isFinite(y))) return undefined;
  return { boundary, inverted };
}
