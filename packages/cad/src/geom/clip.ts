/** Clipping an infinite line or a ray to an axis-aligned box (XLINE and RAY have no ends of their own). */

export interface Box2 {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/**
 * The parameter span [t0, t1] of the line p + t·d (t >= 0 for a ray) inside box `b`, in x and y;
 * null when it misses the box or touches it in one point. `d` need not be a unit vector.
 */
export function clipSpan(p: readonly [number, number], d: readonly [number, number], ray: boolean, b: Box2): [number, number] | null {
  let t0 = ray ? 0 : -Infinity,
    t1 = Infinity;
  const clip = (pp: number, dd: number, lo: number, hi: number): boolean => {
    if (Math.abs(dd) < 1e-15) return pp >= lo && pp <= hi;
    let a = (lo - pp) / dd,
      c = (hi - pp) / dd;
    if (a > c) [a, c] = [c, a];
    t0 = Math.max(t0, a);
    t1 = Math.min(t1, c);
    return t0 <= t1;
  };
  if (!clip(p[0], d[0], b.minX, b.maxX) || !clip(p[1], d[1], b.minY, b.maxY)) return null;
  if (!Number.isFinite(t0) || !Number.isFinite(t1) || t1 - t0 <= 0) return null;
  return [t0, t1];
}

/** The part of the infinite line (or ray) through `p` along `d` inside box `b`: x0, y0, x1, y1. */
export function clipLine(p: [number, number], d: [number, number], ray: boolean, b: Box2): number[] | null {
  const span = clipSpan(p, d, ray, b);
  if (!span) return null;
  const [t0, t1] = span;
  return [p[0] + d[0] * t0, p[1] + d[1] * t0, p[0] + d[0] * t1, p[1] + d[1] * t1];
}
