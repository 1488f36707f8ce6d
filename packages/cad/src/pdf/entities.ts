/**
 * Marks (page geometry in mm, see graphics.ts) -> drawing-model entities: strokes become LINE,
 * LWPOLYLINE and SPLINE (or flattened polylines), fills become SOLID or a solid HATCH, text runs
 * become TEXT. Layers, linetypes and text styles are created as the entities need them.
 */
import type {
  Color,
  Drawing,
  Entity,
  EntityBase,
  HatchEdge,
  HatchEntity,
  HatchPath,
  LwPolylineEntity,
  SplineEntity,
  TextEntity,
} from '../model';
import { aciColor, nearestAci } from '../geom/color';
import type { FillMark, Mark, StrokeMark, TextMark } from './graphics';
import type { Vec3 } from '../geom/vector';
import type { Pt, Subpath } from './path';

export interface EntityOptions {
  curves: 'spline' | 'polyline';
  /** Colour layers, or the PDF's optional content groups (names by group id). */
  layerOf: (mark: Mark) => { name: string; color: Color; on?: boolean };
  /** True when entities carry their own colour (OCG layers); else ByLayer. */
  ownColor: boolean;
  /** The page is dark (a dark background fill): white, not black, is the foreground colour (ACI 7). */
  dark?: boolean;
}

/** Chord tolerance for flattened Beziers, mm. */
const FLATTEN_TOLERANCE = 0.05;
/** The widest standard lineweight (1/100 mm); wider lines become constant-width polylines. */
const MAX_LINEWEIGHT = 211;
const LINEWEIGHTS = [0, 5, 9, 13, 15, 18, 20, 25, 30, 35, 40, 50, 53, 60, 70, 80, 90, 100, 106, 120, 140, 158, 200, 211];

/** The standard lineweight nearest to a width in mm. */
function lineweightOf(mm: number): number {
  const w = mm * 100;
  let best = 0;
  for (const lw of LINEWEIGHTS) if (Math.abs(lw - w) < Math.abs(best - w)) best = lw;
  return best;
}

/**
 * A layer or entity colour for 0xRRGGBB: an ACI when one is exactly it, else true colour. The
 * page's ink colour (black on a light page, white on a dark one) is ACI 7, the foreground.
 */
export function colorOf(rgb: number, dark = false): Color {
  if (rgb === (dark ? 0xffffff : 0)) return { aci: 7 };
  if (dark && rgb === 0) return { aci: nearestAci(0), rgb: 0 };
  for (let i = 1; i < 256; i++) if (i !== 7 && aciColor(i) === rgb) return { aci: i };
  return { aci: nearestAci(rgb), rgb };
}

const same = (a: Pt, b: Pt, eps = 1e-6): boolean => Math.abs(a[0] - b[0]) <= eps && Math.abs(a[1] - b[1]) <= eps;
const v3 = (p: Pt): Vec3 => [p[0], p[1], 0];

/** Points along a cubic Bezier (excluding its start), within `FLATTEN_TOLERANCE`. */
function flattenCubic(p0: Pt, c1: Pt, c2: Pt, p3: Pt): Pt[] {
  // Max deviation of an n-segment polyline is at most 3/4·M/n², M the largest second difference.
  const m = Math.max(
    Math.hypot(p0[0] - 2 * c1[0] + c2[0], p0[1] - 2 * c1[1] + c2[1]),
    Math.hypot(c1[0] - 2 * c2[0] + p3[0], c1[1] - 2 * c2[1] + p3[1]),
  );
  const n = Math.max(1, Math.min(128, Math.ceil(Math.sqrt((0.75 * m) / FLATTEN_TOLERANCE))));
  const out: Pt[] = [];
  for (let i = 1; i <= n; i++) {
    const t = i / n,
      u = 1 - t;
    const a = u * u * u,
      b = 3 * u * u * t,
      c = 3 * u * t * t,
      d = t * t * t;
    out.push([a * p0[0] + b * c1[0] + c * c2[0] + d * p3[0], a * p0[1] + b * c1[1] + c * c2[1] + d * p3[1]]);
  }
  return out;
}

/** A subpath's vertices with curves flattened; a closing copy of the start is dropped. */
function flatten(sp: Subpath): { points: Pt[]; closed: boolean } {
  const points: Pt[] = [sp.start];
  let pen = sp.start;
  for (const s of sp.segments) {
    if (s.kind === 'line') points.push(s.to);
    else points.push(...flattenCubic(pen, s.c1, s.c2, s.to));
    pen = s.to;
  }
  const deduped = points.filter((p, i) => i === 0 || !same(p, points[i - 1] as Pt));
  let closed = sp.closed;
  if (deduped.length > 2 && same(deduped[0] as Pt, deduped[deduped.length - 1] as Pt)) {
    deduped.pop();
    closed = true;
  }
  return { points: deduped, closed };
}

/** Tables a conversion fills as it goes. */
export class Tables {
  private dashCount = 0;
  private readonly dashNames = new Map<string, string>();
  constructor(private readonly drawing: Drawing) {}

  layer(name: string, color: Color, on = true): string {
    if (!this.drawing.layers[name]) {
      this.drawing.layers[name] = { name, color, linetype: 'Continuous', lineweight: -3, on, frozen: false, locked: false, plot: true };
    }
    return name;
  }

  /** The linetype for a dash pattern in mm, created on first use ('PDF_DASH1', ...). */
  linetype(dashes: number[]): string {
    if (!dashes.length) return 'BYLAYER';
    const key = dashes.map((d) => d.toFixed(3)).join(',');
    let name = this.dashNames.get(key);
    if (!name) {
      name = `PDF_DASH${++this.dashCount}`;
      this.dashNames.set(key, name);
      const elements = dashes.map((d, i) => ({ length: i % 2 ? -d : d, kind: 0 }));
      const description = dashes.map((d, i) => (i % 2 ? ' ' : '_').repeat(Math.max(1, Math.min(6, Math.round(d))))).join('');
      this.drawing.linetypes[name] = { name, description, totalLength: dashes.reduce((s, d) => s + d, 0), elements };
    }
    return name;
  }

  /** A text style named after the PDF font family ('Standard' when unknown). */
  textStyle(family: string): string {
    const name = family ? family.replace(/[<>/\\":;?*|=`,]/g, '_').slice(0, 255) : 'Standard';
    if (!this.drawing.textStyles[name]) {
      this.drawing.textStyles[name] = {
        name,
        flags: 0,
        font: family ? fontFileOf(family) : 'txt',
        bigFont: '',
        ...(family ? { fontFamily: family } : {}),
        fixedHeight: 0,
        widthFactor: 1,
        oblique: 0,
        generation: 0,
      };
    }
    return name;
  }
}

/** The TrueType file CAD programs know a PDF font family by (the standard 14 and common Chinese fonts). */
function fontFileOf(family: string): string {
  const f = family.toLowerCase().replace(/[\s_-]/g, '');
  const known: [RegExp, string][] = [
    [/^(helvetica|arial)/, 'arial.ttf'],
    [/^times/, 'times.ttf'],
    [/^courier/, 'cour.ttf'],
    [/^(simsun|宋体|nsimsun)/, 'simsun.ttc'],
    [/^(simhei|黑体)/, 'simhei.ttf'],
    [/^(fangsong|仿宋)/, 'simfang.ttf'],
    [/^(kaiti|楷体)/, 'simkai.ttf'],
    [/^(microsoftyahei|微软雅黑)/, 'msyh.ttc'],
  ];
  for (const [re, file] of known) if (re.test(f)) return file;
  return `${family}.ttf`;
}

function base(layer: string, color: Color, linetype: string, lineweight: number): EntityBase {
  return { layer, color, linetype, ltscale: 1, lineweight, visible: true, extrusion: [0, 0, 1], paperSpace: false };
}

function lwpolyline(b: EntityBase, points: Pt[], closed: boolean, width: number): LwPolylineEntity {
  return {
    ...b,
    type: 'LWPOLYLINE',
    vertices: points.map(([x, y]) => ({ x, y, bulge: 0, startWidth: width, endWidth: width })),
    closed,
    plinegen: true,
    constantWidth: width,
    elevation: 0,
  };
}

/** The knots of a run of `n` cubic Beziers as one clamped B-spline: multiplicity 3 at the joins. */
function bezierKnots(n: number): number[] {
  const knots = [0, 0, 0, 0];
  for (let i = 1; i < n; i++) knots.push(i, i, i);
  knots.push(n, n, n, n);
  return knots;
}

/** A run of cubic Beziers as one clamped degree-3 B-spline (knots of multiplicity 3 at the joins). */
function bezierSpline(b: EntityBase, start: Pt, curves: { c1: Pt; c2: Pt; to: Pt }[]): SplineEntity {
  const controlPoints: Vec3[] = [v3(start)];
  for (const c of curves) controlPoints.push(v3(c.c1), v3(c.c2), v3(c.to));
  const knots = bezierKnots(curves.length);
  return {
    ...b,
    type: 'SPLINE',
    degree: 3,
    flags: 8,
    closed: false,
    periodic: false,
    rational: false,
    knots,
    weights: [],
    controlPoints,
    fitPoints: [],
  };
}

/** One stroked subpath: straight runs as LINE / LWPOLYLINE, Bezier runs as SPLINE (or all as one polyline). */
function strokeSubpath(sp: Subpath, b: EntityBase, width: number, curves: EntityOptions['curves']): Entity[] {
  const wide = width > 0;
  const straight = (points: Pt[], closed: boolean): Entity[] => {
    if (points.length < 2) return [];
    if (points.length === 2 && !closed && !wide) return [{ ...b, type: 'LINE', start: v3(points[0] as Pt), end: v3(points[1] as Pt) }];
    return [lwpolyline(b, points, closed && points.length > 2, width)];
  };
  const hasCurve = sp.segments.some((s) => s.kind === 'curve');
  if (!hasCurve || curves === 'polyline') {
    const { points, closed } = flatten(sp);
    return straight(points, closed);
  }
  // Mixed: split at the changes between straight and curved segments.
  const segments = [...sp.segments];
  const last = segments.length ? (segments[segments.length - 1] as { to: Pt }).to : sp.start;
  if (sp.closed && !same(last, sp.start)) segments.push({ kind: 'line', to: sp.start });
  const out: Entity[] = [];
  let pen = sp.start;
  let i = 0;
  while (i < segments.length) {
    const runStart = pen;
    const kind = (segments[i] as { kind: string }).kind;
    if (kind === 'line') {
      const points: Pt[] = [runStart];
      while (i < segments.length && segments[i]?.kind === 'line') {
        const s = segments[i++] as { to: Pt };
        if (!same(s.to, points[points.length - 1] as Pt)) points.push(s.to);
        pen = s.to;
      }
      out.push(...straight(points, false));
    } else {
      const run: { c1: Pt; c2: Pt; to: Pt }[] = [];
      while (i < segments.length) {
        const s = segments[i];
        if (s?.kind !== 'curve') break;
        run.push(s);
        pen = s.to;
        i++;
      }
      out.push({ ...bezierSpline(b, runStart, run), lineweight: Math.min(b.lineweight, MAX_LINEWEIGHT) });
    }
  }
  return out;
}

function strokeEntities(m: StrokeMark, tables: Tables, o: EntityOptions): Entity[] {
  const layer = o.layerOf(m);
  const name = tables.layer(layer.name, layer.color, layer.on);
  const color = o.ownColor ? colorOf(m.rgb, o.dark) : { aci: 256 };
  const wide = m.width * 100 > MAX_LINEWEIGHT;
  const b = base(name, color, tables.linetype(m.dashes), wide ? MAX_LINEWEIGHT : lineweightOf(m.width));
  return m.subpaths.flatMap((sp) => strokeSubpath(sp, b, wide ? m.width : 0, o.curves));
}

/** Signed area of a closed polygon. */
const area = (pts: Pt[]): number =>
  pts.reduce((s, p, i) => {
    const q = pts[(i + 1) % pts.length] as Pt;
    return s + p[0] * q[1] - q[0] * p[1];
  }, 0) / 2;

const perimeter = (pts: Pt[]): number =>
  pts.reduce((s, p, i) => {
    const q = pts[(i + 1) % pts.length] as Pt;
    return s + Math.hypot(q[0] - p[0], q[1] - p[1]);
  }, 0);

/**
 * A filled loop narrower than this on average is a hairline, mm: a strip's mean width is twice
 * its area over its perimeter.
 */
const HAIRLINE_WIDTH = 0.01;

/** True for a convex quadrilateral (all turns the same way). */
function convex(pts: Pt[]): boolean {
  let sign = 0;
  for (let i = 0; i < pts.length; i++) {
    const a = pts[i] as Pt,
      b = pts[(i + 1) % pts.length] as Pt,
      c = pts[(i + 2) % pts.length] as Pt;
    const cross = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]);
    if (Math.abs(cross) < 1e-12) continue;
    if (sign && Math.sign(cross) !== sign) return false;
    sign = Math.sign(cross);
  }
  return sign !== 0;
}

/**
 * A hatch boundary loop keeping its Beziers: line edges, and one spline edge per run of curves
 * (closed with a line edge back to the start when the path does not end there).
 */
function edgeLoop(sp: Subpath): HatchEdge[] {
  const edges: HatchEdge[] = [];
  let pen = sp.start;
  let run: Pt[] | null = null;
  const endRun = (): void => {
    if (!run) return;
    const n = (run.length - 1) / 3;
    edges.push({
      kind: 'spline',
      degree: 3,
      rational: false,
      periodic: false,
      knots: bezierKnots(n),
      controlPoints: run,
      weights: [],
      fitPoints: [],
    });
    run = null;
  };
  for (const s of sp.segments) {
    if (s.kind === 'curve') {
      run ??= [pen];
      run.push(s.c1, s.c2, s.to);
    } else {
      endRun();
      if (!same(pen, s.to)) edges.push({ kind: 'line', start: pen, end: s.to });
    }
    pen = s.to;
  }
  endRun();
  if (!same(pen, sp.start)) edges.push({ kind: 'line', start: pen, end: sp.start });
  return edges;
}

function fillEntities(m: FillMark, tables: Tables, o: EntityOptions): Entity[] {
  const layer = o.layerOf(m);
  const name = tables.layer(layer.name, layer.color, layer.on);
  const b = base(name, o.ownColor ? colorOf(m.rgb, o.dark) : { aci: 256 }, 'BYLAYER', -1);
  const loops = m.subpaths.map((sp) => ({ sp, points: flatten(sp).points })).filter((l) => l.points.length >= 2);
  // A loop with (next to) no area - a path that goes out and back along itself - still paints
  // the pixels it touches (PDF scan conversion): it shows as a hairline, and becomes one.
  const hairline = (pts: Pt[]): boolean => pts.length < 3 || (2 * Math.abs(area(pts))) / perimeter(pts) < HAIRLINE_WIDTH;
  const thin = loops.filter((l) => hairline(l.points));
  const out: Entity[] = thin.flatMap((l) => strokeSubpath({ ...l.sp, closed: true }, { ...b, lineweight: 0 }, 0, o.curves));
  const kept = loops.filter((l) => !hairline(l.points));
  if (!kept.length) return out;
  const only = kept[0]?.points as Pt[];
  if (
    kept.length === 1 &&
    kept[0]?.sp.segments.every((s) => s.kind === 'line') &&
    (only.length === 3 || (only.length === 4 && convex(only)))
  ) {
    // SOLID corners go in "Z" order: 1, 2, 4, 3.
    const [p1, p2, p3, p4] = only as [Pt, Pt, Pt, Pt | undefined];
    out.push({ ...b, type: 'SOLID', points: [v3(p1), v3(p2), v3(p4 ?? p3), v3(p3)] });
    return out;
  }
  // Loops with Beziers keep them as spline edges (unless polylines were asked for); straight loops are polyline paths.
  const paths = kept.map(({ sp, points }, i): HatchPath => {
    const outer = i === 0 ? 1 : 0;
    if (o.curves === 'spline' && sp.segments.some((s) => s.kind === 'curve')) return { flags: outer, edges: edgeLoop(sp) };
    return { flags: outer | 2, polyline: { vertices: points.map(([x, y]) => ({ x, y, bulge: 0 })), closed: true }, edges: [] };
  });
  const hatch: HatchEntity = {
    ...b,
    type: 'HATCH',
    pattern: 'SOLID',
    solid: true,
    associative: false,
    elevation: 0,
    paths,
    // Odd parity (normal) is the PDF even-odd rule; for non-zero fills with several loops it is the nearest.
    style: 0,
    patternType: 1,
    patternAngle: 0,
    patternScale: 1,
    patternDouble: false,
    patternLines: [],
  };
  out.push(hatch);
  return out;
}

function textEntity(m: TextMark, tables: Tables, o: EntityOptions): TextEntity {
  const layer = o.layerOf(m);
  const name = tables.layer(layer.name, layer.color, layer.on);
  return {
    ...base(name, o.ownColor ? colorOf(m.rgb, o.dark) : { aci: 256 }, 'BYLAYER', -1),
    type: 'TEXT',
    text: m.text,
    insertion: v3(m.start),
    height: m.height,
    rotation: m.rotation,
    widthFactor: m.widthFactor,
    oblique: m.oblique,
    style: tables.textStyle(m.font),
    halign: 0,
    valign: 0,
    generation: 0,
  };
}

/**
 * Joins text runs that continue one another: same baseline direction, height, font, colour and
 * layer, the next starting where the previous ends (a space put in for a small gap).
 */
function mergeText(marks: TextMark[]): TextMark[] {
  const out: TextMark[] = [];
  for (const m of marks) {
    const prev = out[out.length - 1];
    if (
      prev &&
      prev.font === m.font &&
      prev.rgb === m.rgb &&
      prev.ocg === m.ocg &&
      Math.abs(prev.height - m.height) < 1e-3 * m.height &&
      Math.abs(prev.rotation - m.rotation) < 0.01 &&
      prev.widthFactor === m.widthFactor &&
      prev.oblique === m.oblique
    ) {
      const a = (prev.rotation * Math.PI) / 180;
      const dx = m.start[0] - prev.end[0],
        dy = m.start[1] - prev.end[1];
      const along = dx * Math.cos(a) + dy * Math.sin(a);
      const across = -dx * Math.sin(a) + dy * Math.cos(a);
      if (Math.abs(across) < 0.05 * m.height && along > -0.1 * m.height && along < 0.3 * m.height) {
        const space = along > 0.15 * m.height && !prev.text.endsWith(' ') && !m.text.startsWith(' ') ? ' ' : '';
        out[out.length - 1] = { ...prev, text: prev.text + space + m.text, end: m.end };
        continue;
      }
    }
    out.push(m);
  }
  return out;
}

/**
 * The page's background: the fills painted first that cover (nearly, 98 %) the whole page area
 * (`pageArea`, mm²), as PDF writers paint paper colour (white, or the dark model-space colour of a
 * CAD plot). They are not drawing content: taken out of `marks`; answers how many and the colour
 * of the last one (what the page looks like), or null when there is none.
 */
export function takeBackground(marks: Mark[], pageArea: number): { count: number; rgb: number | null } {
  let count = 0;
  let rgb: number | null = null;
  while (count < marks.length) {
    const m = marks[count] as Mark;
    if (m.kind !== 'fill' || m.subpaths.length !== 1) break;
    const pts = flatten(m.subpaths[0] as Subpath).points;
    if (!(pts.length >= 3 && Math.abs(area(pts)) >= 0.98 * pageArea)) break;
    rgb = m.rgb;
    count++;
  }
  marks.splice(0, count);
  return { count, rgb };
}

/** True for a dark colour (luminance below one half): white is then the ink colour. */
export const isDark = (rgb: number): boolean => 0.2126 * ((rgb >> 16) & 255) + 0.7152 * ((rgb >> 8) & 255) + 0.0722 * (rgb & 255) < 128;

/** Entities for one page's marks, in painting order (text merged where it continues). */
export function markEntities(marks: Mark[], tables: Tables, o: EntityOptions): Entity[] {
  const out: Entity[] = [];
  let texts: TextMark[] = [];
  const flushText = (): void => {
    for (const t of mergeText(texts)) out.push(textEntity(t, tables, o));
    texts = [];
  };
  for (const m of marks) {
    if (m.kind === 'text') {
      texts.push(m);
      continue;
    }
    flushText();
    out.push(...(m.kind === 'stroke' ? strokeEntities(m, tables, o) : fillEntities(m, tables, o)));
  }
  flushText();
  return out;
}
