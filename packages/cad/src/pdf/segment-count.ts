/**
 * What a PDF -> DXF conversion kept, counted the same way for any DXF (ours, or pstoedit's), for
 * the quality bar "at least as many line segments and text items as pstoedit":
 *
 * - straight segments: a LINE is one; a polyline (LWPOLYLINE, 2D/3D POLYLINE) one per straight
 *   edge, closing edge included; a filled area counts its outline, as pstoedit writes a fill as its
 *   outline: a SOLID or TRACE 4 edges (3 for a triangle), a HATCH each straight boundary edge;
 * - curves: one per cubic Bezier span, as pstoedit writes each Bezier as a SPLINE of its own: a
 *   SPLINE counts its non-empty knot spans, so does a HATCH spline edge; a polyline edge with a
 *   bulge, an ARC, CIRCLE or ELLIPSE (and a hatch arc or ellipse edge) one each;
 * - text items: TEXT and MTEXT, one each.
 *
 * Some things are not drawing content and are left out on both sides: zero-length segments, whose
 * ends are the same point written with 6 significant digits as pstoedit writes coordinates (it
 * writes the closing edge of a path already back at its start), outlines lying wholly inside
 * a word of the PDF's text layer (`pdftotext -bbox`), which is text drawn as glyph outlines
 * (pstoedit draws text in embedded CID and Type 3 fonts that way, where we write TEXT), and
 * straight segments lying on the page border, the outline of the page's background fill (which
 * pstoedit writes as four lines and we leave out, see `takeBackground`).
 */
import type { Entity, HatchEdge } from '../model';
import type { Vec3 } from '../geom/vector';

export interface SegmentCount {
  lines: number;
  curves: number;
  texts: number;
  /** Straight segments and curves left out as glyph outlines (inside a word box). */
  glyphOutlines: number;
  /** Straight segments left out as the page background's outline. */
  pageBorder: number;
  /** Straight segments of no length, left out. */
  zeroLength: number;
}

/** An axis-aligned box in drawing units: x0 <= x1, y0 <= y1. */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface CountOptions {
  /** Word boxes: geometry wholly inside one is a glyph outline. */
  words?: Box[];
  /** The page: straight segments along its border are the background's outline. */
  page?: Box;
  /** Distance that counts as "on the border", drawing units (default 0.05). */
  borderTolerance?: number;
}

type P2 = [number, number];

/** A coordinate as pstoedit writes it (C's %g: 6 significant digits). */
const g6 = (v: number): number => Number(v.toPrecision(6));
/** True when both ends of a segment are the same point at pstoedit's precision. */
const zeroLength = (a: P2, b: P2): boolean => g6(a[0]) === g6(b[0]) && g6(a[1]) === g6(b[1]);

/** Non-empty knot spans of a B-spline (a clamped Bezier run has one per Bezier). */
export function knotSpans(knots: readonly number[]): number {
  let n = 0;
  for (let i = 1; i < knots.length; i++) if ((knots[i] as number) > (knots[i - 1] as number) + 1e-12) n++;
  return Math.max(1, n);
}

const inBox = (p: readonly number[], b: Box): boolean =>
  (p[0] ?? NaN) >= b.x0 && (p[0] ?? NaN) <= b.x1 && (p[1] ?? NaN) >= b.y0 && (p[1] ?? NaN) <= b.y1;

/** The points an entity's outline passes through or is bounded by (control points for curves). */
function pointsOf(e: Entity): (readonly number[])[] {
  switch (e.type) {
    case 'LINE':
      return [e.start, e.end];
    case 'LWPOLYLINE':
      return e.vertices.map((v) => [v.x, v.y]);
    case 'POLYLINE':
      return e.vertices.map((v) => v.position);
    case 'SPLINE':
      return e.controlPoints.length ? e.controlPoints : e.fitPoints;
    case 'SOLID':
    case 'TRACE':
      return e.points;
    case 'ARC':
    case 'CIRCLE':
      return [
        [e.center[0] - e.radius, e.center[1] - e.radius],
        [e.center[0] + e.radius, e.center[1] + e.radius],
      ];
    case 'ELLIPSE': {
      const r = Math.hypot(e.majorAxis[0], e.majorAxis[1]);
      return [
        [e.center[0] - r, e.center[1] - r],
        [e.center[0] + r, e.center[1] + r],
      ];
    }
    case 'HATCH':
      return e.paths.flatMap((p) => (p.polyline ? p.polyline.vertices.map((v) => [v.x, v.y]) : p.edges.flatMap(edgePoints)));
    case 'TEXT':
    case 'MTEXT':
      return [e.insertion];
    default:
      return [];
  }
}

function edgePoints(ed: HatchEdge): P2[] {
  switch (ed.kind) {
    case 'line':
      return [ed.start, ed.end];
    case 'spline':
      return ed.controlPoints;
    case 'arc':
      return [
        [ed.center[0] - ed.radius, ed.center[1] - ed.radius],
        [ed.center[0] + ed.radius, ed.center[1] + ed.radius],
      ];
    case 'ellipse': {
      const r = Math.hypot(ed.majorAxis[0], ed.majorAxis[1]);
      return [
        [ed.center[0] - r, ed.center[1] - r],
        [ed.center[0] + r, ed.center[1] + r],
      ];
    }
  }
}

/** Straight edges and curves of one entity: [straight edges as point pairs, curve count]. */
function pieces(e: Entity): { edges: [P2, P2][]; curves: number } {
  const ring = (pts: P2[], closed: boolean): [P2, P2][] => {
    const out: [P2, P2][] = [];
    for (let i = 0; i + 1 < pts.length; i++) out.push([pts[i] as P2, pts[i + 1] as P2]);
    if (closed && pts.length > 2) out.push([pts[pts.length - 1] as P2, pts[0] as P2]);
    return out;
  };
  const xy = (p: Vec3 | readonly number[]): P2 => [p[0] ?? 0, p[1] ?? 0];
  switch (e.type) {
    case 'LINE':
      return { edges: [[xy(e.start), xy(e.end)]], curves: 0 };
    case 'LWPOLYLINE':
    case 'POLYLINE': {
      if (e.type === 'POLYLINE' && (e.kind === 'polyface' || e.kind === 'mesh')) return { edges: [], curves: 0 };
      const vs =
        e.type === 'LWPOLYLINE'
          ? e.vertices.map((v) => ({ p: [v.x, v.y] as P2, bulge: v.bulge }))
          : e.vertices.map((v) => ({ p: xy(v.position), bulge: v.bulge }));
      const edges: [P2, P2][] = [];
      let curves = 0;
      const n = vs.length;
      const count = e.closed && n > 2 ? n : n - 1;
      for (let i = 0; i < count; i++) {
        const a = vs[i],
          b = vs[(i + 1) % n];
        if (!a || !b) continue;
        if (a.bulge) curves++;
        else edges.push([a.p, b.p]);
      }
      return { edges, curves };
    }
    case 'SOLID':
    case 'TRACE': {
      // Corners in "Z" order 1, 2, 4, 3; a triangle repeats the third.
      const [p1, p2, p3, p4] = e.points.map(xy) as [P2, P2, P2, P2];
      const triangle = p3[0] === p4[0] && p3[1] === p4[1];
      return { edges: ring(triangle ? [p1, p2, p3] : [p1, p2, p4, p3], true), curves: 0 };
    }
    case 'SPLINE':
      return { edges: [], curves: knotSpans(e.knots) };
    case 'ARC':
    case 'CIRCLE':
    case 'ELLIPSE':
      return { edges: [], curves: 1 };
    case 'HATCH': {
      const edges: [P2, P2][] = [];
      let curves = 0;
      for (const path of e.paths) {
        if (path.polyline) {
          const vs = path.polyline.vertices;
          const n = vs.length;
          for (let i = 0; i < n; i++) {
            const a = vs[i],
              b = vs[(i + 1) % n];
            if (!a || !b || (i === n - 1 && !path.polyline.closed)) continue;
            if (a.bulge) curves++;
            else
              edges.push([
                [a.x, a.y],
                [b.x, b.y],
              ]);
          }
          continue;
        }
        for (const ed of path.edges) {
          if (ed.kind === 'line') edges.push([ed.start, ed.end]);
          else if (ed.kind === 'spline') curves += knotSpans(ed.knots);
          else curves++;
        }
      }
      return { edges, curves };
    }
    default:
      return { edges: [], curves: 0 };
  }
}

/** True when a straight edge lies along one side of the page box. */
function onBorder(a: P2, b: P2, page: Box, tol: number): boolean {
  const near = (u: number, v: number): boolean => Math.abs(u - v) <= tol;
  return (
    (near(a[0], page.x0) && near(b[0], page.x0)) ||
    (near(a[0], page.x1) && near(b[0], page.x1)) ||
    (near(a[1], page.y0) && near(b[1], page.y0)) ||
    (near(a[1], page.y1) && near(b[1], page.y1))
  );
}

/** Counts straight segments, curves and text items of a DXF's entities (see the top of this file). */
export function countSegments(entities: readonly Entity[], options: CountOptions = {}): SegmentCount {
  const out: SegmentCount = { lines: 0, curves: 0, texts: 0, glyphOutlines: 0, pageBorder: 0, zeroLength: 0 };
  const words = options.words ?? [];
  const tol = options.borderTolerance ?? 0.05;
  for (const e of entities) {
    if (e.type === 'TEXT' || e.type === 'MTEXT') {
      out.texts++;
      continue;
    }
    const { edges, curves } = pieces(e);
    if (!edges.length && !curves) continue;
    const pts = pointsOf(e);
    if (words.length && pts.length && words.some((w) => pts.every((p) => inBox(p, w)))) {
      out.glyphOutlines += edges.length + curves;
      continue;
    }
    out.curves += curves;
    for (const [a, b] of edges) {
      if (zeroLength(a, b)) out.zeroLength++;
      else if (options.page && onBorder(a, b, options.page, tol)) out.pageBorder++;
      else out.lines++;
    }
  }
  return out;
}

/**
 * Word boxes from `pdftotext -bbox` output (XHTML, points, y down from the page top) for page
 * `pageIndex` (0-based), in millimetres y up (the drawing's page coordinates), each grown by
 * `grow` times its height on every side: glyph outlines reach past the box pdftotext reports,
 * most for text at an angle, whose box it only approximates (by a few points at 30 degrees).
 */
export function wordBoxes(xhtml: string, pageIndex = 0, grow = 0.5): { page: Box; words: Box[] } | null {
  const pages = xhtml.split(/<page\b/).slice(1);
  const page = pages[pageIndex];
  if (page === undefined) return null;
  const K = 25.4 / 72;
  const width = Number(/width="([\d.]+)"/.exec(page)?.[1] ?? NaN);
  const height = Number(/height="([\d.]+)"/.exec(page)?.[1] ?? NaN);
  if (!Number.isFinite(width) || !Number.isFinite(height)) return null;
  const words: Box[] = [];
  for (const m of page.matchAll(/<word xMin="([-\d.]+)" yMin="([-\d.]+)" xMax="([-\d.]+)" yMax="([-\d.]+)"/g)) {
    const [x0, y0, x1, y1] = [m[1], m[2], m[3], m[4]].map(Number) as [number, number, number, number];
    const g = (y1 - y0) * grow;
    words.push({ x0: (x0 - g) * K, x1: (x1 + g) * K, y0: (height - y1 - g) * K, y1: (height - y0 + g) * K });
  }
  return { page: { x0: 0, y0: 0, x1: width * K, y1: height * K }, words };
}
