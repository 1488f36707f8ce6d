/**
 * Spline curves as point lists: NURBS by de Boor's algorithm, and fit-point curves (centripetal
 * Catmull-Rom) for splines stored without control points.
 */
import type { Vec3 } from './vector';

/** A clamped uniform knot vector for `n` control points of `degree`. */
function clampedKnots(n: number, degree: number): number[] {
  const k: number[] = [];
  for (let i = 0; i <= degree; i++) k.push(0);
  for (let i = 1; i < n - degree; i++) k.push(i);
  for (let i = 0; i <= degree; i++) k.push(Math.max(1, n - degree));
  return k;
}

/** Evaluates a (rational) B-spline at parameter t by de Boor's algorithm. */
export function deBoor(t: number, degree: number, knots: number[], ctrl: Vec3[], weights: number[] | null): Vec3 {
  const n = ctrl.length;
  let s = degree;
  while (s < n - 1 && t >= (knots[s + 1] as number)) s++;
  const d: [number, number, number, number][] = [];
  for (let j = 0; j <= degree; j++) {
    const p = ctrl[j + s - degree] as Vec3;
    const w = weights ? (weights[j + s - degree] ?? 1) : 1;
    d.push([p[0] * w, p[1] * w, p[2] * w, w]);
  }
  for (let r = 1; r <= degree; r++) {
    for (let j = degree; j >= r; j--) {
      const i = j + s - degree;
      const k0 = knots[i] as number,
        k1 = knots[i + degree - r + 1] as number;
      const a = k1 === k0 ? 0 : (t - k0) / (k1 - k0);
      const dj = d[j] as [number, number, number, number],
        dp = d[j - 1] as [number, number, number, number];
      for (let c = 0; c < 4; c++) dj[c] = (1 - a) * (dp[c] as number) + a * (dj[c] as number);
    }
  }
  const r = d[degree] as [number, number, number, number];
  const w = r[3] || 1;
  return [r[0] / w, r[1] / w, r[2] / w];
}

/** Points of a NURBS curve as x, y, z triples. */
export function splinePoints(degree: number, knots: number[], ctrl: Vec3[], weights: number[] | null, segmentsPerSpan: number): number[] {
  const n = ctrl.length;
  if (n < 2) return [];
  const p = Math.max(1, Math.min(degree, n - 1));
  let k = knots;
  if (k.length !== n + p + 1 || k.some((v, i) => i > 0 && v < (k[i - 1] as number))) k = clampedKnots(n, p);
  const t0 = k[p] as number,
    t1 = k[n] as number;
  if (!(t1 > t0)) return ctrl.flatMap((c) => c);
  const out: number[] = [];
  // Sample each non-empty knot span.
  for (let s = p; s < n; s++) {
    const a = k[s] as number,
      b = k[s + 1] as number;
    if (!(b > a)) continue;
    const segs = p === 1 ? 1 : segmentsPerSpan;
    for (let i = out.length ? 1 : 0; i <= segs; i++) {
      const t = i === segs ? b - (s === n - 1 ? 0 : 1e-12 * (b - a)) : a + ((b - a) * i) / segs;
      out.push(...deBoor(Math.min(t, t1), p, k, ctrl, weights));
    }
  }
  return out;
}

/** A curve through fit points (centripetal Catmull-Rom), for splines stored without control points. */
export function fitPointCurve(fit: Vec3[], segmentsPerSpan: number, closed: boolean): number[] {
  const n = fit.length;
  if (n < 3) return fit.flatMap((p) => p);
  const pts = closed ? [fit[n - 1] as Vec3, ...fit, fit[0] as Vec3, fit[1] as Vec3] : [fit[0] as Vec3, ...fit, fit[n - 1] as Vec3];
  const out: number[] = [];
  const spans = closed ? n : n - 1;
  for (let i = 0; i < spans; i++) {
    const p0 = pts[i] as Vec3,
      p1 = pts[i + 1] as Vec3,
      p2 = pts[i + 2] as Vec3,
      p3 = pts[i + 3] as Vec3;
    const d = (a: Vec3, b: Vec3): number => Math.max(Math.sqrt(Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2])), 1e-12);
    const t01 = d(p0, p1),
      t12 = d(p1, p2),
      t23 = d(p2, p3);
    for (let j = i === 0 ? 0 : 1; j <= segmentsPerSpan; j++) {
      const u = j / segmentsPerSpan;
      const point: number[] = [];
      for (let c = 0; c < 3; c++) {
        const m1 =
          (p2[c] as number) -
          (p1[c] as number) +
          t12 * (((p1[c] as number) - (p0[c] as number)) / t01 - ((p2[c] as number) - (p0[c] as number)) / (t01 + t12));
        const m2 =
          (p2[c] as number) -
          (p1[c] as number) +
          t12 * (((p3[c] as number) - (p2[c] as number)) / t23 - ((p3[c] as number) - (p1[c] as number)) / (t12 + t23));
        const a = 2 * (p1[c] as number) - 2 * (p2[c] as number) + m1 + m2;
        const b = -3 * (p1[c] as number) + 3 * (p2[c] as number) - 2 * m1 - m2;
        point.push(a * u * u * u + b * u * u + m1 * u + (p1[c] as number));
      }
      out.push(...point);
    }
  }
  return out;
}
