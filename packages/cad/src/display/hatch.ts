/**
 * HATCH: boundary paths (polylines with bulges; edge paths of lines, arcs, elliptic arcs and
 * splines) become the rings of one even-odd area in the hatch's OCS, filtered by the island
 * detection style; the area is then filled solid, with a gradient, or with its pattern lines
 * clipped to it (a scanline clip per line family). The boundary itself is not drawn: in AutoCAD
 * it is made of separate entities.
 */
import type { Color, Drawing, HatchEdge, HatchEntity, HatchPath } from '../model';
import { aciColor } from '../geom/color';
import type { DrawContext, EntityHandler } from './context';
import { arcPoints, polylinePoints, ringArea } from './curves';
import { clipFamily, estimateSegments, lineFamily, ringEdges, type LineFamily } from '../geom/hatch-lines';
import { isMetric, lookupPattern, userPattern } from '../geom/hatch-patterns';
import type { Mat } from '../geom/matrix';
import type { Gradient } from './types';
import type { Vec3 } from '../geom/vector';
import type { HatchPatternLine } from '../geom/hatch-patterns';
import { fitPointCurve, splinePoints } from '../geom/spline';

const TAU = Math.PI * 2;
const DEG = Math.PI / 180;

/** More pattern segments than this for one hatch and it is drawn solid (too dense) or as its outline. */
const MAX_PATTERN_SEGMENTS = 200_000;

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
    ctx.warn({
      code: 'unsupported-entity',
      subject: `HATCH pattern ${name}`,
      message: `Hatch pattern "${e.pattern}" is not in the pattern library: drawn as ANSI31`,
    });
    lines = lookupPattern('ANSI31', e.patternScale, e.patternAngle, isMetric(ctx.drawing)) ?? [];
  }
  drawPattern(rings, lines, style, ctx, m, name || e.handle || '');
};

// ---- boundary ---------------------------------------------------------------------------------

/** The boundary rings (x, y pairs in the OCS, not repeating their first point) the hatch style selects. */
function hatchRings(e: HatchEntity, ctx: DrawContext, m: Mat): number[][] {
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
function edgePoints(ed: HatchEdge, ctx: DrawContext, m: Mat): number[] {
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
      const nx = -my * ratio,
        ny = mx * ratio;
      for (let i = 0; i <= n; i++) {
        const t = t0 + (sw * i) / n;
        const c = Math.cos(t),
          s = Math.sin(t);
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
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
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
  let startX = 0,
    startY = 0;
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
    const ex = ring[ring.length - 2] as number,
      ey = ring[ring.length - 1] as number;
    const closedNow = ring.length > 4 && Math.abs(ex - startX) <= gap * 1e-3 && Math.abs(ey - startY) <= gap * 1e-3;
    let next = -1,
      reversed = false;
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

/** The hatch's pattern lines: its own (already scaled and turned), or the library's for its name. */
function patternLinesOf(e: HatchEntity, d: Drawing): HatchPatternLine[] | undefined {
  if (e.patternLines.length) return e.patternLines;
  const name = e.pattern.trim().toUpperCase();
  if (e.patternType === 0 || name === '_USER' || name === 'USER' || name === '')
    return userPattern(e.patternScale, e.patternAngle, e.patternDouble);
  return lookupPattern(name, e.patternScale, e.patternAngle, isMetric(d));
}

function drawPattern(rings: number[][], lines: HatchPatternLine[], style: number, ctx: DrawContext, m: Mat, subject: string): void {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
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
