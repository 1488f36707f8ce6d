/**
 * TEXT, ATTRIB, ATTDEF and MTEXT → text primitives (TrueType fonts) and strokes (SHX fonts,
 * underlines, fraction bars), with CAD placement: alignment, width factor, oblique, mirroring,
 * the %% control codes, MTEXT inline codes, word wrap, columns, attachment and background.
 */
import type { Drawing, MTextEntity, TextEntity, TextStyle } from '../model';
import type { DrawContext, EntityHandler } from './context';
import { affineMultiply, isDefaultExtrusion, ocsToWcs, textMatrix, type Affine2D, type Mat } from '../geom/matrix';
import { fontRuns, type FontOverride, type ResolvedFont } from '../text/fonts';
import { layoutMText, type Shaped, type Shaper, type StackShape } from '../text/layout';
import { parseMText, SPECIAL, type MTextFormat, type MTextItem } from '../text/mtext-parser';
import type { Vec3 } from '../geom/vector';

// ---- shared helpers ---------------------------------------------------------------------------

const styleMaps = new WeakMap<Drawing, Map<string, TextStyle>>();

/** A text style by name, case-insensitive (entities say 'STANDARD', tables 'Standard'). */
function findStyle(drawing: Drawing, name: string): TextStyle | undefined {
  const direct = drawing.textStyles[name];
  if (direct) return direct;
  let map = styleMaps.get(drawing);
  if (!map) {
    map = new Map(Object.values(drawing.textStyles).map((s) => [s.name.toUpperCase(), s]));
    styleMaps.set(drawing, map);
  }
  return map.get((name || 'STANDARD').toUpperCase()) ?? map.get('STANDARD');
}

function defaultHeight(drawing: Drawing, style: TextStyle | undefined): number {
  if (style && style.fixedHeight > 0) return style.fixedHeight;
  const t = drawing.header.textsize;
  return typeof t === 'number' && t > 0 ? t : 2.5;
}

/** 2D affine → the 3D matrix ctx.stroke/fill take (z ignored). */
function affineToMat(a: Affine2D): Mat {
  return [a[0], a[2], 0, a[4], a[1], a[3], 0, a[5], 0, 0, 1, 0];
}

interface ShapedRun {
  text: string;
  font: ResolvedFont;
  /** Font size (em) in text-space units. */
  size: number;
  /** Advance in text-space units (width factor and tracking included). */
  width: number;
}

interface ShapedText extends Shaped {
  runs: ShapedRun[];
  widthFactor: number;
  /** Radians. */
  oblique: number;
  tracking: number;
  height: number;
}

function shapeText(
  ctx: DrawContext,
  style: TextStyle | undefined,
  text: string,
  height: number,
  widthFactor: number,
  obliqueDeg: number,
  tracking = 1,
  override?: FontOverride,
): ShapedText {
  const runs: ShapedRun[] = [];
  let width = 0;
  const wf = widthFactor > 0 ? widthFactor : 1;
  for (const r of fontRuns(ctx.fonts, style, text, override)) {
    const size = height / (r.font.capHeight > 0 ? r.font.capHeight : 0.72);
    const w = r.font.measure(r.text) * size * wf * tracking;
    runs.push({ text: r.text, font: r.font, size, width: w });
    width += w;
  }
  return { width, runs, widthFactor: wf, oblique: (obliqueDeg * Math.PI) / 180, tracking, height };
}

function stripControl(s: string): string {
  let out = '';
  for (const ch of s) if (ch >= ' ') out += ch;
  return out;
}

/** Emits a shaped piece with its baseline start at (x, y) of `base` (text space → world). */
function emitShaped(ctx: DrawContext, styleIndex: number, base: Affine2D, x: number, y: number, s: ShapedText): void {
  let pen = x;
  const t = Math.tan(s.oblique);
  for (const run of s.runs) {
    const glyph = run.font.glyph;
    if (glyph) {
      // SHX: strokes, glyph units = text height.
      const k = run.size;
      for (const ch of run.text) {
        const g = glyph(ch);
        const adv = (g ? g.advance : run.font.measure(ch)) * k * s.widthFactor * s.tracking;
        if (g && g.strokes.length) {
          const m = affineToMat(affineMultiply(base, [k * s.widthFactor, 0, k * t, k, pen, y]));
          for (const st of g.strokes) ctx.stroke(styleIndex, m, st, false);
        }
        pen += adv;
      }
      continue;
    }
    // A CJK face standing in for a big font sits on the big font's cell (fonts.ts: rise).
    const lift = (run.font.rise ?? 0) * run.size;
    const ry = y + lift;
    if (s.tracking !== 1) {
      for (const ch of run.text) {
        const w = run.font.measure(ch) * run.size;
        if (ch.trim())
          ctx.text(
            {
              style: styleIndex,
              text: ch,
              matrix: affineMultiply(base, [s.widthFactor, 0, t, 1, pen + t * lift, ry]),
              size: run.size,
              width: w,
            },
            run.font.ref,
          );
        pen += w * s.widthFactor * s.tracking;
      }
      continue;
    }
    const text = stripControl(run.text);
    if (text.trim())
      ctx.text(
        {
          style: styleIndex,
          text,
          matrix: affineMultiply(base, [s.widthFactor, 0, t, 1, pen + t * lift, ry]),
          size: run.size,
          width: run.width / s.widthFactor,
        },
        run.font.ref,
      );
    pen += run.width;
  }
}

function line(ctx: DrawContext, styleIndex: number, base: Affine2D, x0: number, y0: number, x1: number, y1: number): void {
  ctx.stroke(styleIndex, affineToMat(base), [x0, y0, x1, y1], false);
}

const UNDER = -0.2;
const OVER = 1.25;
const STRIKE = 0.5;

// ---- TEXT / ATTRIB / ATTDEF -------------------------------------------------------------------

export interface TextSegment {
  text: string;
  underline: boolean;
  overline: boolean;
}

/** The %% codes of TEXT: %%c ⌀, %%d °, %%p ±, %%% %, %%nnn a character, %%u / %%o toggles. */
export function decodeTextCodes(s: string): TextSegment[] {
  const out: TextSegment[] = [];
  let cur: TextSegment = { text: '', underline: false, overline: false };
  const toggle = (key: 'underline' | 'overline'): void => {
    if (cur.text) out.push(cur);
    cur = { ...cur, text: '', [key]: !cur[key] };
  };
  let i = 0;
  while (i < s.length) {
    const c = s[i] as string;
    if (c === '%' && s[i + 1] === '%' && i + 2 < s.length) {
      const k = (s[i + 2] as string).toLowerCase();
      if (k === 'u' || k === 'o') {
        toggle(k === 'u' ? 'underline' : 'overline');
        i += 3;
        continue;
      }
      if (k === 'k') {
        // %%k (strike-through in some CAD programs): drop the code.
        i += 3;
        continue;
      }
      if (SPECIAL[k] !== undefined) {
        cur.text += SPECIAL[k];
        i += 3;
        continue;
      }
      const d = /^\d{1,3}/.exec(s.slice(i + 2));
      if (d) {
        cur.text += String.fromCharCode(Number(d[0]));
        i += 2 + d[0].length;
        continue;
      }
    }
    if (c >= ' ' || c === '\t') cur.text += c === '\t' ? ' ' : c;
    i++;
  }
  if (cur.text || !out.length) out.push(cur);
  return out;
}

/** One line of text in `style` with its baseline start at the origin of `base` (text space → world): a complex linetype's text. */
export function emitTextLine(
  ctx: DrawContext,
  styleIndex: number,
  style: TextStyle | undefined,
  text: string,
  height: number,
  base: Affine2D,
): void {
  if (!(height > 0) || !text) return;
  emitShaped(ctx, styleIndex, base, 0, 0, shapeText(ctx, style, text, height, style?.widthFactor || 1, style?.oblique || 0));
}

export const drawText: EntityHandler<TextEntity> = (e, ctx) => {
  const raw = e.type === 'ATTDEF' ? (e.tag ?? '') : e.text;
  if (!raw) return;
  const style = findStyle(ctx.drawing, e.style);
  let height = e.height > 0 ? e.height : defaultHeight(ctx.drawing, style);
  let widthFactor = e.widthFactor > 0 ? e.widthFactor : 1;
  const oblique = e.oblique || 0;
  const segments = decodeTextCodes(raw);
  const shapeAll = (): ShapedText[] => segments.map((s) => shapeText(ctx, style, s.text, height, widthFactor, oblique));
  let shaped = shapeAll();
  let total = shaped.reduce((w, s) => w + s.width, 0);
  if (!(total > 0) && !segments.some((s) => s.underline || s.overline)) return;

  let rotation = (e.rotation * Math.PI) / 180;
  let anchor: Vec3 = e.insertion;
  let x0 = 0;
  let y0 = 0;
  const h = e.halign,
    v = e.valign;
  const p2 = e.alignPoint;
  if ((h === 3 || h === 5) && p2) {
    const dx = p2[0] - e.insertion[0],
      dy = p2[1] - e.insertion[1];
    const len = Math.hypot(dx, dy);
    if (len > 1e-12 && total > 0) {
      rotation = Math.atan2(dy, dx);
      if (h === 3) height *= len / total;
      else widthFactor *= len / total;
      shaped = shapeAll();
      total = shaped.reduce((w, s) => w + s.width, 0);
    }
  } else if (h === 4) {
    anchor = p2 ?? e.insertion;
    x0 = -total / 2;
    y0 = -height / 2;
  } else {
    if (h !== 0 || v !== 0) anchor = p2 ?? e.insertion;
    if (h === 1) x0 = -total / 2;
    else if (h === 2) x0 = -total;
    if (v === 1) y0 = height / 3;
    else if (v === 2) y0 = -height / 2;
    else if (v === 3) y0 = -height;
  }
  const mirrorX = (e.generation & 2) !== 0;
  const mirrorY = (e.generation & 4) !== 0;
  const base = textMatrix(ctx.ocs(e), anchor[0], anchor[1], rotation, 1, 0, mirrorX, mirrorY);
  const styleIndex = ctx.style(e);
  let x = x0;
  segments.forEach((seg, i) => {
    const s = shaped[i] as ShapedText;
    emitShaped(ctx, styleIndex, base, x, y0, s);
    const w = s.width;
    if (w > 0) {
      if (seg.underline) line(ctx, styleIndex, base, x, y0 + UNDER * height, x + w, y0 + UNDER * height);
      if (seg.overline) line(ctx, styleIndex, base, x, y0 + OVER * height, x + w, y0 + OVER * height);
    }
    x += w;
  });
};

// ---- MTEXT --------------------------------------------------------------------------------------

/** Stacked-text size relative to the surrounding text (AutoCAD's default 70 %). */
const STACK_SCALE = 0.7;

/** Transpose of the OCS matrix: WCS → OCS for an extrusion. */
function wcsToOcs(extrusion: Vec3, p: Vec3): Vec3 {
  const m = ocsToWcs(extrusion);
  return [
    (m[0] as number) * p[0] + (m[4] as number) * p[1] + (m[8] as number) * p[2],
    (m[1] as number) * p[0] + (m[5] as number) * p[1] + (m[9] as number) * p[2],
    (m[2] as number) * p[0] + (m[6] as number) * p[1] + (m[10] as number) * p[2],
  ];
}

/** The MTEXT defined height (group 46) when the model carries it. */
function definedHeight(e: MTextEntity): number {
  const v = e.definedHeight;
  return typeof v === 'number' && v > 0 ? v : 0;
}

export const drawMText: EntityHandler<MTextEntity> = (e, ctx) => {
  if (!e.text) return;
  const style = findStyle(ctx.drawing, e.style);
  const height = e.height > 0 ? e.height : defaultHeight(ctx.drawing, style);
  const base: MTextFormat = {
    height,
    widthFactor: style && style.widthFactor > 0 ? style.widthFactor : 1,
    oblique: style?.oblique ?? 0,
    tracking: 1,
    align: 0,
    underline: false,
    overline: false,
    strike: false,
  };
  const paragraphs = parseMText(e.text, base);

  const shaper: Shaper<ShapedText> = {
    shape: (text, f) => shapeText(ctx, style, text, f.height, f.widthFactor, f.oblique, f.tracking, f.font),
    space: (f) => shapeText(ctx, style, ' ', f.height, f.widthFactor, f.oblique, f.tracking, f.font).width,
    stack: (it) => stackShape(ctx, style, it),
  };
  const cols = e.columns && e.columns.type > 0 ? e.columns : undefined;
  let columns: { count: number; width: number; gutter: number; heights: number[] } | undefined;
  if (cols) {
    const dh = definedHeight(e);
    const heights = cols.heights.length ? cols.heights : dh > 0 ? [dh] : [];
    columns = { count: Math.max(1, cols.count), width: cols.width > 0 ? cols.width : e.width, gutter: cols.gutter, heights };
  }
  const result = layoutMText(
    {
      paragraphs,
      height,
      width: e.width > 0 ? e.width : 0,
      attachment: e.attachment >= 1 && e.attachment <= 9 ? e.attachment : 1,
      lineSpacingFactor: e.lineSpacingFactor,
      lineSpacingStyle: e.lineSpacingStyle,
      ...(columns ? { columns } : {}),
    },
    shaper,
  );

  // MTEXT stores its insertion point and direction in WCS.
  const ocsDefault = isDefaultExtrusion(e.extrusion);
  const ins = ocsDefault ? e.insertion : wcsToOcs(e.extrusion, e.insertion);
  // The direction (11) is a WCS vector; without one the rotation angle gives it in the WCS xy
  // plane (as ezdxf reads it), and the text runs along its projection into the OCS.
  const r0 = (e.rotation * Math.PI) / 180;
  const dir: Vec3 = e.direction ?? [Math.cos(r0), Math.sin(r0), 0];
  const d = ocsDefault ? dir : wcsToOcs(e.extrusion, dir);
  const rotation = Math.hypot(d[0], d[1]) > 1e-12 ? Math.atan2(d[1], d[0]) : r0;
  const m = ctx.ocs(e, ins[2]);
  const frame = textMatrix(m, ins[0], ins[1], rotation);

  // Background mask: 1 = fill colour, 2 = drawing background (wipeout), 16 = text frame.
  const bg = e.background;
  if (bg && bg.flags & 3) {
    const pad = Math.max(0, (bg.scale || 1.5) - 1) * height;
    const b = result.box;
    const w = e.width > 0 && result.columns <= 1 ? e.width : b.maxX - b.minX;
    const minX = b.minX - pad,
      maxX = b.minX + w + pad,
      minY = b.minY - pad,
      maxY = b.maxY + pad;
    const ring = [minX, minY, maxX, minY, maxX, maxY, minX, maxY];
    if (bg.flags & 2) ctx.fill(ctx.style(e), affineToMat(frame), [ring], { wipeout: true });
    else ctx.fill(ctx.styleWith(e, bg.color), affineToMat(frame), [ring]);
  }
  if (bg && bg.flags & 16) {
    const b = result.box;
    ctx.stroke(ctx.style(e), affineToMat(frame), [b.minX, b.minY, b.maxX, b.minY, b.maxX, b.maxY, b.minX, b.maxY], true);
  }

  const styles = new Map<string, number>();
  const styleOf = (f: MTextFormat): number => {
    if (!f.color) return ctx.style(e);
    const key = f.color.rgb !== undefined ? `r${f.color.rgb}` : `a${f.color.aci}`;
    let i = styles.get(key);
    if (i === undefined) {
      i = ctx.styleWith(e, f.color);
      styles.set(key, i);
    }
    return i;
  };

  // Text, then underline / overline / strike-through as strokes per line.
  const pending: Record<
    'underline' | 'overline' | 'strike',
    { x0: number; x1: number; y: number; h: number; style: number; line: number; textEnd: number } | null
  > = {
    underline: null,
    overline: null,
    strike: null,
  };
  const finish = (key: 'underline' | 'overline' | 'strike'): void => {
    const p = pending[key];
    if (p && p.textEnd > p.x0) {
      const y = key === 'underline' ? p.y + UNDER * p.h : key === 'overline' ? p.y + OVER * p.h : p.y + STRIKE * p.h;
      line(ctx, p.style, frame, p.x0, y, p.textEnd, y);
    }
    pending[key] = null;
  };
  type RunAcc = { x: number; y: number; text: string; spaces: string; format: MTextFormat; line: number; end: number; style: number };
  let run: RunAcc | null = null as RunAcc | null;
  const flushRun = (): void => {
    const r: RunAcc | null = run;
    run = null;
    if (!r || !r.text) return;
    const f = r.format;
    emitShaped(ctx, r.style, frame, r.x, r.y, shapeText(ctx, style, r.text, f.height, f.widthFactor, f.oblique, f.tracking, f.font));
  };
  for (const p of result.placed) {
    const f = p.format;
    const si = styleOf(f);
    const width = p.kind === 'text' ? p.shaped.width : p.kind === 'space' ? p.width : p.shape.width;
    for (const key of ['underline', 'overline', 'strike'] as const) {
      const cur = pending[key];
      if (!f[key]) {
        if (cur) finish(key);
        continue;
      }
      if (cur && (cur.line !== p.line || cur.style !== si || Math.abs(cur.x1 - p.x) > 1e-6 * Math.max(1, Math.abs(p.x)) + height * 1e-3))
        finish(key);
      const c = pending[key];
      if (!c)
        pending[key] = {
          x0: p.x,
          x1: p.x + width,
          y: p.y,
          h: f.height,
          style: si,
          line: p.line,
          textEnd: p.kind === 'space' ? p.x : p.x + width,
        };
      else {
        c.x1 = p.x + width;
        c.h = Math.max(c.h, f.height);
        if (p.kind !== 'space') c.textEnd = p.x + width;
      }
    }
    if (p.kind === 'text' || p.kind === 'space') {
      // One text primitive per run: pieces of one format, contiguous on one line, are joined.
      const piece = p.kind === 'text' ? p.text : p.char;
      const r: RunAcc | null = run;
      if (
        r &&
        r.format === f &&
        r.line === p.line &&
        Math.abs(r.y - p.y) < 1e-9 &&
        Math.abs(r.end - p.x) <= 1e-9 * Math.max(1, Math.abs(p.x)) &&
        piece !== '\t'
      ) {
        if (p.kind === 'space') r.spaces += piece;
        else {
          r.text += r.spaces + piece;
          r.spaces = '';
        }
        r.end = p.x + width;
      } else {
        flushRun();
        if (p.kind === 'text') run = { x: p.x, y: p.y, text: piece, spaces: '', format: f, line: p.line, end: p.x + width, style: si };
      }
    } else if (p.kind === 'stack') {
      flushRun();
      const s = p.shape;
      emitShaped(ctx, si, frame, p.x + s.upper.x, p.y + s.upper.y, p.upper);
      emitShaped(ctx, si, frame, p.x + s.lower.x, p.y + s.lower.y, p.lower);
      if (s.bar) line(ctx, si, frame, p.x + s.bar[0], p.y + s.bar[1], p.x + s.bar[2], p.y + s.bar[3]);
    }
  }
  flushRun();
  finish('underline');
  finish('overline');
  finish('strike');
};

/** Stacked text (\S): fractions a/b with a bar, a#b with a slash, a^b stacked without a line. */
function stackShape(
  ctx: DrawContext,
  style: TextStyle | undefined,
  it: Extract<MTextItem, { kind: 'stack' }>,
): { upper: ShapedText; lower: ShapedText; shape: StackShape } {
  const f = it.format;
  const H = f.height;
  const h2 = H * STACK_SCALE;
  const upper = shapeText(ctx, style, it.upper, h2, f.widthFactor, f.oblique, f.tracking, f.font);
  const lower = shapeText(ctx, style, it.lower, h2, f.widthFactor, f.oblique, f.tracking, f.font);
  const pad = 0.1 * h2;
  if (it.type === '#') {
    const slash = 0.5 * h2;
    return {
      upper,
      lower,
      shape: {
        width: upper.width + slash + lower.width + 2 * pad,
        upper: { x: pad, y: 0.45 * H },
        lower: { x: pad + upper.width + slash, y: -0.15 * H },
        height: h2,
        bar: [pad + upper.width, -0.2 * H, pad + upper.width + slash, 1.15 * H],
      },
    };
  }
  const w = Math.max(upper.width, lower.width);
  if (it.type === '^') {
    return {
      upper,
      lower,
      shape: { width: w + 2 * pad, upper: { x: pad, y: 0.5 * H }, lower: { x: pad, y: 0.5 * H - 1.3 * h2 }, height: h2 },
    };
  }
  const gap = 0.2 * h2;
  return {
    upper,
    lower,
    shape: {
      width: w + 2 * pad,
      upper: { x: pad + (w - upper.width) / 2, y: 0.5 * H + gap },
      lower: { x: pad + (w - lower.width) / 2, y: 0.5 * H - gap - h2 },
      height: h2,
      bar: [pad, 0.5 * H, pad + w, 0.5 * H],
    },
  };
}
