/**
 * HATCH: boundary paths (polylines with bulges; edge paths of lines, arcs, elliptic arcs and
 * splines) become the rings of one even-odd area in the hatch's OCS, filtered by the island
 * detection style; the area is then filled solid, with a gradient, or with its pattern lines
 * clipped to it (a scanline clip per line family). The boundary itself is not drawn: in AutoCAD
 * it is made of separate entities.
 */
import type { Color, Drawing, HatchEdge, HatchEntity, HatchPath, HatchPatternLine, Vec3 } from '../model';
import { aciColor } from './color';
import type { DrawContext, EntityHandler } from './context';
import { arcPoints, fitPointCurve, polylinePoints, ringArea, splinePoints } from './curves';
import { lookupPattern, userPattern } from './hatch-patterns';
import type { Mat } from './matrix';
import type { Gradient } from './types';

const TAU = Math.PI * 2;
const DEG = Math.PI / 180;

/** More pattern segments than this for one hatch and it is drawn solid (too dense) or as its outline. */
export const MAX_PATTERN_SEGMENTS = 200_000;

export const drawHatch: EntityHandler<HatchEntity> = (e, ctx) => {
  const m = ctx.ocs(e, e.elevation);
  const rings = hatchRings(e, ctx, m);
  if (!rings.length) return;
  const gradient = gradientOf(e, m);
  if (gradient) {
    ctx.fill(ctx.styleWith(e, gradient.color), m, rings, { gradient: gradient.gradient });
    return;
  }
  const style = ctx.style(e);
  const name = e.pattern.trim().toUpperCase();
  if (e.solid || (name === 'SOLID' && !e.patternLines.length)) {
    ctx.fill(style, m, rings);
    return;
  }
  let lines = patternLinesOf(e, ctx.drawing);
  if (!lines) {
    ctx.warn({ code: 'unsupported-entity', subject: `HATCH pattern ${name}`, message: `Hatch pattern "${e.pattern}" is not in the pattern library: drawn as ANSI31` });
    lines = lookupPattern('ANSI31', e.patternScale, e.patternAngle, isMetric(ctx.drawing)) ?? [];
  }
  drawPattern(rings, lines, style, ctx, m, name || e.handle || "");
};

// ---- boundary ---------------------------------------------------------------------------------

/** The boundary rings (x, y pairs in the OCS, not repeating their first point) the hatch style selects. */
export function hatchRings(e: HatchEntity, ctx: DrawContext, m: Mat): number[][] {
  const rings: number[][] = [];
  for (const p of selectPaths(e)) for (const r of pathRings(p, ctx, m)) if (r.length >= 6) rings.push(r);
  return rings;
}

/**
 * Island detection: 0 normal (every path, odd parity), 1 outermost (external and outermost
 * paths), 2 ignore (external paths only). Falls back to every path when the flags select none.
 */
function selectPaths(e: HatchEntity): HatchPath[] {
  if (e.style !== 1 && e.style !== 2) return e.paths;
  const sel = e.paths.filter((p) => p.flags & 1 || (e.style === 1 && p.flags & 16));
  return sel.length ? sel : e.paths;
}

function pathRings(p: HatchPath, ctx: DrawContext, m: Mat): number[][] {
  if (p.polyline) {
    const v = p.polyline.vertices.map((q) => ({ x: q.x, y: q.y, bulge: q.bulge, startWidth: 0, endWidth: 0 }));
    // A boundary is always closed; drop an explicit closing vertex.
    while (v.length > 2 && v[0]!.x === v[v.length - 1]!.x && v[0]!.y === v[v.length - 1]!.y) v.pop();
    if (v.length < 2) return [];
    const pts = polylinePoints(v, true, ctx, m);
    pts.length -= 2;
    return [pts];
  }
  const pieces: number[][] = [];
  for (const ed of p.edges) {
    const pts = edgePoints(ed, ctx, m);
    if (pts.length >= 4) pieces.push(pts);
  }
  return chainPieces(pieces);
}

/** The points of one boundary edge (x, y pairs) in its direction of travel. */
export function edgePoints(ed: HatchEdge, ctx: DrawContext, m: Mat): number[] {
  switch (ed.kind) {
    case 'line':
      return [ed.start[0], ed.start[1], ed.end[0], ed.end[1]];
    case 'arc': {
      const r = Math.abs(ed.radius);
      if (!(r > 0) || !Number.isFinite(r)) return [];
      const sweep = sweepOf(ed.startAngle, ed.endAngle) * DEG;
      // Clockwise arcs store their angles mirrored (360 − angle): they run from −start to −end.
      const a0 = (ed.ccw ? ed.startAngle : -ed.startAngle) * DEG;
      const sw = ed.ccw ? sweep : -sweep;
      return arcPoints(ed.center[0], ed.center[1], r, a0, sw, ctx.arcSegments(r, sw, m));
    }
    case 'ellipse': {
      const [mx, my] = ed.majorAxis;
      const major = Math.hypot(mx, my);
      const ratio = ed.ratio > 0 ? ed.ratio : 1;
      if (!(major > 0)) return [];
      // Start/end are angles; the curve is parametrised by the eccentric anomaly.
      const param = (deg: number): number => Math.atan2(Math.sin(deg * DEG) / ratio, Math.cos(deg * DEG));
      const full = Math.abs(ed.endAngle - ed.startAngle) >= 360 - 1e-9 || ed.endAngle === ed.startAngle;
      const p0 = param(ed.startAngle);
      let sweep = full ? TAU : (((param(ed.endAngle) - p0) % TAU) + TAU) % TAU;
      if (!(sweep > 1e-12)) sweep = TAU;
      const t0 = ed.ccw ? p0 : -p0;
      const sw = ed.ccw ? sweep : -sweep;
      const n = ctx.arcSegments(major, sw, m);
      const out = new Array<number>((n + 1) * 2);
      const nx = -my * ratio, ny = mx * ratio;
      for (let i = 0; i <= n; i++) {
        const t = t0 + (sw * i) / n;
        const c = Math.cos(t), s = Math.sin(t);
        out[2 * i] = ed.center[0] + c * mx + s * nx;
        out[2 * i + 1] = ed.center[1] + c * my + s * ny;
      }
      return out;
    }
    case 'spline': {
      const ctrl: Vec3[] = ed.controlPoints.map((p) => [p[0], p[1], 0]);
      const src = ctrl.length >= 2 ? ctrl : ed.fitPoints.map((p): Vec3 => [p[0], p[1], 0]);
      if (src.length < 2) return [];
      let len = 0;
      for (let i = 1; i < src.length; i++) len += Math.hypot(src[i]![0] - src[i - 1]![0], src[i]![1] - src[i - 1]![1]);
      const tol = Math.max(ctx.tolerance(m), 1e-12);
      const perSpan = Math.max(4, Math.min(64, Math.ceil(Math.sqrt(len / Math.max(1, src.length - 1) / tol) * 0.8)));
      const xyz =
        ctrl.length >= 2
          ? splinePoints(ed.degree || 3, ed.knots, ctrl, ed.rational && ed.weights.length === ctrl.length ? ed.weights : null, perSpan)
          : fitPointCurve(src, perSpan, false);
      const out = new Array<number>((xyz.length / 3) * 2);
      for (let i = 0, j = 0; i < xyz.length; i += 3, j += 2) {
        out[j] = xyz[i] as number;
        out[j + 1] = xyz[i + 1] as number;
      }
      return out;
    }
  }
}

/** Sweep in degrees (0, 360] from start to end, counter-clockwise. */
function sweepOf(start: number, end: number): number {
  const d = end - start;
  if (Math.abs(d) >= 360 - 1e-9) return 360;
  const s = ((d % 360) + 360) % 360;
  return s > 1e-9 ? s : 360;
}

/**
 * Joins edge polylines into closed rings. Edges are usually stored in order, head to tail; some
 * writers store them reversed or shuffled, so a piece that does not continue the ring is searched
 * among the others (either direction) before a ring is closed as it is.
 */
function chainPieces(pieces: number[][]): number[][] {
  if (!pieces.length) return [];
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const p of pieces)
    for (let i = 0; i < p.length; i += 2) {
      minX = Math.min(minX, p[i] as number);
      maxX = Math.max(maxX, p[i] as number);
      minY = Math.min(minY, p[i + 1] as number);
      maxY = Math.max(maxY, p[i + 1] as number);
    }
  const gap = Math.max(Math.hypot(maxX - minX, maxY - minY) * 1e-3, 1e-9);
  const used = new Uint8Array(pieces.length);
  const rings: number[][] = [];
  let ring: number[] = [];
  let startX = 0, startY = 0;
  const begin = (i: number): void => {
    used[i] = 1;
    ring = pieces[i]!.slice();
    startX = ring[0] as number;
    startY = ring[1] as number;
  };
  const append = (p: number[], reversed: boolean): void => {
    const n = p.length >> 1;
    for (let k = 1; k < n; k++) {
      const j = reversed ? n - 1 - k : k;
      ring.push(p[2 * j] as number, p[2 * j + 1] as number);
    }
  };
  const finish = (): void => {
    const n = ring.length;
    if (n >= 4 && Math.abs((ring[n - 2] as number) - startX) <= gap && Math.abs((ring[n - 1] as number) - startY) <= gap) ring.length -= 2;
    if (ring.length >= 6) rings.push(ring);
  };
  begin(0);
  let last = 0;
  for (;;) {
    const ex = ring[ring.length - 2] as number, ey = ring[ring.length - 1] as number;
    const closedNow = ring.length > 4 && Math.abs(ex - startX) <= gap * 1e-3 && Math.abs(ey - startY) <= gap * 1e-3;
    let next = -1, reversed = false;
    const nxt = last + 1;
    if (!closedNow && nxt < pieces.length && !used[nxt]) {
      const p = pieces[nxt]!;
      if (Math.hypot((p[0] as number) - ex, (p[1] as number) - ey) <= gap) next = nxt;
    }
    if (next < 0 && !closedNow) {
      let best = gap;
      for (let i = 0; i < pieces.length; i++) {
        if (used[i]) continue;
        const p = pieces[i]!;
        const ds = Math.hypot((p[0] as number) - ex, (p[1] as number) - ey);
        const de = Math.hypot((p[p.length - 2] as number) - ex, (p[p.length - 1] as number) - ey);
        if (ds <= best) {
          best = ds;
          next = i;
          reversed = false;
        }
        if (de < best) {
          best = de;
          next = i;
          reversed = true;
        }
      }
    }
    if (next >= 0) {
      used[next] = 1;
      append(pieces[next]!, reversed);
      last = next;
      continue;
    }
    finish();
    const free = used.indexOf(0);
    if (free < 0) break;
    begin(free);
    last = free;
  }
  return rings;
}

// ---- gradient ---------------------------------------------------------------------------------

function displayColor(c: Color | undefined): number {
  if (!c) return 0x000000;
  if (c.rgb !== undefined) return c.rgb;
  return aciColor(c.aci ?? 7);
}

function mix(a: number, b: number, f: number): number {
  const ch = (s: number): number => Math.round(((a >> s) & 255) * (1 - f) + ((b >> s) & 255) * f);
  return (ch(16) << 16) | (ch(8) << 8) | ch(0);
}

/** The gradient of a gradient hatch (colours resolved, angle turned into world), or null. */
function gradientOf(e: HatchEntity, m: Mat): { gradient: Gradient; color: Color } | null {
  const g = e.gradient;
  if (!g || !g.colors.length) return null;
  const first = g.colors[0] as Color;
  const c1 = displayColor(first);
  let c2: number;
  if (g.singleColor || g.colors.length < 2) {
    // One-colour gradients run from the colour to its shade (tint < 0.5, towards black) or tint (towards white).
    const base = c1 < 0 ? 0x000000 : c1;
    const t = Number.isFinite(g.tint) ? Math.min(1, Math.max(0, g.tint)) : 0;
    c2 = t < 0.5 ? mix(base, 0x000000, (0.5 - t) * 2) : mix(base, 0xffffff, (t - 0.5) * 2);
  } else c2 = displayColor(g.colors[1]);
  const a = Number.isFinite(g.angle) ? g.angle : 0;
  const dx = (m[0] as number) * Math.cos(a) + (m[1] as number) * Math.sin(a);
  const dy = (m[4] as number) * Math.cos(a) + (m[5] as number) * Math.sin(a);
  const angle = dx || dy ? Math.atan2(dy, dx) : a;
  return { gradient: { name: (g.name || 'LINEAR').toUpperCase(), colors: [c1, c2], angle }, color: first };
}

// ---- pattern ----------------------------------------------------------------------------------

const METRIC_UNITS = new Set([4, 5, 6, 7, 12, 13, 14, 15, 16, 17]);

/** Metric drawings use the millimetre versions of the library patterns. */
export function isMetric(d: Drawing): boolean {
  const h = d.header;
  if (h.measurement === 1) return true;
  if (h.measurement === 0) return false;
  return h.insUnits !== undefined && METRIC_UNITS.has(h.insUnits);
}

/** The hatch's pattern lines: its own (already scaled and turned), or the library's for its name. */
function patternLinesOf(e: HatchEntity, d: Drawing): HatchPatternLine[] | undefined {
  if (e.patternLines.length) return e.patternLines;
  const name = e.pattern.trim().toUpperCase();
  if (e.patternType === 0 || name === '_USER' || name === 'USER' || name === '') return userPattern(e.patternScale, e.patternAngle, e.patternDouble);
  return lookupPattern(name, e.patternScale, e.patternAngle, isMetric(d));
}

/** A pattern line family ready to clip: unit direction u, normal n, spacing s > 0 along n. */
export interface LineFamily {
  ux: number;
  uy: number;
  nx: number;
  ny: number;
  bx: number;
  by: number;
  /** Distance between neighbouring lines (> 0). */
  spacing: number;
  /** Shift of a line's pattern start along u, per line. */
  shift: number;
  dashes: number[];
  /** Sum of |dashes|; 0 = continuous. */
  period: number;
}

/** Prepares a DXF pattern line; null when its lines would coincide (zero spacing). */
export function lineFamily(l: HatchPatternLine, minSpacing: number): LineFamily | null {
  const a = l.angle * DEG;
  const ux = Math.cos(a), uy = Math.sin(a);
  let nx = -uy, ny = ux;
  let s = l.offset[0] * nx + l.offset[1] * ny;
  let shift = l.offset[0] * ux + l.offset[1] * uy;
  if (!Number.isFinite(s) || !Number.isFinite(shift) || Math.abs(s) <= minSpacing) return null;
  if (s < 0) {
    // The same set of lines counted the other way: line k is base − k·offset.
    nx = -nx;
    ny = -ny;
    s = -s;
    shift = -shift;
  }
  const dashes = l.dashes.filter((d) => Number.isFinite(d));
  const period = dashes.reduce((t, d) => t + Math.abs(d), 0);
  // Only gaps: nothing to draw. No length at all: a continuous line.
  if (period > 0 && !dashes.some((d) => d >= 0)) return null;
  const usable = period > 0;
  return { ux, uy, nx, ny, bx: l.base[0], by: l.base[1], spacing: s, shift, dashes: usable ? dashes : [], period: usable ? period : 0 };
}

/** Boundary edges of the rings as x0, y0, x1, y1 quadruples. */
function ringEdges(rings: number[][]): Float64Array {
  let n = 0;
  for (const r of rings) n += r.length >> 1;
  const out = new Float64Array(n * 4);
  let k = 0;
  for (const r of rings) {
    const m = r.length >> 1;
    for (let i = 0; i < m; i++) {
      const j = (i + 1) % m;
      out[k++] = r[2 * i] as number;
      out[k++] = r[2 * i + 1] as number;
      out[k++] = r[2 * j] as number;
      out[k++] = r[2 * j + 1] as number;
    }
  }
  return out;
}

/** Rough count of the segments a family yields over the rings (lines + dashes). */
function estimateSegments(rings: number[][], f: LineFamily, area: number): number {
  let hMin = Infinity, hMax = -Infinity, tMin = Infinity, tMax = -Infinity;
  for (const r of rings)
    for (let i = 0; i < r.length; i += 2) {
      const x = (r[i] as number) - f.bx, y = (r[i + 1] as number) - f.by;
      const h = x * f.nx + y * f.ny, t = x * f.ux + y * f.uy;
      if (h < hMin) hMin = h;
      if (h > hMax) hMax = h;
      if (t < tMin) tMin = t;
      if (t > tMax) tMax = t;
    }
  const lines = (hMax - hMin) / f.spacing + 1;
  if (!f.period) return lines;
  const length = Math.min(lines * (tMax - tMin), area / f.spacing);
  const pens = f.dashes.filter((d) => d >= 0).length;
  return lines + (length / f.period) * pens;
}

/**
 * Clips the lines of one family to the even-odd area bounded by `edges` and calls `emit` with the
 * dashes (x0, y0, x1, y1 in the same coordinates). Scanline style: the edges are sorted by their
 * extent across the lines, each line intersects only the edges it crosses, the crossings are
 * sorted and paired. Returns the number of segments emitted; stops after `limit`.
 */
export function clipFamily(edges: Float64Array, f: LineFamily, dot: number, emit: (x0: number, y0: number, x1: number, y1: number) => void, limit = Infinity): number {
  const E = edges.length >> 2;
  if (!E) return 0;
  const h0 = new Float64Array(E), h1 = new Float64Array(E), t0 = new Float64Array(E), t1 = new Float64Array(E), lo = new Float64Array(E), hi = new Float64Array(E);
  let hMin = Infinity, hMax = -Infinity;
  for (let i = 0; i < E; i++) {
    const x0 = (edges[4 * i] as number) - f.bx, y0 = (edges[4 * i + 1] as number) - f.by;
    const x1 = (edges[4 * i + 2] as number) - f.bx, y1 = (edges[4 * i + 3] as number) - f.by;
    const a = x0 * f.nx + y0 * f.ny, b = x1 * f.nx + y1 * f.ny;
    h0[i] = a;
    h1[i] = b;
    t0[i] = x0 * f.ux + y0 * f.uy;
    t1[i] = x1 * f.ux + y1 * f.uy;
    lo[i] = Math.min(a, b);
    hi[i] = Math.max(a, b);
    if (lo[i]! < hMin) hMin = lo[i]!;
    if (hi[i]! > hMax) hMax = hi[i]!;
  }
  if (!Number.isFinite(hMin) || !Number.isFinite(hMax)) return 0;
  const order = new Int32Array(E);
  for (let i = 0; i < E; i++) order[i] = i;
  order.sort((a, b) => (lo[a] as number) - (lo[b] as number));
  const active = new Int32Array(E);
  const xs = new Float64Array(E);
  let nActive = 0, ptr = 0, count = 0;
  const s = f.spacing;
  const kStart = Math.ceil(hMin / s), kEnd = Math.floor(hMax / s);
  const { ux, uy, nx, ny, bx, by, dashes, period } = f;
  const nd = dashes.length;
  let h = 0;
  const out = (a: number, b: number): void => {
    count++;
    emit(bx + a * ux + h * nx, by + a * uy + h * ny, bx + b * ux + h * nx, by + b * uy + h * ny);
  };
  for (let k = kStart; k <= kEnd && count < limit; k++) {
    h = k * s;
    while (ptr < E && (lo[order[ptr] as number] as number) <= h) active[nActive++] = order[ptr++] as number;
    let w = 0, nxs = 0;
    for (let j = 0; j < nActive; j++) {
      const a = active[j] as number;
      if ((hi[a] as number) <= h) continue;
      active[w++] = a;
      const ha = h0[a] as number, hb = h1[a] as number;
      if ((ha <= h && h < hb) || (hb <= h && h < ha)) xs[nxs++] = (t0[a] as number) + ((h - ha) * ((t1[a] as number) - (t0[a] as number))) / (hb - ha);
    }
    nActive = w;
    if (nxs < 2) continue;
    const cross = xs.subarray(0, nxs).sort();
    const origin = k * f.shift;
    for (let i = 0; i + 1 < nxs; i += 2) {
      const ta = cross[i] as number, tb = cross[i + 1] as number;
      if (!(tb > ta)) continue;
      if (!period) {
        out(ta, tb);
        continue;
      }
      // Where in the dash pattern the interval starts.
      let r = (ta - origin) % period;
      if (r < 0) r += period;
      let idx = 0, acc = 0;
      while (idx < nd && acc + Math.abs(dashes[idx] as number) <= r) acc += Math.abs(dashes[idx++] as number);
      if (idx >= nd) {
        idx = 0;
        acc = 0;
      }
      let t = ta - (r - acc);
      let guard = 0;
      while (t <= tb && guard++ < 1_000_000) {
        const d = dashes[idx] as number;
        const len = Math.abs(d);
        if (d > 0) {
          const a = Math.max(t, ta), b = Math.min(t + len, tb);
          if (b > a) out(a, b);
        } else if (d === 0 && t >= ta && t <= tb) out(Math.max(ta, t - dot / 2), Math.min(tb, t + dot / 2));
        t += len;
        idx = idx + 1 === nd ? 0 : idx + 1;
        if (count >= limit) break;
      }
    }
  }
  return count;
}

function drawPattern(rings: number[][], lines: HatchPatternLine[], style: number, ctx: DrawContext, m: Mat, subject: string): void {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  let area = 0;
  for (const r of rings) {
    area += Math.abs(ringArea(r));
    for (let i = 0; i < r.length; i += 2) {
      minX = Math.min(minX, r[i] as number);
      maxX = Math.max(maxX, r[i] as number);
      minY = Math.min(minY, r[i + 1] as number);
      maxY = Math.max(maxY, r[i + 1] as number);
    }
  }
  const size = Math.hypot(maxX - minX, maxY - minY);
  if (!(size > 0) || !Number.isFinite(size)) return;
  const families: LineFamily[] = [];
  for (const l of lines) {
    const f = lineFamily(l, size * 1e-9);
    if (f) families.push(f);
  }
  if (!families.length) return;
  const tol = ctx.tolerance(m);
  let estimate = 0;
  for (const f of families) estimate += estimateSegments(rings, f, area);
  if (!(estimate <= MAX_PATTERN_SEGMENTS)) {
    const minSpacing = Math.min(...families.map((f) => f.spacing));
    const dense = minSpacing < tol * 4;
    ctx.warn({
      code: 'limit',
      subject: `HATCH ${subject}`,
      message: `A hatch pattern would need about ${Math.round(estimate)} segments: drawn ${dense ? 'solid' : 'as its boundary'} instead`,
    });
    if (dense) ctx.fill(style, m, rings);
    else for (const r of rings) ctx.stroke(style, m, r, true);
    return;
  }
  const edges = ringEdges(rings);
  const dot = tol * 3;
  const emit = (x0: number, y0: number, x1: number, y1: number): void => ctx.stroke(style, m, [x0, y0, x1, y1], false);
  let left = MAX_PATTERN_SEGMENTS * 2;
  for (const f of families) {
    left -= clipFamily(edges, f, dot, emit, left);
    if (left <= 0) break;
  }
}
