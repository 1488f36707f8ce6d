import { insideClip } from './clips';
import { LINE_FLOATS, WIDE_FLOATS, type Bucket, type PackedList } from './types';
import { apply, invert, type Affine } from './view';

// Object snap for the measure tool: the end or middle point of a drawn segment near the pointer,
// so a measured distance is the drawing's own number rather than where a finger landed.

export interface SnapHit {
  /** Scene coordinates of the snapped point. */
  x: number;
  y: number;
  kind: 'end' | 'mid';
  /** Distance from the asked point, scene units. */
  distance: number;
}

/**
 * The nearest end (preferred) or middle point of a visible segment within `tolerance` (scene units)
 * of (x, y). `toScene` maps the list into the scene (identity for model space, a viewport's matrix
 * for a layout's viewport); `hiddenStyle[i]` is 1 for styles not shown.
 */
export function snapInList(
  list: PackedList,
  toScene: Affine,
  hiddenStyle: Uint8Array,
  x: number,
  y: number,
  tolerance: number,
): SnapHit | null {
  const inv = invert(toScene);
  if (!inv) return null;
  const [lx, ly] = apply(inv, x, y);
  // Tolerance in list units: divide by the matrix's scale.
  const scale = Math.sqrt(Math.abs(toScene[0] * toScene[3] - toScene[1] * toScene[2])) || 1;
  const tol = tolerance / scale;
  let best: SnapHit | null = null;
  let bestScore = Infinity;
  // The buckets outside every clip, then each XCLIPped part's, whose points count only where they show.
  const parts: [Bucket, number][] = [
    ...list.buckets.map((b): [Bucket, number] => [b, -1]),
    ...list.clips.flatMap((c, i) => c.buckets.map((b): [Bucket, number] => [b, i])),
  ];
  for (const [b, clip] of parts) {
    if (lx < b.bounds.minX - tol || lx > b.bounds.maxX + tol || ly < b.bounds.minY - tol || ly > b.bounds.maxY + tol) continue;
    const qx = lx - b.origin[0],
      qy = ly - b.origin[1];
    const test = (px: number, py: number, kind: 'end' | 'mid', penalty: number) => {
      const dx = px - qx,
        dy = py - qy;
      if (dx > tol || dx < -tol || dy > tol || dy < -tol) return;
      const d = Math.hypot(dx, dy);
      if (d > tol || d * penalty >= bestScore) return;
      if (clip >= 0 && !insideClip(list, clip, px + b.origin[0], py + b.origin[1])) return;
      bestScore = d * penalty;
      const [sx, sy] = apply(toScene, px + b.origin[0], py + b.origin[1]);
      best = { x: sx, y: sy, kind, distance: d * scale };
    };
    // End points win over middle points at the same distance (they are what people aim at).
    const consider = (x0: number, y0: number, x1: number, y1: number) => {
      test(x0, y0, 'end', 1);
      test(x1, y1, 'end', 1);
      test((x0 + x1) / 2, (y0 + y1) / 2, 'mid', 1.5);
    };
    const lines = b.lines;
    for (let o = 0; o < lines.length; o += 2 * LINE_FLOATS) {
      if (hiddenStyle[lines[o + 3] as number]) continue;
      consider(lines[o] as number, lines[o + 1] as number, lines[o + LINE_FLOATS] as number, lines[o + LINE_FLOATS + 1] as number);
    }
    const wide = b.wide;
    for (let o = 0; o < wide.length; o += 6 * WIDE_FLOATS) {
      if (hiddenStyle[wide[o + 7] as number]) continue;
      consider(wide[o] as number, wide[o + 1] as number, wide[o + 2] as number, wide[o + 3] as number);
    }
  }
  return best;
}
