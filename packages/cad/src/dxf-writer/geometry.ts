/**
 * Curves to polylines within a chord tolerance, and hatch areas to boundary rings, fill
 * trapezoids and pattern lines: what R12 gets instead of ELLIPSE, SPLINE and HATCH.
 */
import { isMetric } from '../geom/hatch-patterns';
import { lookupPattern, userPattern } from '../geom/hatch-patterns';
import { deBoor, fitPointCurve } from '../geom/spline';
import type { Drawing, EllipseEntity, HatchEdge, HatchEntity, SplineEntity } from '../model';
import type { Vec3 } from '../geom/vector';
import type { HatchPatternLine } from '../geom/hatch-patterns';
import { clipFamily, lineFamily } from '../geom/hatch-lines';

const TAU = Math.PI * 2;
const MAX_SEGMENTS = 20_000;

/** Segments for an arc of `sweep` radians on a circle of radius r so that the sagitta stays within tol. */
function arcSegments(r: number, sweep: number, tol: number): number {
  const s = Math.abs(sweep);
  if (!(r > tol) || !(tol > 0)) return Math.max(1, Math.ceil(s / (Math.PI / 2)));
  const step = 2 * Math.acos(1 - tol / r);
  return Math.max(1, Math.min(MAX_SEGMENTS, Math.ceil(s / step)));
}

/**
 * WCS points of an ellipse. The ellipse is the circle of its major radius squeezed along the minor
 * axis, which shrinks every chord's deviation: the circle's sagitta bound holds for it too.
 */
export function ellipsePoints(e: EllipseEntity, tol: number): Vec3[] {
  const [mx, my, mz] = e.majorAxis;
  const a = Math.hypot(mx, my, mz);
  const [nx, ny, nz] = e.extrusion;
  // Minor axis = normal × major, scaled by the ratio.
  let bx = ny * mz - nz * my,
    by = nz * mx - nx * mz,
    bz = nx * my - ny * mx;
  const bl = Math.hypot(bx, by, bz) || 1;
  bx = (bx / bl) * a * e.ratio;
  by = (by / bl) * a * e.ratio;
  bz = (bz / bl) * a * e.ratio;
  let t0 = e.startParam,
    t1 = e.endParam;
  const full = Math.abs(t1 - t0) >= TAU - 1e-9 || Math.abs(t1 - t0) < 1e-12;
  if (full) {
    t0 = 0;
    t1 = TAU;
  } else while (t1 <= t0) t1 += TAU;
  const n = arcSegments(a, t1 - t0, tol);
  const out: Vec3[] = [];
  const [cx, cy, cz] = e.center;
  for (let i = 0; i <= n; i++) {
    if (full && i === n) break;
    const t = t0 + ((t1 - t0) * i) / n;
    const c = Math.cos(t),
      s = Math.sin(t);
    out.push([cx + mx * c + bx * s, cy + my * c + by * s, cz + mz * c + bz * s]);
  }
  return out;
}

function clampedKnots(n: number, p: number): number[] {
  const k: number[] = [];
  for (let i = 0; i <= n + p; i++) k.push(i <= p ? 0 : i >= n ? n - p : i - p);
  return k;
}

const dist2Seg = (p: Vec3, a: Vec3, b: Vec3): number => {
  const dx = b[0] - a[0],
    dy = b[1] - a[1],
    dz = b[2] - a[2];
  const l2 = dx * dx + dy * dy + dz * dz;
  let t = l2 > 0 ? ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy + (p[2] - a[2]) * dz) / l2 : 0;
  t = Math.max(0, Math.min(1, t));
  return Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy, p[2] - a[2] - t * dz);
};

/**
 * WCS points of a spline: each knot span is split until the curve at three inner parameters
 * lies within `tol` of the chord. Splines with fit points only follow the reader's fit curve.
 */
export function splinePolyline(e: SplineEntity, tol: number): Vec3[] {
  const ctrl = e.controlPoints;
  if (ctrl.length < 2) {
    const pts = fitPointCurve(e.fitPoints, 32, e.closed);
    const out: Vec3[] = [];
    for (let i = 0; i + 2 < pts.length; i += 3) out.push([pts[i] as number, pts[i + 1] as number, pts[i + 2] as number]);
    return out;
  }
  const n = ctrl.length;
  const p = Math.max(1, Math.min(e.degree || 3, n - 1));
  let k = e.knots;
  if (k.length !== n + p + 1 || k.some((v, i) => i > 0 && v < (k[i - 1] as number))) k = clampedKnots(n, p);
  const w = e.rational && e.weights.length === n ? e.weights : null;
  const at = (t: number): Vec3 => deBoor(t, p, k, ctrl, w);
  const out: Vec3[] = [];
  let budget = MAX_SEGMENTS;
  const refine = (ta: number, pa: Vec3, tb: number, pb: Vec3, depth: number): void => {
    const flatEnough = [0.25, 0.5, 0.75].every((f) => dist2Seg(at(ta + (tb - ta) * f), pa, pb) <= tol);
    if ((flatEnough && depth >= 1) || depth > 18 || budget <= 0) {
      out.push(pb);
      budget--;
      return;
    }
    const tm = (ta + tb) / 2;
    const pm = at(tm);
    refine(ta, pa, tm, pm, depth + 1);
    refine(tm, pm, tb, pb, depth + 1);
  };
  const t0 = k[p] as number,
    tEnd = k[n] as number;
  out.push(at(t0));
  for (let s = p; s < n; s++) {
    const a = k[s] as number,
      b = k[s + 1] as number;
    if (!(b > a)) continue;
    // The last parameter of the span itself belongs to the next span's basis: stay just inside.
    const bEval = s === n - 1 ? tEnd : b - 1e-12 * (b - a);
    refine(a, at(a), b, at(bEval), 0);
  }
  return out;
}

// ---- hatches ----------------------------------------------------------------------------------

/** One hatch edge as OCS points (the start included). */
function edgePoints(ed: HatchEdge, tol: number): [number, number][] {
  if (ed.kind === 'line') return [ed.start, ed.end];
  if (ed.kind === 'arc') {
    const r = Math.abs(ed.radius);
    let sweep = (((ed.endAngle - ed.startAngle) % 360) + 360) % 360;
    if (sweep < 1e-9) sweep = 360;
    // Clockwise arcs store their angles mirrored (360 - angle): they run from -start to -end.
    const a0 = ((ed.ccw ? ed.startAngle : -ed.startAngle) * Math.PI) / 180;
    const sw = ((ed.ccw ? sweep : -sweep) * Math.PI) / 180;
    const n = arcSegments(r, sw, tol);
    const out: [number, number][] = [];
    for (let i = 0; i <= n; i++) {
      const t = a0 + (sw * i) / n;
      out.push([ed.center[0] + r * Math.cos(t), ed.center[1] + r * Math.sin(t)]);
    }
    return out;
  }
  if (ed.kind === 'ellipse') {
    const [mx, my] = ed.majorAxis;
    const major = Math.hypot(mx, my);
    const ratio = ed.ratio > 0 ? ed.ratio : 1;
    // Start/end are angles; the curve is parametrised by the eccentric anomaly.
    const param = (deg: number): number => Math.atan2(Math.sin((deg * Math.PI) / 180) / ratio, Math.cos((deg * Math.PI) / 180));
    const full = Math.abs(ed.endAngle - ed.startAngle) >= 360 - 1e-9 || ed.endAngle === ed.startAngle;
    const p0 = param(ed.startAngle);
    let sweep = full ? TAU : (((param(ed.endAngle) - p0) % TAU) + TAU) % TAU;
    if (!(sweep > 1e-12)) sweep = TAU;
    const t0 = ed.ccw ? p0 : -p0;
    const sw = ed.ccw ? sweep : -sweep;
    const n = arcSegments(major, sw, tol);
    const out: [number, number][] = [];
    for (let i = 0; i <= n; i++) {
      const t = t0 + (sw * i) / n;
      const c = Math.cos(t),
        s = Math.sin(t);
      out.push([ed.center[0] + c * mx - s * my * ratio, ed.center[1] + c * my + s * mx * ratio]);
    }
    return out;
  }
  const spline: SplineEntity = {
    type: 'SPLINE',
    layer: '0',
    color: {},
    linetype: '',
    ltscale: 1,
    lineweight: -1,
    visible: true,
    extrusion: [0, 0, 1],
    paperSpace: false,
    degree: ed.degree,
    flags: 0,
    closed: ed.periodic,
    periodic: ed.periodic,
    rational: ed.rational,
    knots: ed.knots,
    weights: ed.weights,
    controlPoints: ed.controlPoints.map(([x, y]) => [x, y, 0]),
    fitPoints: ed.fitPoints.map(([x, y]) => [x, y, 0]),
  };
  return splinePolyline(spline, tol).map(([x, y]) => [x, y]);
}

/** Bulged polyline path → points. */
function bulgePoints(vs: { x: number; y: number; bulge: number }[], closed: boolean, tol: number): [number, number][] {
  const out: [number, number][] = [];
  const n = vs.length;
  for (let i = 0; i < n; i++) {
    const a = vs[i] as { x: number; y: number; bulge: number };
    out.push([a.x, a.y]);
    if (!closed && i === n - 1) break;
    const b = vs[(i + 1) % n] as { x: number; y: number; bulge: number };
    if (!a.bulge) continue;
    const chord = Math.hypot(b.x - a.x, b.y - a.y);
    if (!chord) continue;
    const theta = 4 * Math.atan(a.bulge);
    const r = chord / (2 * Math.sin(Math.abs(theta) / 2));
    const mx = (a.x + b.x) / 2,
      my = (a.y + b.y) / 2;
    const h = r * Math.cos(theta / 2) * Math.sign(a.bulge);
    const cx = mx - ((b.y - a.y) / chord) * h,
      cy = my + ((b.x - a.x) / chord) * h;
    const sa = Math.atan2(a.y - cy, a.x - cx);
    const steps = arcSegments(r, theta, tol);
    for (let k = 1; k < steps; k++) {
      const t = sa + (theta * k) / steps;
      out.push([cx + r * Math.cos(t), cy + r * Math.sin(t)]);
    }
  }
  return out;
}

/** The hatch's boundary loops as closed OCS rings (bulges and curves flattened within tol). */
export function hatchRings(e: HatchEntity, tol: number): [number, number][][] {
  const rings: [number, number][][] = [];
  for (const path of e.paths) {
    let ring: [number, number][] = [];
    if (path.polyline) ring = bulgePoints(path.polyline.vertices, true, tol);
    else
      for (const ed of path.edges) {
        const pts = edgePoints(ed, tol);
        const last = ring[ring.length - 1];
        const first = pts[0];
        ring.push(...(last && first && Math.hypot(last[0] - first[0], last[1] - first[1]) <= tol ? pts.slice(1) : pts));
      }
    const a = ring[0],
      z = ring[ring.length - 1];
    if (ring.length > 1 && a && z && a[0] === z[0] && a[1] === z[1]) ring.pop();
    if (ring.length >= 3) rings.push(ring);
  }
  return rings;
}

/** A quadrilateral in SOLID order (1, 2, 4, 3 → the DXF's first, second, third, fourth corners). */
export type Quad = [[number, number], [number, number], [number, number], [number, number]];

/**
 * Even-odd fill of the rings as trapezoids: the plane is cut into horizontal strips at every
 * vertex height (and at `cuts`); inside one strip no edges cross, so the crossings paired left to right bound
 * exact trapezoids.
 */
export function fillTrapezoids(rings: [number, number][][], limit = 50_000, cuts: readonly number[] = []): Quad[] {
  const edges: [number, number, number, number][] = [];
  // Extra heights to cut at (bands of a gradient), besides every vertex height.
  const ys = new Set<number>(cuts);
  for (const r of rings)
    for (let i = 0; i < r.length; i++) {
      const a = r[i] as [number, number],
        b = r[(i + 1) % r.length] as [number, number];
      ys.add(a[1]);
      if (a[1] !== b[1]) edges.push(a[1] < b[1] ? [a[0], a[1], b[0], b[1]] : [b[0], b[1], a[0], a[1]]);
    }
  const levels = [...ys].sort((p, q) => p - q);
  const xAt = (ed: [number, number, number, number], y: number): number => ed[0] + ((y - ed[1]) * (ed[2] - ed[0])) / (ed[3] - ed[1]);
  const out: Quad[] = [];
  for (let i = 0; i + 1 < levels.length && out.length < limit; i++) {
    const y0 = levels[i] as number,
      y1 = levels[i + 1] as number;
    const ym = (y0 + y1) / 2;
    const cross = edges.filter((ed) => ed[1] <= ym && ed[3] > ym).sort((p, q) => xAt(p, ym) - xAt(q, ym));
    for (let k = 0; k + 1 < cross.length; k += 2) {
      const l = cross[k] as [number, number, number, number],
        r = cross[k + 1] as [number, number, number, number];
      out.push([
        [xAt(l, y0), y0],
        [xAt(r, y0), y0],
        [xAt(l, y1), y1],
        [xAt(r, y1), y1],
      ]);
    }
  }
  return out;
}

/** The pattern lines a hatch draws: its own, or the library's for its name. */
export function patternLines(e: HatchEntity, d: Drawing): HatchPatternLine[] {
  if (e.patternLines.length) return e.patternLines;
  const name = e.pattern.trim().toUpperCase();
  if (e.patternType === 0 || name === '_USER' || name === 'USER' || name === '')
    return userPattern(e.patternScale || 1, e.patternAngle, e.patternDouble);
  return lookupPattern(name, e.patternScale || 1, e.patternAngle, isMetric(d)) ?? [];
}

/** Pattern segments clipped to the rings (even-odd), at most `limit`. */
export function patternSegments(
  rings: [number, number][][],
  lines: HatchPatternLine[],
  limit: number,
): { segments: [number, number, number, number][]; truncated: boolean } {
  let n = 0;
  for (const r of rings) n += r.length;
  const edges = new Float64Array(n * 4);
  let q = 0;
  let minX = Infinity,
    maxX = -Infinity,
    minY = Infinity,
    maxY = -Infinity;
  for (const r of rings)
    for (let i = 0; i < r.length; i++) {
      const a = r[i] as [number, number],
        b = r[(i + 1) % r.length] as [number, number];
      edges[q++] = a[0];
      edges[q++] = a[1];
      edges[q++] = b[0];
      edges[q++] = b[1];
      minX = Math.min(minX, a[0]);
      maxX = Math.max(maxX, a[0]);
      minY = Math.min(minY, a[1]);
      maxY = Math.max(maxY, a[1]);
    }
  const size = Math.max(maxX - minX, maxY - minY);
  const segments: [number, number, number, number][] = [];
  let truncated = false;
  for (const l of lines) {
    const f = lineFamily(l, size * 1e-6);
    if (!f) continue;
    const room = limit - segments.length;
    if (room <= 0) {
      truncated = true;
      break;
    }
    const made = clipFamily(edges, f, size * 1e-4, (x0, y0, x1, y1) => segments.push([x0, y0, x1, y1]), room);
    if (made >= room) truncated = true;
  }
  return { segments, truncated };
}
