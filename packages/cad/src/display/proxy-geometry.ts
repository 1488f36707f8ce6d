/** The planes and circles proxy graphics commands give by a normal or by three points. */
import { ocsToWcs } from '../geom/matrix';
import type { Vec3 } from '../geom/vector';

/** Unit normal (default +Z) and two in-plane axes; `x` follows `ref` when given and not parallel to the normal. */
export function planeAxes(normal: Vec3, ref?: Vec3): { x: Vec3; y: Vec3; n: Vec3 } {
  const l = Math.hypot(normal[0], normal[1], normal[2]);
  const n: Vec3 = l > 1e-12 ? [normal[0] / l, normal[1] / l, normal[2] / l] : [0, 0, 1];
  let x: Vec3 | null = null;
  if (ref) {
    const d = ref[0] * n[0] + ref[1] * n[1] + ref[2] * n[2];
    const p: Vec3 = [ref[0] - d * n[0], ref[1] - d * n[1], ref[2] - d * n[2]];
    const pl = Math.hypot(p[0], p[1], p[2]);
    if (pl > 1e-12) x = [p[0] / pl, p[1] / pl, p[2] / pl];
  }
  if (!x) {
    const m = ocsToWcs(n);
    x = [m[0] as number, m[4] as number, m[8] as number];
  }
  const y: Vec3 = [n[1] * x[2] - n[2] * x[1], n[2] * x[0] - n[0] * x[2], n[0] * x[1] - n[1] * x[0]];
  return { x, y, n };
}

/** Centre, radius and plane of the circle through three points; null when they are collinear. */
export function circleThrough(p1: Vec3, p2: Vec3, p3: Vec3): { c: Vec3; r: number; n: Vec3 } | null {
  const a: Vec3 = [p2[0] - p1[0], p2[1] - p1[1], p2[2] - p1[2]];
  const b: Vec3 = [p3[0] - p1[0], p3[1] - p1[1], p3[2] - p1[2]];
  const n: Vec3 = [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const nn = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
  const aa = a[0] * a[0] + a[1] * a[1] + a[2] * a[2];
  const bb = b[0] * b[0] + b[1] * b[1] + b[2] * b[2];
  if (!(nn > 1e-18 * aa * bb) || !Number.isFinite(nn)) return null;
  // c - p1 = (|a|² (b × n) + |b|² (n × a)) / (2 |n|²)
  const bxn: Vec3 = [b[1] * n[2] - b[2] * n[1], b[2] * n[0] - b[0] * n[2], b[0] * n[1] - b[1] * n[0]];
  const nxa: Vec3 = [n[1] * a[2] - n[2] * a[1], n[2] * a[0] - n[0] * a[2], n[0] * a[1] - n[1] * a[0]];
  const o: Vec3 = [(aa * bxn[0] + bb * nxa[0]) / (2 * nn), (aa * bxn[1] + bb * nxa[1]) / (2 * nn), (aa * bxn[2] + bb * nxa[2]) / (2 * nn)];
  return { c: [p1[0] + o[0], p1[1] + o[1], p1[2] + o[2]], r: Math.hypot(o[0], o[1], o[2]), n };
}

/** Whether all points of an x, y, z list coincide (nothing to see). */
export function degenerate(xyz: number[]): boolean {
  for (let i = 3; i < xyz.length; i++) if (xyz[i] !== xyz[i % 3]) return false;
  return true;
}
