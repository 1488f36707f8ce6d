import earcut from 'earcut';

/**
 * Triangles for a fill of the display list (a hatch, a solid, a wide polyline, a wipeout): its
 * rings as `coords` (x, y pairs) split at `starts`, filled by the even-odd or the non-zero rule.
 *
 * Even-odd: each ring's nesting depth among the others decides whether it is an area (even) or a
 * hole of the ring just around it (odd), so islands inside holes are filled again, as in a hatch
 * with nested boundaries. Each area and its holes are cut into triangles by earcut.
 * Non-zero: the rings are the pieces of a wide polyline; each one is filled on its own (where they
 * overlap they paint the same colour twice, which looks the same).
 *
 * Returns indices of points (not numbers) into `coords`, three per triangle.
 */
export function triangulateRings(
  coords: ArrayLike<number>,
  starts: ArrayLike<number>,
  rule: 'evenodd' | 'nonzero' = 'evenodd',
): Uint32Array {
  const pointCount = coords.length >> 1;
  const rings: Ring[] = [];
  for (let k = 0; k < starts.length; k++) {
    const from = starts[k] as number;
    const to = k + 1 < starts.length ? (starts[k + 1] as number) : pointCount;
    if (to - from >= 3) rings.push(ringOf(coords, from, to));
  }
  if (rings.length === 0) return new Uint32Array(0);
  const out: number[] = [];
  if (rule === 'nonzero' || rings.length === 1) {
    for (const ring of rings) cut(coords, ring, [], out);
    return Uint32Array.from(out);
  }
  // Depth of each ring: how many of the others contain it.
  const depth = new Int32Array(rings.length);
  const parent = new Int32Array(rings.length).fill(-1);
  for (let i = 0; i < rings.length; i++) {
    const r = rings[i] as Ring;
    const px = coords[2 * r.from] as number,
      py = coords[2 * r.from + 1] as number;
    let bestArea = Infinity;
    for (let j = 0; j < rings.length; j++) {
      if (j === i) continue;
      const o = rings[j] as Ring;
      if (px < o.minX || px > o.maxX || py < o.minY || py > o.maxY) continue;
      if (!contains(coords, o, px, py)) continue;
      depth[i] = (depth[i] as number) + 1;
      if (o.area < bestArea) {
        bestArea = o.area;
        parent[i] = j;
      }
    }
  }
  const holes = new Map<number, Ring[]>();
  for (let i = 0; i < rings.length; i++) {
    if ((depth[i] as number) % 2 === 1 && (parent[i] as number) >= 0) {
      const p = parent[i] as number;
      const list = holes.get(p) ?? [];
      list.push(rings[i] as Ring);
      holes.set(p, list);
    }
  }
  for (let i = 0; i < rings.length; i++) {
    if ((depth[i] as number) % 2 === 0) cut(coords, rings[i] as Ring, holes.get(i) ?? [], out);
  }
  return Uint32Array.from(out);
}

interface Ring {
  from: number;
  to: number;
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  area: number;
}

function ringOf(coords: ArrayLike<number>, from: number, to: number): Ring {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity,
    twice = 0;
  for (let i = from; i < to; i++) {
    const x = coords[2 * i] as number,
      y = coords[2 * i + 1] as number;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
    const j = i + 1 < to ? i + 1 : from;
    twice += x * (coords[2 * j + 1] as number) - (coords[2 * j] as number) * y;
  }
  return { from, to, minX, minY, maxX, maxY, area: Math.abs(twice) / 2 };
}

/** Even-odd point-in-ring test (a ray towards +x). */
function contains(coords: ArrayLike<number>, ring: Ring, px: number, py: number): boolean {
  let inside = false;
  for (let i = ring.from, j = ring.to - 1; i < ring.to; j = i++) {
    const xi = coords[2 * i] as number,
      yi = coords[2 * i + 1] as number;
    const xj = coords[2 * j] as number,
      yj = coords[2 * j + 1] as number;
    if (yi > py !== yj > py && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Earcut of one area with its holes, relative to the area's corner (earcut works in doubles, but small numbers keep it exact). */
function cut(coords: ArrayLike<number>, outer: Ring, holes: Ring[], out: number[]): void {
  const rings = [outer, ...holes];
  let n = 0;
  for (const r of rings) n += r.to - r.from;
  const flat = new Float64Array(n * 2);
  const index = new Uint32Array(n);
  const holeStarts: number[] = [];
  let p = 0;
  for (const r of rings) {
    if (r !== outer) holeStarts.push(p);
    for (let i = r.from; i < r.to; i++) {
      flat[2 * p] = (coords[2 * i] as number) - outer.minX;
      flat[2 * p + 1] = (coords[2 * i + 1] as number) - outer.minY;
      index[p] = i;
      p++;
    }
  }
  const triangles = earcut(flat, holeStarts.length ? holeStarts : undefined, 2);
  for (const t of triangles) out.push(index[t] as number);
}
