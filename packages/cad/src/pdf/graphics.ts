/**
 * One PDF page's operator list (pdf.js `getOperatorList`) replayed with the full graphics state:
 * the transform stack, line width, dashes, colours, the text state and optional content. The
 * result is a list of marks in page millimetres, y up; `entities.ts` turns them into CAD entities.
 * What the page does not show (outside the page, a clipping path or a form's box) is cut away
 * (`clip.ts`). Pure: no pdf.js import (the operator numbers are pdf.js' `OPS`, checked by a test).
 */
import { clipFill, clipRegionOf, clipStroke, intersectRegions, isInside, type ConvexPolygon } from './clip';
import { affineMultiply, type Affine2D } from '../geom/matrix';
import type { Pt, Segment, Subpath } from './path';

const IDENTITY: Affine2D = [1, 0, 0, 1, 0, 0];

/** pdf.js operator numbers used here (pdf.js `OPS`). */
export const OP = {
  setLineWidth: 2,
  setDash: 6,
  setGState: 9,
  save: 10,
  restore: 11,
  transform: 12,
  moveTo: 13,
  lineTo: 14,
  curveTo: 15,
  curveTo2: 16,
  curveTo3: 17,
  closePath: 18,
  rectangle: 19,
  stroke: 20,
  closeStroke: 21,
  fill: 22,
  eoFill: 23,
  fillStroke: 24,
  eoFillStroke: 25,
  closeFillStroke: 26,
  closeEOFillStroke: 27,
  endPath: 28,
  clip: 29,
  eoClip: 30,
  beginText: 31,
  endText: 32,
  setCharSpacing: 33,
  setWordSpacing: 34,
  setHScale: 35,
  setLeading: 36,
  setFont: 37,
  setTextRenderingMode: 38,
  setTextRise: 39,
  moveText: 40,
  setLeadingMoveText: 41,
  setTextMatrix: 42,
  nextLine: 43,
  showText: 44,
  showSpacedText: 45,
  setStrokeColorN: 53,
  setFillColorN: 55,
  setStrokeRGBColor: 58,
  setFillRGBColor: 59,
  shadingFill: 62,
  beginMarkedContent: 69,
  beginMarkedContentProps: 70,
  endMarkedContent: 71,
  paintFormXObjectBegin: 74,
  paintFormXObjectEnd: 75,
  beginGroup: 76,
  endGroup: 77,
  beginAnnotation: 80,
  endAnnotation: 81,
  paintImageMaskXObject: 83,
  paintImageMaskXObjectGroup: 84,
  paintImageXObject: 85,
  paintInlineImageXObject: 86,
  paintInlineImageXObjectGroup: 87,
  paintImageXObjectRepeat: 88,
  paintImageMaskXObjectRepeat: 89,
  paintSolidColorImageMask: 90,
  constructPath: 91,
  setStrokeTransparent: 92,
  setFillTransparent: 93,
} as const;

const IMAGE_OPS = new Set<number>([
  OP.paintImageMaskXObject,
  OP.paintImageMaskXObjectGroup,
  OP.paintImageXObject,
  OP.paintInlineImageXObject,
  OP.paintInlineImageXObjectGroup,
  OP.paintImageXObjectRepeat,
  OP.paintImageMaskXObjectRepeat,
  OP.paintSolidColorImageMask,
]);

const apply = (m: Affine2D, x: number, y: number): Pt => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
const applyVector = (m: Affine2D, x: number, y: number): Pt => [m[0] * x + m[2] * y, m[1] * x + m[3] * y];
/** The mean length scale of a matrix (line widths and dashes scale by it). */
const meanScale = (m: Affine2D): number => Math.sqrt(Math.abs(m[0] * m[3] - m[1] * m[2]));

/** Where a mark belongs: its colour and, when the page has them, its optional content group. */
interface MarkBase {
  /** 0xRRGGBB. */
  rgb: number;
  /** Optional content group id (pdf.js ref string), when inside one. */
  ocg?: string;
}

export interface StrokeMark extends MarkBase {
  kind: 'stroke';
  subpaths: Subpath[];
  /** Line width in mm (0 = the thinnest line). */
  width: number;
  /** Dash and gap lengths in mm ([] = solid). */
  dashes: number[];
}

export interface FillMark extends MarkBase {
  kind: 'fill';
  subpaths: Subpath[];
  evenOdd: boolean;
}

export interface TextMark extends MarkBase {
  kind: 'text';
  text: string;
  /** Baseline start and end, mm. */
  start: Pt;
  end: Pt;
  /** Height (the font size scaled to mm), rotation in degrees, width factor, oblique in degrees. */
  height: number;
  rotation: number;
  widthFactor: number;
  oblique: number;
  /** Font family without the subset prefix ('' when unknown). */
  font: string;
  mirrored: boolean;
}

export type Mark = StrokeMark | FillMark | TextMark;

export interface FontInfo {
  family: string;
  fontMatrix: Affine2D;
  vertical: boolean;
}

export interface PageMarks {
  marks: Mark[];
  images: number;
  /**
   * Counts for the notes: paths and text items cut or left out because they lie (partly) outside
   * the visible area (`clipped`), and things not converted or approximated (the others).
   */
  clipped: number;
  shadings: number;
  patternFills: number;
  invisibleText: number;
  verticalText: number;
}

interface GlyphLike {
  unicode?: string;
  width?: number;
  isSpace?: boolean;
}

interface State {
  ctm: Affine2D;
  lineWidth: number;
  dash: number[];
  dashPhase: number;
  stroke: number | null;
  fill: number | null;
  font: FontInfo | null;
  fontSize: number;
  charSpacing: number;
  wordSpacing: number;
  hScale: number;
  leading: number;
  rise: number;
  renderMode: number;
  /** The visible region ([] = nothing visible), or null for no limit. */
  clip: ConvexPolygon | null;
}

const initialState = (ctm: Affine2D, clip: ConvexPolygon | null): State => ({
  ctm,
  lineWidth: 1,
  dash: [],
  dashPhase: 0,
  stroke: 0,
  fill: 0,
  font: null,
  fontSize: 0,
  charSpacing: 0,
  wordSpacing: 0,
  hScale: 1,
  leading: 0,
  rise: 0,
  renderMode: 0,
  clip,
});

const num = (v: unknown, fallback = 0): number => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : ArrayBuffer.isView(v) ? Array.from(v as unknown as ArrayLike<number>) : []);
const affine = (v: unknown): Affine2D | null => {
  const a = list(v);
  return a.length >= 6 && a.slice(0, 6).every((x) => typeof x === 'number') ? (a.slice(0, 6) as Affine2D) : null;
};
const rgbOf = (v: unknown): number => {
  const [r, g, b] = list(v).map((x) => Math.max(0, Math.min(255, Math.round(num(x)))));
  return ((r ?? 0) << 16) | ((g ?? 0) << 8) | (b ?? 0);
};
/** Pattern and shading fills have no single colour: drawn in mid grey. */
const PATTERN_GREY = 0x808080;

/**
 * CAD text height is the height of a capital, PDF font size the em: capitals are about 0.72 em in
 * Latin fonts; Chinese, Japanese and Korean characters fill a square cell as high as the text
 * (an SHX big font's, which our renderer sets at an em of the text height: text/fonts.ts), so a
 * height survives a round trip through PDF.
 */
const LATIN_CAP_RATIO = 0.72;
export const CJK_CAP_RATIO = 1;
const CJK = /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/;
const capRatio = (text: string): number => (CJK.test(text) ? CJK_CAP_RATIO : LATIN_CAP_RATIO);

/** A text run being built from consecutive glyphs. */
interface Run {
  text: string;
  start: Pt;
  /** The text matrix (times CTM and page) at the run's start, for its axes. */
  frame: Affine2D;
  state: State;
  ocg: string | undefined;
}

/** A rectangle [x0, y0, x1, y1] of user space under `m`, as a region. */
export function rectRegion(rect: ArrayLike<number>, m: Affine2D): ConvexPolygon | null {
  const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = Array.from(rect);
  return clipRegionOf([
    {
      start: apply(m, x0, y0),
      segments: [apply(m, x1, y0), apply(m, x1, y1), apply(m, x0, y1)].map((to) => ({ kind: 'line', to })),
      closed: true,
    },
  ]);
}

/**
 * Replays one page. `page` maps PDF user space to drawing millimetres (view box, rotation, scale,
 * the page's place in model space); `fontOf` gives a pdf.js font by its loaded name; `visible`
 * is the page's visible area in drawing millimetres (its crop box), or null for no limit.
 */
export function replayPage(
  fnArray: ArrayLike<number>,
  argsArray: ArrayLike<unknown>,
  page: Affine2D,
  fontOf: (id: string) => FontInfo | null,
  visible: ConvexPolygon | null = null,
): PageMarks {
  const out: PageMarks = { marks: [], images: 0, clipped: 0, shadings: 0, patternFills: 0, invisibleText: 0, verticalText: 0 };
  let st = initialState(page, visible);
  /** A W or W* seen: the current path becomes the clip once it is painted (or ended). */
  let pendingClip = false;
  const stack: State[] = [];
  const ocgStack: (string | null)[] = [];
  let path: Subpath[] = [];
  let current: Subpath | null = null;
  let pen: Pt = [0, 0];
  let tm: Affine2D = IDENTITY;
  let tlm: Affine2D = IDENTITY;
  let run: Run | null = null;

  const ocg = (): string | undefined => {
    for (let i = ocgStack.length - 1; i >= 0; i--) if (ocgStack[i]) return ocgStack[i] ?? undefined;
    return undefined;
  };
  const push = (): void => {
    stack.push({ ...st });
  };
  const pop = (): void => {
    const s = stack.pop();
    if (s) st = s;
  };
  const at = (x: number, y: number): Pt => apply(st.ctm, x, y);
  const narrowClip = (region: ConvexPolygon | null): void => {
    const r = region ?? [];
    st.clip = st.clip ? (st.clip.length && r.length ? intersectRegions(st.clip, r) : []) : r;
  };

  const moveTo = (p: Pt): void => {
    current = { start: p, segments: [], closed: false };
    path.push(current);
    pen = p;
  };
  const segment = (s: Segment): void => {
    if (!current) moveTo(pen);
    current?.segments.push(s);
    pen = s.to;
  };
  const closePath = (): void => {
    if (!current) return;
    current.closed = true;
    pen = current.start;
    current = null;
  };
  const construct = (ops: unknown[], args: unknown[]): void => {
    let j = 0;
    const a = (): number => num(args[j++]);
    for (const op of ops) {
      switch (op) {
        case OP.moveTo:
          moveTo(at(a(), a()));
          break;
        case OP.lineTo:
          segment({ kind: 'line', to: at(a(), a()) });
          break;
        case OP.curveTo: {
          const c1 = at(a(), a()),
            c2 = at(a(), a()),
            to = at(a(), a());
          segment({ kind: 'curve', c1, c2, to });
          break;
        }
        case OP.curveTo2: {
          // 'v': the first control point is the current point.
          const c1 = pen,
            c2 = at(a(), a()),
            to = at(a(), a());
          segment({ kind: 'curve', c1, c2, to });
          break;
        }
        case OP.curveTo3: {
          // 'y': the second control point is the end point.
          const c1 = at(a(), a()),
            to = at(a(), a());
          segment({ kind: 'curve', c1, c2: to, to });
          break;
        }
        case OP.rectangle: {
          const x = a(),
            y = a(),
            w = a(),
            h = a();
          moveTo(at(x, y));
          segment({ kind: 'line', to: at(x + w, y) });
          segment({ kind: 'line', to: at(x + w, y + h) });
          segment({ kind: 'line', to: at(x, y + h) });
          closePath();
          break;
        }
        case OP.closePath:
          closePath();
          break;
      }
    }
  };

  /** The subpaths as the clip leaves them (counting what it cut), or null when nothing is left. */
  const visibleOf = (subpaths: Subpath[], cutter: typeof clipStroke): Subpath[] | null => {
    const clip = st.clip;
    if (!clip) return subpaths;
    if (clip.length < 3) {
      out.clipped++;
      return null;
    }
    const r = cutter(subpaths, clip);
    if (r.cut) out.clipped++;
    return r.subpaths.length ? r.subpaths : null;
  };
  const paint = (stroke: boolean, fill: boolean, evenOdd: boolean, close: boolean): void => {
    if (close && current) closePath();
    const subpaths = path.filter((s) => s.segments.length > 0);
    if (subpaths.length) {
      const where = ocg();
      const filled = fill && st.fill !== null ? visibleOf(subpaths, clipFill) : null;
      if (filled && st.fill !== null)
        out.marks.push({ kind: 'fill', subpaths: filled, evenOdd, rgb: st.fill, ...(where ? { ocg: where } : {}) });
      const stroked = stroke && st.stroke !== null ? visibleOf(subpaths, clipStroke) : null;
      if (stroked && st.stroke !== null) {
        const scale = meanScale(st.ctm);
        out.marks.push({
          kind: 'stroke',
          subpaths: stroked,
          width: st.lineWidth * scale,
          dashes: st.dash.map((d) => d * scale),
          rgb: st.stroke,
          ...(where ? { ocg: where } : {}),
        });
      }
    }
    // W n / W f: the path clips what comes after it, not its own painting.
    if (pendingClip) {
      narrowClip(clipRegionOf(path));
      pendingClip = false;
    }
    path = [];
    current = null;
  };

  // ---- text --------------------------------------------------------------------------------------
  const frame = (): Affine2D => affineMultiply(st.ctm, tm);
  const flush = (): void => {
    if (!run) return;
    const r = run;
    run = null;
    const text = r.text.trimEnd();
    if (!text.trim()) return;
    const f = r.frame;
    const s = r.state;
    const [xx, xy] = applyVector(f, 1, 0);
    const [yx, yy] = applyVector(f, 0, 1);
    const xLen = Math.hypot(xx, xy),
      yLen = Math.hypot(yx, yy);
    if (!(xLen > 0 && yLen > 0)) return;
    const rotation = (Math.atan2(xy, xx) * 180) / Math.PI;
    const cross = xx * yy - xy * yx;
    const between = (Math.acos(Math.max(-1, Math.min(1, (xx * yx + xy * yy) / (xLen * yLen)))) * 180) / Math.PI;
    const ratio = (xLen * s.hScale) / yLen;
    const end = apply(affineMultiply(st.ctm, tm), 0, s.rise);
    if (s.clip && !(s.clip.length >= 3 && (isInside(r.start, s.clip) || isInside(end, s.clip)))) {
      out.clipped++;
      return;
    }
    out.marks.push({
      kind: 'text',
      text,
      start: r.start,
      end,
      height: Math.abs(s.fontSize) * yLen * capRatio(text),
      rotation: rotation < 0 ? rotation + 360 : rotation,
      widthFactor: Math.abs(ratio - 1) < 0.01 ? 1 : ratio,
      oblique: Math.abs(90 - between) < 0.5 ? 0 : 90 - between,
      font: s.font?.family ?? '',
      mirrored: cross < 0,
      rgb: (s.renderMode === 1 ? s.stroke : s.fill) ?? 0,
      ...(r.ocg ? { ocg: r.ocg } : {}),
    });
  };
  const advance = (dx: number): void => {
    tm = affineMultiply(tm, [1, 0, 0, 1, dx * st.hScale, 0]);
  };
  const showText = (glyphs: unknown[]): void => {
    const font = st.font;
    if (!font) return;
    const size = st.fontSize;
    if (font.vertical) out.verticalText++;
    if (st.renderMode === 3 || st.renderMode === 7) {
      // Invisible text (the OCR layer of a scanned page): not drawn, so not converted.
      out.invisibleText++;
    }
    const visible = st.renderMode !== 3 && st.renderMode !== 7;
    const scaleX = size * (font.fontMatrix[0] || 0.001);
    for (const g of glyphs) {
      if (typeof g === 'number') {
        const dx = (-g * size) / 1000;
        // A wide TJ gap splits the run; a word-sized one is a space.
        if (run && Math.abs(dx) > 1.5 * Math.abs(size)) flush();
        else if (run && dx > 0.2 * Math.abs(size) && !run.text.endsWith(' ')) run.text += ' ';
        advance(dx);
        continue;
      }
      if (!g || typeof g !== 'object') continue;
      const glyph = g as GlyphLike;
      const ch = typeof glyph.unicode === 'string' ? glyph.unicode : '';
      if (visible && !run && ch.trim()) {
        const f = frame();
        run = { text: '', start: apply(f, 0, st.rise), frame: f, state: { ...st }, ocg: ocg() };
      }
      if (run) run.text += ch;
      const spacing = (glyph.isSpace ? st.wordSpacing : 0) + st.charSpacing;
      advance(num(glyph.width) * scaleX + spacing);
    }
    flush();
  };
  const moveText = (x: number, y: number): void => {
    tlm = affineMultiply(tlm, [1, 0, 0, 1, x, y]);
    tm = tlm;
  };

  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i];
    const args = list(argsArray[i]);
    switch (fn) {
      case OP.save:
        push();
        break;
      case OP.restore:
        pop();
        break;
      case OP.transform: {
        const m = affine(args);
        if (m) st.ctm = affineMultiply(st.ctm, m);
        break;
      }
      case OP.paintFormXObjectBegin: {
        push();
        const m = affine(args[0]);
        if (m) st.ctm = affineMultiply(st.ctm, m);
        // The form shows only what lies inside its bounding box.
        const bbox = list(args[1]);
        if (bbox.length === 4) narrowClip(rectRegion(bbox as number[], st.ctm));
        break;
      }
      case OP.beginGroup: {
        // A transparency group around a form: the form's own begin (which follows) applies its
        // matrix; the group's box, in the form's space, limits what shows.
        push();
        const g = args[0] as { matrix?: unknown; bbox?: unknown } | undefined;
        const bbox = list(g?.bbox);
        if (bbox.length === 4) narrowClip(rectRegion(bbox as number[], affineMultiply(st.ctm, affine(g?.matrix) ?? IDENTITY)));
        break;
      }
      case OP.beginAnnotation: {
        // An annotation's appearance: its own state, placed from the page's user space.
        push();
        st = initialState(page, visible);
        for (const m of [affine(args[2]), affine(args[3])]) if (m) st.ctm = affineMultiply(st.ctm, m);
        break;
      }
      case OP.paintFormXObjectEnd:
      case OP.endGroup:
      case OP.endAnnotation:
        pop();
        break;
      case OP.setLineWidth:
        st.lineWidth = num(args[0], 1);
        break;
      case OP.setDash:
        setDash(st, args[0], args[1]);
        break;
      case OP.setGState:
        for (const entry of list(args[0])) {
          const [key, value] = list(entry);
          if (key === 'LW') st.lineWidth = num(value, 1);
          else if (key === 'D') setDash(st, list(value)[0], list(value)[1]);
          else if (key === 'Font') {
            const [id, size] = list(value);
            if (typeof id === 'string') st.font = fontOf(id);
            st.fontSize = num(size);
          }
        }
        break;
      case OP.setStrokeRGBColor:
        st.stroke = rgbOf(args);
        break;
      case OP.setFillRGBColor:
        st.fill = rgbOf(args);
        break;
      case OP.setStrokeColorN:
        st.stroke = PATTERN_GREY;
        out.patternFills++;
        break;
      case OP.setFillColorN:
        st.fill = PATTERN_GREY;
        out.patternFills++;
        break;
      case OP.setStrokeTransparent:
        st.stroke = null;
        break;
      case OP.setFillTransparent:
        st.fill = null;
        break;
      case OP.constructPath:
        construct(list(args[0]), list(args[1]));
        break;
      case OP.moveTo:
      case OP.lineTo:
      case OP.curveTo:
      case OP.curveTo2:
      case OP.curveTo3:
      case OP.rectangle:
      case OP.closePath:
        construct([fn], args);
        break;
      case OP.stroke:
        paint(true, false, false, false);
        break;
      case OP.closeStroke:
        paint(true, false, false, true);
        break;
      case OP.fill:
        paint(false, true, false, false);
        break;
      case OP.eoFill:
        paint(false, true, true, false);
        break;
      case OP.fillStroke:
        paint(true, true, false, false);
        break;
      case OP.eoFillStroke:
        paint(true, true, true, false);
        break;
      case OP.closeFillStroke:
        paint(true, true, false, true);
        break;
      case OP.closeEOFillStroke:
        paint(true, true, true, true);
        break;
      case OP.endPath:
        paint(false, false, false, false);
        break;
      case OP.clip:
      case OP.eoClip:
        pendingClip = true;
        break;
      case OP.shadingFill:
        out.shadings++;
        break;
      case OP.beginText:
        tm = IDENTITY;
        tlm = IDENTITY;
        break;
      case OP.endText:
        flush();
        break;
      case OP.setCharSpacing:
        st.charSpacing = num(args[0]);
        break;
      case OP.setWordSpacing:
        st.wordSpacing = num(args[0]);
        break;
      case OP.setHScale:
        st.hScale = num(args[0], 100) / 100;
        break;
      case OP.setLeading:
        st.leading = num(args[0]);
        break;
      case OP.setFont:
        st.font = typeof args[0] === 'string' ? fontOf(args[0]) : null;
        st.fontSize = num(args[1]);
        break;
      case OP.setTextRenderingMode:
        st.renderMode = num(args[0]);
        break;
      case OP.setTextRise:
        st.rise = num(args[0]);
        break;
      case OP.moveText:
        moveText(num(args[0]), num(args[1]));
        break;
      case OP.setLeadingMoveText:
        st.leading = -num(args[1]);
        moveText(num(args[0]), num(args[1]));
        break;
      case OP.setTextMatrix: {
        const m = affine(args);
        if (m) {
          tm = m;
          tlm = m;
        }
        break;
      }
      case OP.nextLine:
        moveText(0, -st.leading);
        break;
      case OP.showText:
      case OP.showSpacedText:
        showText(list(args[0]));
        break;
      case OP.beginMarkedContent:
        ocgStack.push(null);
        break;
      case OP.beginMarkedContentProps: {
        const props = args[1] as { type?: string; id?: string; ids?: string[] } | null | undefined;
        const id = args[0] === 'OC' && props ? (props.type === 'OCG' ? props.id : props.ids?.[0]) : undefined;
        ocgStack.push(typeof id === 'string' ? id : null);
        break;
      }
      case OP.endMarkedContent:
        ocgStack.pop();
        break;
      default:
        if (fn !== undefined && IMAGE_OPS.has(fn)) out.images++;
    }
  }
  flush();
  return out;
}

function setDash(st: State, array: unknown, phase: unknown): void {
  const d = list(array).map((x) => Math.abs(num(x)));
  // An odd-length array repeats (PDF 8.4.3.6); all zeros means solid.
  st.dash = d.some((x) => x > 0) ? (d.length % 2 ? [...d, ...d] : d) : [];
  st.dashPhase = num(phase);
}
