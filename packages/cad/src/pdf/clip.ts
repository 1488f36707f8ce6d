/**
 * Clipping for the PDF replay: what a PDF viewer does not show (outside the page, outside a clip
 * path, outside a form's bounding box) is not converted either. Clip regions are kept as convex
 * polygons in page millimetres: a convex clip path (the axes rectangle of a plot, a viewport, a
 * form's box) exactly, any other by its bounding box, which never hides what the viewer shows.
 * Strokes are cut where they leave the region (a cut Bezier stays a Bezier, split at the crossing),
 * fills are cut to the region, text is kept when its baseline starts or ends inside it.
 * Pure geometry: no pdf.js import.
 */
import type { Pt, Segment, Subpath } from './path';

/** A convex polygon, counter-clockwise, no repeated closing vertex. */
export type ConvexPolygon = Pt[];

/** Points nearer than this to the region's edge count as inside, mm. */
const EPS = 1e-6;

const cross = (o: Pt, a: Pt, b: Pt): number => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
const lerp = (a: Pt, b: Pt, t: number): Pt => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];

/** The points of a subpath with each Bezier replaced by `n` points along it (for the region's shape only). */
function roughPoints(sp: Subpath): Pt[] {
  const pts: Pt[] = [sp.start];
  let pen = sp.start;
  for (const s of sp.segments) {
    if (s.kind === 'curve') for (let i = 1; i < 8; i++) pts.push(bezierAt(pen, s.c1, s.c2, s.to, i / 8));
    pts.push(s.to);
    pen = s.to;
  }
  return pts;
}

/** The axis-aligned box of some points as a polygon, or null when there are none. */
function boxPolygon(pts: Pt[]): ConvexPolygon | null {
  if (!pts.length) return null;
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity;
  for (const [x, y] of pts) {
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  return [
    [x0, y0],
    [x1, y0],
    [x1, y1],
    [x0, y1],
  ];
}

/** Drops repeated points (and a closing copy of the first). */
function dedupe(pts: Pt[]): Pt[] {
  const out: Pt[] = [];
  for (const p of pts) {
    const q = out[out.length - 1];
    if (!q || Math.abs(q[0] - p[0]) > EPS || Math.abs(q[1] - p[1]) > EPS) out.push(p);
  }
  const a = out[0],
    z = out[out.length - 1];
  if (out.length > 1 && a && z && Math.abs(a[0] - z[0]) <= EPS && Math.abs(a[1] - z[1]) <= EPS) out.pop();
  return out;
}

/** Sine of the turn at `p` (prev -> p -> next), 0 for a straight or degenerate corner. */
function turnSine(prev: Pt, p: Pt, next: Pt): number {
  const l = Math.hypot(p[0] - prev[0], p[1] - prev[1]) * Math.hypot(next[0] - p[0], next[1] - p[1]);
  return l > 0 ? cross(prev, p, next) / l : 0;
}

/** A convex polygon counter-clockwise, or null when the points do not make one (collinear points are dropped). */
function asConvex(points: Pt[]): ConvexPolygon | null {
  let pts = dedupe(points);
  if (pts.length < 3) return null;
  let area = 0;
  for (let i = 0; i < pts.length; i++) area += cross([0, 0], pts[i] as Pt, pts[(i + 1) % pts.length] as Pt);
  if (Math.abs(area) < 1e-12) return null;
  if (area < 0) pts = pts.reverse();
  const out: Pt[] = [];
  for (let i = 0; i < pts.length; i++) {
    const turn = turnSine(pts[(i + pts.length - 1) % pts.length] as Pt, pts[i] as Pt, pts[(i + 1) % pts.length] as Pt);
    if (turn < -1e-9) return null;
    if (turn > 1e-9) out.push(pts[i] as Pt);
  }
  return out.length >= 3 ? out : null;
}

/** The convex hull of some points, counter-clockwise (monotone chain); fewer than 3 points when they are collinear. */
function convexHull(points: Pt[]): ConvexPolygon {
  const pts = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (pts.length < 3) return pts;
  const half = (list: Pt[]): Pt[] => {
    const h: Pt[] = [];
    for (const p of list) {
      while (h.length >= 2 && cross(h[h.length - 2] as Pt, h[h.length - 1] as Pt, p) <= 0) h.pop();
      h.push(p);
    }
    h.pop();
    return h;
  };
  return [...half(pts), ...half([...pts].reverse())];
}

/**
 * The region a clip path (W or W*) sets: the polygon itself when the path is one straight-sided
 * convex subpath, else the box around all of it.
 */
export function clipRegionOf(subpaths: Subpath[]): ConvexPolygon | null {
  const parts = subpaths.filter((s) => s.segments.length > 0);
  if (!parts.length) return null;
  if (parts.length === 1 && parts[0]?.segments.every((s) => s.kind === 'line')) {
    const sp = parts[0];
    const exact = asConvex([sp.start, ...sp.segments.map((s) => s.to)]);
    if (exact) return exact;
  }
  return boxPolygon(parts.flatMap(roughPoints));
}

/** `subject` cut to the convex `clip` (Sutherland-Hodgman); the result may be empty. */
function clipPolygon(subject: Pt[], clip: ConvexPolygon): Pt[] {
  let out = subject;
  for (let i = 0; i < clip.length && out.length; i++) {
    const a = clip[i] as Pt,
      b = clip[(i + 1) % clip.length] as Pt;
    const input = out;
    out = [];
    for (let j = 0; j < input.length; j++) {
      const p = input[j] as Pt,
        q = input[(j + 1) % input.length] as Pt;
      const dp = cross(a, b, p),
        dq = cross(a, b, q);
      if (dp >= 0) out.push(p);
      if (dp >= 0 !== dq >= 0) out.push(lerp(p, q, dp / (dp - dq)));
    }
  }
  return out;
}

/**
 * The intersection of two convex regions (an empty polygon when they do not meet). It is convex:
 * its hull only smooths the rounding of the cut points.
 */
export function intersectRegions(a: ConvexPolygon, b: ConvexPolygon): ConvexPolygon {
  const hull = convexHull(clipPolygon(a, b));
  return hull.length >= 3 ? hull : [];
}

/** Signed distance-like measure: positive inside the region, negative outside (the worst edge decides). */
function insideness(p: Pt, clip: ConvexPolygon): number {
  let worst = Infinity;
  for (let i = 0; i < clip.length; i++) {
    const a = clip[i] as Pt,
      b = clip[(i + 1) % clip.length] as Pt;
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
    const d = cross(a, b, p) / len;
    if (d < worst) worst = d;
  }
  return worst;
}

export const isInside = (p: Pt, clip: ConvexPolygon): boolean => clip.length >= 3 && insideness(p, clip) >= -EPS;

/** True when every point is outside one and the same edge of the region (so their hull is outside). */
function allOutsideOneEdge(pts: Pt[], clip: ConvexPolygon): boolean {
  for (let i = 0; i < clip.length; i++) {
    const a = clip[i] as Pt,
      b = clip[(i + 1) % clip.length] as Pt;
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
    if (pts.every((p) => cross(a, b, p) / len < -EPS)) return true;
  }
  return false;
}

export function bezierAt(p0: Pt, c1: Pt, c2: Pt, p3: Pt, t: number): Pt {
  const u = 1 - t;
  const a = u * u * u,
    b = 3 * u * u * t,
    c = 3 * u * t * t,
    d = t * t * t;
  return [a * p0[0] + b * c1[0] + c * c2[0] + d * p3[0], a * p0[1] + b * c1[1] + c * c2[1] + d * p3[1]];
}

/** The part of a cubic Bezier between t0 and t1, as a Bezier (de Casteljau, twice). */
function bezierPart(p0: Pt, c1: Pt, c2: Pt, p3: Pt, t0: number, t1: number): [Pt, Pt, Pt, Pt] {
  const split = (a: Pt, b: Pt, c: Pt, d: Pt, t: number): { left: [Pt, Pt, Pt, Pt]; right: [Pt, Pt, Pt, Pt] } => {
    const ab = lerp(a, b, t),
      bc = lerp(b, c, t),
      cd = lerp(c, d, t);
    const abc = lerp(ab, bc, t),
      bcd = lerp(bc, cd, t);
    const m = lerp(abc, bcd, t);
    return { left: [a, ab, abc, m], right: [m, bcd, cd, d] };
  };
  let cur: [Pt, Pt, Pt, Pt] = [p0, c1, c2, p3];
  if (t1 < 1) cur = split(...cur, t1).left;
  if (t0 > 0) cur = split(...cur, t0 / t1).right;
  return cur;
}

/** The parameter intervals of a segment that lie inside the region. */
function insideIntervals(from: Pt, s: Segment, clip: ConvexPolygon): [number, number][] {
  if (s.kind === 'line') {
    // Cyrus-Beck: the line's parameter range inside every edge's half-plane.
    let t0 = 0,
      t1 = 1;
    const d: Pt = [s.to[0] - from[0], s.to[1] - from[1]];
    for (let i = 0; i < clip.length; i++) {
      const a = clip[i] as Pt,
        b = clip[(i + 1) % clip.length] as Pt;
      const len = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
      const f0 = cross(a, b, from) / len;
      const df = ((b[0] - a[0]) * d[1] - (b[1] - a[1]) * d[0]) / len;
      if (Math.abs(df) < 1e-15) {
        // Parallel to the edge: wholly inside its half-plane (on the edge counts) or wholly out.
        if (f0 < -EPS) return [];
        continue;
      }
      const t = -f0 / df;
      if (df > 0) t0 = Math.max(t0, t);
      else t1 = Math.min(t1, t);
      if (t0 > t1) return [];
    }
    return t1 - t0 > 1e-12 ? [[t0, t1]] : [];
  }
  const ctrl = [from, s.c1, s.c2, s.to];
  if (ctrl.every((p) => isInside(p, clip))) return [[0, 1]];
  if (allOutsideOneEdge(ctrl, clip)) return [];
  // Sample, then find each crossing by bisection.
  const n = 64;
  const f = (t: number): number => insideness(bezierAt(from, s.c1, s.c2, s.to, t), clip) + EPS;
  const out: [number, number][] = [];
  let prevT = 0;
  let prevIn = f(0) >= 0;
  let start = prevIn ? 0 : -1;
  for (let i = 1; i <= n; i++) {
    const t = i / n;
    const isIn = f(t) >= 0;
    if (isIn !== prevIn) {
      let lo = prevT,
        hi = t;
      for (let k = 0; k < 40; k++) {
        const mid = (lo + hi) / 2;
        if (f(mid) >= 0 === prevIn) lo = mid;
        else hi = mid;
      }
      const crossing = (lo + hi) / 2;
      if (isIn) start = crossing;
      else {
        if (crossing - start > 1e-9) out.push([start, crossing]);
        start = -1;
      }
    }
    prevT = t;
    prevIn = isIn;
  }
  if (prevIn && start >= 0 && 1 - start > 1e-9) out.push([start, 1]);
  return out;
}

/**
 * Stroked subpaths cut to the region. `cut` says whether anything was removed. A closed subpath
 * cut open becomes open pieces (the piece through its start joined to the one before it).
 */
export function clipStroke(subpaths: Subpath[], clip: ConvexPolygon): { subpaths: Subpath[]; cut: boolean } {
  const out: Subpath[] = [];
  let cut = false;
  for (const sp of subpaths) {
    const segments = [...sp.segments];
    const last = segments.length ? (segments[segments.length - 1] as Segment).to : sp.start;
    if (sp.closed && (last[0] !== sp.start[0] || last[1] !== sp.start[1])) segments.push({ kind: 'line', to: sp.start });
    const pieces: Subpath[] = [];
    let current: Subpath | null = null;
    let whole = true;
    let pen = sp.start;
    for (const s of segments) {
      const intervals = insideIntervals(pen, s, clip);
      if (!(intervals.length === 1 && intervals[0]?.[0] === 0 && intervals[0]?.[1] === 1)) whole = false;
      for (const [t0, t1] of intervals) {
        let piece: Segment;
        let begin: Pt;
        if (s.kind === 'line') {
          begin = lerp(pen, s.to, t0);
          piece = { kind: 'line', to: t1 === 1 ? s.to : lerp(pen, s.to, t1) };
        } else {
          const [a, b, c, d] = bezierPart(pen, s.c1, s.c2, s.to, t0, t1);
          begin = a;
          piece = { kind: 'curve', c1: b, c2: c, to: t1 === 1 ? s.to : d };
        }
        if (!current || t0 > 0) {
          current = { start: t0 === 0 ? pen : begin, segments: [], closed: false };
          pieces.push(current);
        }
        current.segments.push(piece);
        if (t1 < 1) current = null;
      }
      if (!intervals.length) current = null;
      pen = s.to;
    }
    if (whole) {
      out.push(sp);
      continue;
    }
    cut = true;
    // The piece that ends where the closed subpath starts continues into the first piece.
    const first = pieces[0],
      tail = pieces[pieces.length - 1];
    if (sp.closed && pieces.length > 1 && first && tail && first.start === sp.start) {
      const end = (tail.segments[tail.segments.length - 1] as Segment).to;
      if (end[0] === sp.start[0] && end[1] === sp.start[1]) {
        tail.segments.push(...first.segments);
        pieces.shift();
      }
    }
    out.push(...pieces.filter((p) => p.segments.length > 0));
  }
  return { subpaths: out, cut };
}

/** Flattens a subpath for cutting (chord tolerance 0.05 mm, as the entities' flattening). */
function flatPoints(sp: Subpath): Pt[] {
  const pts: Pt[] = [sp.start];
  let pen = sp.start;
  for (const s of sp.segments) {
    if (s.kind === 'curve') {
      const m = Math.max(
        Math.hypot(pen[0] - 2 * s.c1[0] + s.c2[0], pen[1] - 2 * s.c1[1] + s.c2[1]),
        Math.hypot(s.c1[0] - 2 * s.c2[0] + s.to[0], s.c1[1] - 2 * s.c2[1] + s.to[1]),
      );
      const n = Math.max(1, Math.min(128, Math.ceil(Math.sqrt((0.75 * m) / 0.05))));
      for (let i = 1; i < n; i++) pts.push(bezierAt(pen, s.c1, s.c2, s.to, i / n));
    }
    pts.push(s.to);
    pen = s.to;
  }
  return pts;
}

/**
 * Filled subpaths cut to the region: a loop wholly inside is kept as it is (curves included), one
 * wholly outside is dropped, one across the edge becomes the flattened polygon of its inside part.
 */
export function clipFill(subpaths: Subpath[], clip: ConvexPolygon): { subpaths: Subpath[]; cut: boolean } {
  const out: Subpath[] = [];
  let cut = false;
  for (const sp of subpaths) {
    const hull = [sp.start, ...sp.segments.flatMap((s) => (s.kind === 'curve' ? [s.c1, s.c2, s.to] : [s.to]))];
    if (hull.every((p) => isInside(p, clip))) {
      out.push(sp);
      continue;
    }
    cut = true;
    if (allOutsideOneEdge(hull, clip)) continue;
    const pts = dedupe(clipPolygon(flatPoints(sp), clip));
    if (pts.length < 3) continue;
    const [start, ...rest] = pts as [Pt, ...Pt[]];
    out.push({ start, segments: rest.map((to) => ({ kind: 'line' as const, to })), closed: true });
  }
  return { subpaths: out, cut };
}
