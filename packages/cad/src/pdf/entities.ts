/**
 * Marks (page geometry in mm, see graphics.ts) -> drawing-model entities: strokes become LINE,
 * LWPOLYLINE and SPLINE (or flattened polylines), fills become SOLID or a solid HATCH, text runs
 * become TEXT. Layers, linetypes and text styles are created as the entities need them.
 */
import type { Color, Drawing, Entity, EntityBase, HatchEntity, LwPolylineEntity, SplineEntity, TextEntity, Vec3 } from '../model';
import { aciColor, nearestAci } from '../display/color';
import type { FillMark, Mark, Pt, StrokeMark, Subpath, TextMark } from './graphics';

export interface EntityOptions {
  curves: 'spline' | 'polyline';
  /** Colour layers, or the PDF's optional content groups (names by group id). */
  layerOf: (mark: Mark) => { name: string; color: Color; on?: boolean };
  /** True when entities carry their own colour (OCG layers); else ByLayer. */
  ownColor: boolean;
}

/** Chord tolerance for flattened Beziers, mm. */
export const FLATTEN_TOLERANCE = 0.05;
/** The widest standard lineweight (1/100 mm); wider lines become constant-width polylines. */
const MAX_LINEWEIGHT = 211;
const LINEWEIGHTS = [0, 5, 9, 13, 15, 18, 20, 25, 30, 35, 40, 50, 53, 60, 70, 80, 90, 100, 106, 120, 140, 158, 200, 211];

/** The standard lineweight nearest to a width in mm. */
export function lineweightOf(mm: number): number {
  const w = mm * 100;
  let best = 0;
  for (const lw of LINEWEIGHTS) if (Math.abs(lw - w) < Math.abs(best - w)) best = lw;
  return best;
}

/** A layer or entity colour for 0xRRGGBB: an ACI when one is exactly it (black is ACI 7), else true colour. */
export function colorOf(rgb: number): Color {
  if (rgb === 0) return { aci: 7 };
  for (let i = 1; i < 256; i++) if (i !== 7 && aciColor(i) === rgb) return { aci: i };
  return { aci: nearestAci(rgb), rgb };
}

const same = (a: Pt, b: Pt, eps = 1e-6): boolean => Math.abs(a[0] - b[0]) <= eps && Math.abs(a[1] - b[1]) <= eps;
const v3 = (p: Pt): Vec3 => [p[0], p[1], 0];

/** Points along a cubic Bezier (excluding its start), within `FLATTEN_TOLERANCE`. */
export function flattenCubic(p0: Pt, c1: Pt, c2: Pt, p3: Pt): Pt[] {
  // Max deviation of an n-segment polyline is at most 3/4·M/n², M the largest second difference.
  const m = Math.max(Math.hypot(p0[0] - 2 * c1[0] + c2[0], p0[1] - 2 * c1[1] + c2[1]), Math.hypot(c1[0] - 2 * c2[0] + p3[0], c1[1] - 2 * c2[1] + p3[1]));
  const n = Math.max(1, Math.min(128, Math.ceil(Math.sqrt((0.75 * m) / FLATTEN_TOLERANCE))));
  const out: Pt[] = [];
  for (let i = 1; i <= n; i++) {
    const t = i / n, u = 1 - t;
    const a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t;
    out.push([a * p0[0] + b * c1[0] + c * c2[0] + d * p3[0], a * p0[1] + b * c1[1] + c * c2[1] + d * p3[1]]);
  }
  return out;
}

/** A subpath's vertices with curves flattened; a closing copy of the start is dropped. */
export function flatten(sp: Subpath): { points: Pt[]; closed: boolean } {
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

/** A run of cubic Beziers as one clamped degree-3 B-spline (knots of multiplicity 3 at the joins). */
export function bezierSpline(b: EntityBase, start: Pt, curves: { c1: Pt; c2: Pt; to: Pt }[]): SplineEntity {
  const controlPoints: Vec3[] = [v3(start)];
  for (const c of curves) controlPoints.push(v3(c.c1), v3(c.c2), v3(c.to));
  const knots = [0, 0, 0, 0];
  for (let i = 1; i < curves.length; i++) knots.push(i, i, i);
  knots.push(curves.length, curves.length, curves.length, curves.length);
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
  const color = o.ownColor ? colorOf(m.rgb) : { aci: 256 };
  const wide = m.width * 100 > MAX_LINEWEIGHT;
  const b = base(name, color, tables.linetype(m.dashes), wide ? MAX_LINEWEIGHT : lineweightOf(m.width));
  return m.subpaths.flatMap((sp) => strokeSubpath(sp, b, wide ? m.width : 0, o.curves));
}

/** Signed area of a closed polygon. */
const area = (pts: Pt[]): number => pts.reduce((s, p, i) => {
  const q = pts[(i + 1) % pts.length] as Pt;
  return s + p[0] * q[1] - q[0] * p[1];
}, 0) / 2;

/** True for a convex quadrilateral (all turns the same way). */
function convex(pts: Pt[]): boolean {
  let sign = 0;
  for (let i = 0; i < pts.length; i++) {
    const a = pts[i] as Pt, b = pts[(i + 1) % pts.length] as Pt, c = pts[(i + 2) % pts.length] as Pt;
    const cross = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]);
    if (Math.abs(cross) < 1e-12) continue;
    if (sign && Math.sign(cross) !== sign) return false;
    sign = Math.sign(cross);
  }
  return sign !== 0;
}

function fillEntities(m: FillMark, tables: Tables, o: EntityOptions): Entity[] {
  const layer = o.layerOf(m);
  const name = tables.layer(layer.name, layer.color, layer.on);
  const b = base(name, o.ownColor ? colorOf(m.rgb) : { aci: 256 }, 'BYLAYER', -1);
  const loops = m.subpaths.map(flatten).map((l) => l.points).filter((pts) => pts.length >= 3 && Math.abs(area(pts)) > 1e-9);
  if (!loops.length) return [];
  const only = loops[0] as Pt[];
  if (loops.length === 1 && m.subpaths[0]?.segments.every((s) => s.kind === 'line') && (only.length === 3 || (only.length === 4 && convex(only)))) {
    // SOLID corners go in "Z" order: 1, 2, 4, 3.
    const [p1, p2, p3, p4] = only as [Pt, Pt, Pt, Pt | undefined];
    return [{ ...b, type: 'SOLID', points: [v3(p1), v3(p2), v3(p4 ?? p3), v3(p3)] }];
  }
  const hatch: HatchEntity = {
    ...b,
    type: 'HATCH',
    pattern: 'SOLID',
    solid: true,
    associative: false,
    elevation: 0,
    paths: loops.map((pts, i) => ({ flags: i === 0 ? 3 : 2, polyline: { vertices: pts.map(([x, y]) => ({ x, y, bulge: 0 })), closed: true }, edges: [] })),
    // Odd parity (normal) is the PDF even-odd rule; for non-zero fills with several loops it is the nearest.
    style: 0,
    patternType: 1,
    patternAngle: 0,
    patternScale: 1,
    patternDouble: false,
    patternLines: [],
  };
  return [hatch];
}

function textEntity(m: TextMark, tables: Tables, o: EntityOptions): TextEntity {
  const layer = o.layerOf(m);
  const name = tables.layer(layer.name, layer.color, layer.on);
  return {
    ...base(name, o.ownColor ? colorOf(m.rgb) : { aci: 256 }, 'BYLAYER', -1),
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
export function mergeText(marks: TextMark[]): TextMark[] {
  const out: TextMark[] = [];
  for (const m of marks) {
    const prev = out[out.length - 1];
    if (prev && prev.font === m.font && prev.rgb === m.rgb && prev.ocg === m.ocg && Math.abs(prev.height - m.height) < 1e-3 * m.height && Math.abs(prev.rotation - m.rotation) < 0.01 && prev.widthFactor === m.widthFactor && prev.oblique === m.oblique) {
      const a = (prev.rotation * Math.PI) / 180;
      const dx = m.start[0] - prev.end[0], dy = m.start[1] - prev.end[1];
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
