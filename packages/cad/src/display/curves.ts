/**
 * The geometric entities: LINE, POINT, CIRCLE, ARC, ELLIPSE, LWPOLYLINE, POLYLINE (2D, 3D, polygon
 * mesh, polyface), SPLINE, SOLID, TRACE, 3DFACE, MLINE, MESH. Each is tessellated in its own coordinate system
 * and handed to the context, which transforms, dashes and records it.
 */
import type { Entity, EntityOf, EntityType, LwVertex } from '../model';
import type { DrawContext, EntityHandler } from './context';
import type { Mat } from '../geom/matrix';
import { fitPointCurve, splinePoints } from '../geom/spline';
import type { Vec3 } from '../geom/vector';

const TAU = Math.PI * 2;

/** The geometric types, each drawn by its handler. */
export const CURVES = {
  LINE: (e, ctx) => {
    ctx.stroke3(ctx.style(e), ctx.matrix, [...e.start, ...e.end], false, { dashes: ctx.dashes(e) });
  },
  POINT: drawPoint,
  CIRCLE: (e, ctx) => {
    const m = ctx.ocs(e, e.center[2]);
    ctx.stroke(ctx.style(e), m, arcPoints(e.center[0], e.center[1], e.radius, 0, TAU, ctx.arcSegments(e.radius, TAU, m)), false, {
      dashes: ctx.dashes(e),
    });
  },
  ARC: (e, ctx) => {
    const m = ctx.ocs(e, e.center[2]);
    const a0 = (e.startAngle * Math.PI) / 180;
    let sweep = (e.endAngle * Math.PI) / 180 - a0;
    sweep = ((sweep % TAU) + TAU) % TAU || TAU;
    ctx.stroke(ctx.style(e), m, arcPoints(e.center[0], e.center[1], e.radius, a0, sweep, ctx.arcSegments(e.radius, sweep, m)), false, {
      dashes: ctx.dashes(e),
    });
  },
  ELLIPSE: drawEllipse,
  LWPOLYLINE: drawLwPolyline,
  POLYLINE: drawPolyline,
  SPLINE: drawSpline,
  SOLID: drawSolid,
  TRACE: drawSolid,
  '3DFACE': (e, ctx) => {
    const style = ctx.style(e);
    const [p1, p2, p3, p4] = e.points;
    const pts = same(p3, p4) ? [p1, p2, p3] : [p1, p2, p3, p4];
    const hidden = e.invisibleEdges ?? 0;
    for (let i = 0; i < pts.length; i++) {
      if (hidden & (1 << i)) continue;
      const a = pts[i] as Vec3,
        b = pts[(i + 1) % pts.length] as Vec3;
      ctx.stroke3(style, ctx.matrix, [...a, ...b], false);
    }
  },
  MLINE: drawMLine,
  MESH: (e, ctx) => {
    const style = ctx.style(e);
    const v = e.vertices;
    const edges: [number, number][] = e.edges.length ? e.edges : [];
    if (!edges.length) {
      const seen = new Set<string>();
      for (const f of e.faces)
        for (let i = 0; i < f.length; i++) {
          const a = f[i] as number,
            b = f[(i + 1) % f.length] as number;
          const key = a < b ? `${a},${b}` : `${b},${a}`;
          if (!seen.has(key)) {
            seen.add(key);
            edges.push([a, b]);
          }
        }
    }
    for (const [a, b] of edges) {
      const p = v[a],
        q = v[b];
      if (p && q) ctx.stroke3(style, ctx.matrix, [...p, ...q], false);
    }
  },
} satisfies { [K in CurveType]: EntityHandler<EntityOf<K>> };

type CurveType =
  'LINE' | 'POINT' | 'CIRCLE' | 'ARC' | 'ELLIPSE' | 'LWPOLYLINE' | 'POLYLINE' | 'SPLINE' | 'SOLID' | 'TRACE' | '3DFACE' | 'MLINE' | 'MESH';

const CURVE_HANDLERS: Partial<Record<EntityType, EntityHandler<never>>> = CURVES;

/** Draws `e` when it is one of the geometric types; false for every other type. */
export function drawCurveEntity(e: Entity, ctx: DrawContext): boolean {
  const draw = CURVE_HANDLERS[e.type] as EntityHandler | undefined;
  if (!draw) return false;
  draw(e, ctx);
  return true;
}

/** SOLID and TRACE: the quadrilateral filled (a triangle when the last two corners coincide), outlined when it has no area. */
function drawSolid(e: EntityOf<'SOLID' | 'TRACE'>, ctx: DrawContext): void {
  const m = ctx.ocs(e, e.points[0][2]);
  const [p1, p2, p3, p4] = e.points;
  const ring = same(p3, p4) ? [p1[0], p1[1], p2[0], p2[1], p3[0], p3[1]] : [p1[0], p1[1], p2[0], p2[1], p4[0], p4[1], p3[0], p3[1]];
  if (Math.abs(ringArea(ring)) > 1e-18) ctx.fill(ctx.style(e), m, [ring]);
  else ctx.stroke(ctx.style(e), m, ring, true);
}

/** MLINE: each element of its style drawn as a polyline offset along the vertices' miters. */
function drawMLine(e: EntityOf<'MLINE'>, ctx: DrawContext): void {
  const styles = ctx.drawing.mlineStyles ?? {};
  const style =
    styles[e.style.toUpperCase()] ??
    Object.values(styles).find((st) => e.styleHandle !== undefined && st.handle?.toUpperCase() === e.styleHandle.toUpperCase());
  const count = Math.max(0, ...e.vertices.map((v) => v.params.length));
  for (let j = 0; j < count; j++) {
    const el = style?.elements[j];
    const pts: number[] = [];
    for (const v of e.vertices) {
      const d = v.params[j]?.[0] ?? 0;
      pts.push(v.position[0] + v.miter[0] * d, v.position[1] + v.miter[1] * d, v.position[2] + v.miter[2] * d);
    }
    if (pts.length < 6) continue;
    const st = el
      ? ctx.styleWith(e, el.color.aci === 0 || el.color.aci === 256 ? (el.color.aci === 0 ? e.color : el.color) : el.color)
      : ctx.style(e);
    const dashes = ctx.dashes(el && el.linetype.toUpperCase() !== 'BYLAYER' ? { ...e, linetype: el.linetype } : e);
    ctx.stroke3(st, ctx.matrix, pts, e.closed, { dashes });
  }
}

function same(a: Vec3, b: Vec3): boolean {
  return Math.abs(a[0] - b[0]) < 1e-12 && Math.abs(a[1] - b[1]) < 1e-12 && Math.abs(a[2] - b[2]) < 1e-12;
}

export function ringArea(xy: ArrayLike<number>): number {
  let a = 0;
  const n = xy.length >> 1;
  for (let i = 0, j = n - 1; i < n; j = i++)
    a += (xy[2 * j] as number) * (xy[2 * i + 1] as number) - (xy[2 * i] as number) * (xy[2 * j + 1] as number);
  return a / 2;
}

/** Points of an arc (both ends included): `segments` chords from angle a0 sweeping `sweep` radians (negative = clockwise). */
export function arcPoints(cx: number, cy: number, r: number, a0: number, sweep: number, segments: number): number[] {
  const n = Math.max(1, segments);
  const out = new Array<number>((n + 1) * 2);
  for (let i = 0; i <= n; i++) {
    const a = a0 + (sweep * i) / n;
    out[2 * i] = cx + r * Math.cos(a);
    out[2 * i + 1] = cy + r * Math.sin(a);
  }
  return out;
}

// ---- POINT --------------------------------------------------------------------------------

function drawPoint(e: EntityOf<'POINT'>, ctx: DrawContext): void {
  const h = ctx.drawing.header;
  const mode = typeof h.pdmode === 'number' ? h.pdmode : 0;
  const m = ctx.matrix;
  const tol = ctx.tolerance(m);
  let size = typeof h.pdsize === 'number' ? h.pdsize : 0;
  if (size <= 0) size = tol * 8000 * (size < 0 ? -size / 100 : 0.05) * 0.1;
  const style = ctx.style(e);
  const [x, y, z] = e.position;
  const rot = (-(e.angle || 0) * Math.PI) / 180;
  const c = Math.cos(rot),
    s = Math.sin(rot);
  const line = (x0: number, y0: number, x1: number, y1: number): void =>
    ctx.stroke3(style, m, [x + c * x0 - s * y0, y + s * x0 + c * y0, z, x + c * x1 - s * y1, y + s * x1 + c * y1, z], false);
  const r = size / 2;
  switch (mode & 7) {
    case 0: {
      const d = Math.max(tol * 1.5, 0);
      ctx.fill(style, m, [[x - d, y - d, x + d, y - d, x + d, y + d, x - d, y + d]]);
      break;
    }
    case 2:
      line(-r, 0, r, 0);
      line(0, -r, 0, r);
      break;
    case 3:
      line(-r, -r, r, r);
      line(-r, r, r, -r);
      break;
    case 4:
      line(0, 0, 0, r);
      break;
    default:
      break;
  }
  if (mode & 32) ctx.stroke(style, m, arcPoints(x, y, r, 0, TAU, ctx.arcSegments(r, TAU, m)), false);
  if (mode & 64) ctx.stroke(style, m, [x - r, y - r, x + r, y - r, x + r, y + r, x - r, y + r], true);
}

// ---- ELLIPSE ------------------------------------------------------------------------------

function drawEllipse(e: EntityOf<'ELLIPSE'>, ctx: DrawContext): void {
  const [mx, my, mz] = e.majorAxis;
  const major = Math.hypot(mx, my, mz);
  if (!(major > 0) || !(e.ratio > 0)) return;
  const l = Math.hypot(...e.extrusion) || 1;
  const n: Vec3 = [e.extrusion[0] / l, e.extrusion[1] / l, e.extrusion[2] / l];
  // Minor axis = ratio · (N × major).
  const minor: Vec3 = [(n[1] * mz - n[2] * my) * e.ratio, (n[2] * mx - n[0] * mz) * e.ratio, (n[0] * my - n[1] * mx) * e.ratio];
  let t0 = e.startParam,
    sweep = e.endParam - e.startParam;
  if (!Number.isFinite(t0) || !Number.isFinite(sweep)) {
    t0 = 0;
    sweep = TAU;
  }
  sweep = ((sweep % TAU) + TAU) % TAU;
  if (sweep < 1e-9) sweep = TAU;
  const segs = ctx.arcSegments(major, sweep, ctx.matrix);
  const pts = new Array<number>((segs + 1) * 3);
  const [cx, cy, cz] = e.center;
  for (let i = 0; i <= segs; i++) {
    const t = t0 + (sweep * i) / segs;
    const c = Math.cos(t),
      s = Math.sin(t);
    pts[3 * i] = cx + c * mx + s * minor[0];
    pts[3 * i + 1] = cy + c * my + s * minor[1];
    pts[3 * i + 2] = cz + c * mz + s * minor[2];
  }
  ctx.stroke3(ctx.style(e), ctx.matrix, pts, false, { dashes: ctx.dashes(e) });
}

// ---- LWPOLYLINE / POLYLINE ---------------------------------------------------------------------

interface PVertex {
  x: number;
  y: number;
  bulge: number;
  startWidth: number;
  endWidth: number;
}

/** Appends the points of the segment from (x0,y0) to (x1,y1) with `bulge` (not the start point). */
function appendSegment(out: number[], x0: number, y0: number, x1: number, y1: number, bulge: number, ctx: DrawContext, m: Mat): void {
  if (!bulge || Math.abs(bulge) < 1e-10 || (x0 === x1 && y0 === y1)) {
    out.push(x1, y1);
    return;
  }
  const theta = 4 * Math.atan(bulge);
  const dx = x1 - x0,
    dy = y1 - y0;
  const chord = Math.hypot(dx, dy);
  const r = chord / (2 * Math.sin(Math.abs(theta) / 2));
  // Centre: from the chord midpoint, perpendicular, at distance (r·cos(θ/2)) on the bulge's side.
  const h = (chord / 2) * ((1 - bulge * bulge) / (2 * bulge));
  const mx = (x0 + x1) / 2 - (dy / chord) * h;
  const my = (y0 + y1) / 2 + (dx / chord) * h;
  const a0 = Math.atan2(y0 - my, x0 - mx);
  const segs = ctx.arcSegments(r, theta, m);
  for (let i = 1; i <= segs; i++) {
    const a = a0 + (theta * i) / segs;
    out.push(mx + r * Math.cos(a), my + r * Math.sin(a));
  }
  out[out.length - 2] = x1;
  out[out.length - 1] = y1;
}

/** The centre line of a polyline (2D vertices with bulges), closed ones ending at their start. */
export function polylinePoints(v: PVertex[], closed: boolean, ctx: DrawContext, m: Mat): number[] {
  const out: number[] = [];
  if (!v.length) return out;
  out.push(v[0]!.x, v[0]!.y);
  const n = v.length;
  const last = closed ? n : n - 1;
  for (let i = 0; i < last; i++) {
    const a = v[i] as PVertex,
      b = v[(i + 1) % n] as PVertex;
    appendSegment(out, a.x, a.y, b.x, b.y, a.bulge, ctx, m);
  }
  return out;
}

/** A wide polyline: every segment becomes a filled band (its own ring, counter-clockwise, filled non-zero). */
/** Where the lines p0→p1 and q0→q1 cross; null when (nearly) parallel. */
function crossing(
  p0x: number,
  p0y: number,
  p1x: number,
  p1y: number,
  q0x: number,
  q0y: number,
  q1x: number,
  q1y: number,
): [number, number] | null {
  const dx = p1x - p0x,
    dy = p1y - p0y,
    ex = q1x - q0x,
    ey = q1y - q0y;
  const den = dx * ey - dy * ex;
  const len = Math.hypot(dx, dy) * Math.hypot(ex, ey);
  if (!(len > 0) || Math.abs(den) < 1e-9 * len) return null;
  const t = ((q0x - p0x) * ey - (q0y - p0y) * ex) / den;
  return [p0x + dx * t, p0y + dy * t];
}

/**
 * A wide polyline: every segment becomes a filled band (its own ring, counter-clockwise, filled
 * non-zero). Where two wide segments meet, their edges are extended to a mitred corner, as AutoCAD
 * draws them (no notch on the outside of a bend).
 */
function drawWidePolyline(v: PVertex[], closed: boolean, style: number, ctx: DrawContext, m: Mat): void {
  const thin: number[][] = [];
  const n = v.length;
  const last = closed ? n : n - 1;
  const bands: ({ left: number[]; right: number[] } | null)[] = [];
  for (let i = 0; i < last; i++) {
    const a = v[i] as PVertex,
      b = v[(i + 1) % n] as PVertex;
    const center: number[] = [a.x, a.y];
    appendSegment(center, a.x, a.y, b.x, b.y, a.bulge, ctx, m);
    if (!(a.startWidth > 0) && !(a.endWidth > 0)) {
      thin.push(center);
      bands.push(null);
      continue;
    }
    const k = center.length >> 1;
    // Cumulative length for interpolating the width.
    const lens = [0];
    for (let j = 1; j < k; j++)
      lens.push(
        (lens[j - 1] as number) +
          Math.hypot(
            (center[2 * j] as number) - (center[2 * j - 2] as number),
            (center[2 * j + 1] as number) - (center[2 * j - 1] as number),
          ),
      );
    const total = lens[k - 1] || 1;
    const left: number[] = [];
    const right: number[] = [];
    for (let j = 0; j < k; j++) {
      const j0 = Math.max(0, j - 1),
        j1 = Math.min(k - 1, j + 1);
      let tx = (center[2 * j1] as number) - (center[2 * j0] as number),
        ty = (center[2 * j1 + 1] as number) - (center[2 * j0 + 1] as number);
      const tl = Math.hypot(tx, ty) || 1;
      tx /= tl;
      ty /= tl;
      const w = (a.startWidth + ((a.endWidth - a.startWidth) * (lens[j] as number)) / total) / 2;
      const x = center[2 * j] as number,
        y = center[2 * j + 1] as number;
      left.push(x - ty * w, y + tx * w);
      right.push(x + ty * w, y - tx * w);
    }
    bands.push(left.length >= 4 ? { left, right } : null);
  }
  // Mitre the joints between consecutive wide bands.
  for (let i = 0; i < bands.length; i++) {
    if (!closed && i === bands.length - 1) break;
    const A = bands[i],
      B = bands[(i + 1) % bands.length];
    if (!A || !B || A === B) continue;
    const vx = (v[(i + 1) % n] as PVertex).x,
      vy = (v[(i + 1) % n] as PVertex).y;
    const wa = Math.hypot(
      (A.left[A.left.length - 2] as number) - (A.right[A.right.length - 2] as number),
      (A.left[A.left.length - 1] as number) - (A.right[A.right.length - 1] as number),
    );
    for (const side of ['left', 'right'] as const) {
      const a = A[side],
        b = B[side];
      const k = a.length;
      const x = crossing(
        a[k - 4] as number,
        a[k - 3] as number,
        a[k - 2] as number,
        a[k - 1] as number,
        b[0] as number,
        b[1] as number,
        b[2] as number,
        b[3] as number,
      );
      // A very sharp bend would send the mitre far away: keep it within a few widths of the vertex.
      if (!x || Math.hypot(x[0] - vx, x[1] - vy) > 4 * Math.max(wa, 1e-12)) continue;
      a[k - 2] = b[0] = x[0];
      a[k - 1] = b[1] = x[1];
    }
  }
  const rings: number[][] = [];
  for (const band of bands) {
    if (!band) continue;
    const k = band.left.length >> 1;
    const ring = [...band.right];
    for (let j = k - 1; j >= 0; j--) ring.push(band.left[2 * j] as number, band.left[2 * j + 1] as number);
    if (ringArea(ring) < 0) {
      const rev: number[] = [];
      for (let j = (ring.length >> 1) - 1; j >= 0; j--) rev.push(ring[2 * j] as number, ring[2 * j + 1] as number);
      rings.push(rev);
    } else rings.push(ring);
  }
  if (rings.length) ctx.fill(style, m, rings, { rule: 'nonzero' });
  for (const t of thin) ctx.stroke(style, m, t, false);
}

function drawVertices2d(e: Entity, v: PVertex[], closed: boolean, plinegen: boolean, ctx: DrawContext, m: Mat): void {
  if (!v.length) return;
  const style = ctx.style(e);
  const tol = ctx.tolerance(m);
  if (v.some((p) => p.startWidth > tol || p.endWidth > tol)) {
    drawWidePolyline(v, closed, style, ctx, m);
    return;
  }
  const pts = polylinePoints(v, closed, ctx, m);
  if (pts.length === 2) {
    // A one-vertex polyline is a dot.
    ctx.stroke(style, m, [pts[0] as number, pts[1] as number, pts[0] as number, pts[1] as number], false);
    return;
  }
  ctx.stroke(style, m, pts, false, { dashes: ctx.dashes(e), restartAtVertices: !plinegen && v.every((p) => !p.bulge) });
}

function drawLwPolyline(e: EntityOf<'LWPOLYLINE'>, ctx: DrawContext): void {
  const m = ctx.ocs(e, e.elevation);
  const cw = e.constantWidth > 0 ? e.constantWidth : 0;
  const v: PVertex[] = e.vertices.map((p: LwVertex) => ({
    x: p.x,
    y: p.y,
    bulge: p.bulge,
    startWidth: cw || p.startWidth,
    endWidth: cw || p.endWidth,
  }));
  drawVertices2d(e, dedupe(v, e.closed), e.closed, e.plinegen, ctx, m);
}

/** Drops consecutive duplicate vertices (and a closing duplicate of the first). */
function dedupe(v: PVertex[], closed: boolean): PVertex[] {
  const out: PVertex[] = [];
  for (const p of v) {
    const prev = out[out.length - 1];
    if (prev && prev.x === p.x && prev.y === p.y) {
      prev.bulge = p.bulge;
      continue;
    }
    out.push({ ...p });
  }
  if (closed && out.length > 2) {
    const a = out[0] as PVertex,
      z = out[out.length - 1] as PVertex;
    if (a.x === z.x && a.y === z.y) out.pop();
  }
  return out;
}

function drawPolyline(e: EntityOf<'POLYLINE'>, ctx: DrawContext): void {
  const style = ctx.style(e);
  // Spline frame control points (vertex flag 16) are not drawn.
  const verts = e.vertices.filter((v) => !(v.flags & 16));
  if (e.kind === '2d') {
    const m = ctx.ocs(e, e.elevation || verts[0]?.position[2] || 0);
    const v: PVertex[] = verts.map((p) => ({
      x: p.position[0],
      y: p.position[1],
      bulge: p.bulge,
      startWidth: p.startWidth || e.defaultStartWidth,
      endWidth: p.endWidth || e.defaultEndWidth,
    }));
    drawVertices2d(e, dedupe(v, e.closed), e.closed, (e.flags & 128) !== 0, ctx, m);
    return;
  }
  if (e.kind === '3d') {
    const xyz = verts.flatMap((p) => p.position);
    ctx.stroke3(style, ctx.matrix, xyz, e.closed, { dashes: ctx.dashes(e) });
    return;
  }
  if (e.kind === 'mesh') {
    const M = e.m,
      N = e.n;
    if (!(M > 0 && N > 0) || verts.length < M * N) {
      ctx.stroke3(
        style,
        ctx.matrix,
        verts.flatMap((p) => p.position),
        false,
      );
      return;
    }
    const at = (i: number, j: number): Vec3 => (verts[i * N + j] as (typeof verts)[number]).position;
    for (let i = 0; i < M; i++) {
      const row: number[] = [];
      for (let j = 0; j < N; j++) row.push(...at(i, j));
      ctx.stroke3(style, ctx.matrix, row, e.meshClosedN);
    }
    for (let j = 0; j < N; j++) {
      const col: number[] = [];
      for (let i = 0; i < M; i++) col.push(...at(i, j));
      ctx.stroke3(style, ctx.matrix, col, e.closed);
    }
    return;
  }
  // Polyface: each face's visible edges.
  const pos = e.vertices.map((v) => v.position);
  const seen = new Set<string>();
  for (const face of e.faces) {
    const k = face.length;
    for (let i = 0; i < k; i++) {
      const a = face[i] as number,
        b = face[(i + 1) % k] as number;
      if (a <= 0 || b === 0) continue;
      const ia = Math.abs(a) - 1,
        ib = Math.abs(b) - 1;
      const key = ia < ib ? `${ia},${ib}` : `${ib},${ia}`;
      if (seen.has(key) || !pos[ia] || !pos[ib]) continue;
      seen.add(key);
      ctx.stroke3(style, ctx.matrix, [...(pos[ia] as Vec3), ...(pos[ib] as Vec3)], false);
    }
  }
}

// ---- SPLINE -------------------------------------------------------------------------------

/**
 * The highest spline degree drawn. De Boor's algorithm costs degree² per point, so a hostile degree
 * (1,000 in a 60 KB file took a minute) is refused; CAD programs write degree 3, rarely up to 10.
 */
const MAX_SPLINE_DEGREE = 11;

function drawSpline(e: EntityOf<'SPLINE'>, ctx: DrawContext): void {
  const ctrl = e.controlPoints;
  if (Math.min(e.degree, ctrl.length - 1) > MAX_SPLINE_DEGREE)
    throw new Error(`its degree ${e.degree} is over ${MAX_SPLINE_DEGREE}, the highest drawn`);
  const style = ctx.style(e);
  const dashes = ctx.dashes(e);
  // Segments per knot span from the control polygon's length against the tolerance.
  let len = 0;
  const src = ctrl.length >= 2 ? ctrl : e.fitPoints;
  for (let i = 1; i < src.length; i++)
    len += Math.hypot(
      (src[i] as Vec3)[0] - (src[i - 1] as Vec3)[0],
      (src[i] as Vec3)[1] - (src[i - 1] as Vec3)[1],
      (src[i] as Vec3)[2] - (src[i - 1] as Vec3)[2],
    );
  const tol = ctx.tolerance(ctx.matrix);
  const spans = Math.max(1, src.length - 1);
  const perSpan = Math.max(4, Math.min(64, Math.ceil(Math.sqrt(len / spans / Math.max(tol, 1e-12)) * 0.8)));
  let pts: number[];
  if (ctrl.length >= 2)
    pts = splinePoints(e.degree || 3, e.knots, ctrl, e.rational && e.weights.length === ctrl.length ? e.weights : null, perSpan);
  else pts = fitPointCurve(e.fitPoints, perSpan, e.closed);
  if (pts.length >= 6) ctx.stroke3(style, ctx.matrix, pts, false, { dashes });
}
