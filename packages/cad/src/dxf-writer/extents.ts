/** The drawing's extents as the writers need them: for the header, the chord tolerance and clipping construction lines. */
import type { Box2 } from '../geom/clip';
import type { Vec3 } from '../geom/vector';
import { entityKeyPoints } from '../key-points';
import type { Drawing, Entity } from '../model';

/** The box of the entities' key points (their defining points), null when there are none. */
export function keyPointBox(entities: Iterable<Entity>): Box2 | null {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (const e of entities)
    for (const [x, y] of entityKeyPoints(e)) {
      if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
      minX = Math.min(minX, x);
      minY = Math.min(minY, y);
      maxX = Math.max(maxX, x);
      maxY = Math.max(maxY, y);
    }
  return maxX >= minX ? { minX, minY, maxX, maxY } : null;
}

/**
 * Header extents when the source has them, else the box of the model's key points (entities for
 * which `counts` is false left out: construction lines have no extents of their own).
 */
export function extentsOf(d: Drawing, counts?: (e: Entity) => boolean): [Vec3, Vec3] {
  const h = d.header;
  if (h.extMin && h.extMax) return [h.extMin, h.extMax];
  const b = keyPointBox(counts ? d.modelSpace.filter(counts) : d.modelSpace);
  if (!b)
    return [
      [0, 0, 0],
      [0, 0, 0],
    ];
  return [
    [b.minX, b.minY, 0],
    [b.maxX, b.maxY, 0],
  ];
}

/** Curves become polylines within 1e-4 of the drawing's diagonal (at least 1e-6). */
export function chordTolerance(d: Drawing): number {
  const [a, b] = extentsOf(d);
  const diag = Math.hypot(b[0] - a[0], b[1] - a[1]);
  return Math.max(diag * 1e-4, 1e-6);
}
