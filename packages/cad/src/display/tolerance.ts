/**
 * TOLERANCE: the feature control frame (形位公差) as AutoCAD draws it. The text holds the rows
 * (separated by line feeds, ^J in DXF), each row its boxes (separated by %%v): the geometric
 * characteristic, tolerance 1 and 2, datums 1 to 3; later rows hold a second frame, the projected
 * tolerance zone height and the datum identifier. An empty box is not drawn. GD&T symbols come as
 * {\Fgdt;x}: drawn from the outlines of gdt.ts; the rest is text in the dimension style's text style.
 *
 * Sizes come from the dimension style: text height DIMTXT × DIMSCALE, the space between text and
 * box lines DIMGAP × DIMSCALE; a row is the text height plus that space above and below (at least
 * 1.5 text heights, so a frame of DIMGAP 0 is still readable); a box is at least as wide as its row
 * is high. Box lines take DIMCLRD, text and symbols DIMCLRT. The insertion point is the middle of
 * the first row's left side; the frame runs along the entity's X direction.
 */
import type { EntityBase, ToleranceEntity } from '../model';
import type { DrawContext, EntityHandler } from './context';
import { dimScale, dimVars, textStyleName, virtualMText, wcsToOcs } from './dimension';
import { gdtSymbol } from './gdt';
import { fromAxes, multiply, type Mat } from '../geom/matrix';
import type { Vec3 } from '../geom/vector';

type Token = { sym: string } | { text: string };

/** The rows of a frame, each its boxes, each its tokens. */
export function parseFrame(text: string): Token[][][] {
  const rows = text.split(/\^J|\r?\n|\\P/);
  return rows.map((row) => row.split(/%%v/i).map(parseBox));
}

function parseBox(box: string): Token[] {
  const out: Token[] = [];
  // {\Fgdt;xyz} (braces optional), and other font switches left to the text.
  const re = /\{?\\F(?:gdt|gdt\.shx);([^}\\]*)\}?/gi;
  let last = 0;
  for (let m = re.exec(box); m; m = re.exec(box)) {
    if (m.index > last) out.push({ text: box.slice(last, m.index) });
    for (const ch of m[1] ?? '') out.push(gdtSymbol(ch) ? { sym: ch } : { text: ch });
    last = m.index + m[0].length;
  }
  if (last < box.length) out.push({ text: box.slice(last) });
  return out.filter((t) => !('text' in t) || t.text.trim() !== '');
}

export const drawTolerance: EntityHandler<ToleranceEntity> = (e, ctx) => {
  const rows = parseFrame(e.text);
  if (!rows.some((r) => r.some((b) => b.length))) return;
  const v = dimVars(ctx.drawing, e.style);
  const scale = dimScale(v);
  const h = v.num(140) * scale;
  if (!(h > 0) || !Number.isFinite(h)) return;
  const gap = Math.abs(v.num(147) * scale);
  const rowH = Math.max(h + 2 * gap, 1.5 * h);
  const pad = Math.max(gap, h * 0.25);
  const styleName = textStyleName(ctx.drawing, v.str(340));
  const textStyle = ctx.drawing.textStyles[styleName];

  // Frame space: x along the direction, y up the entity's normal × direction, origin at the insertion.
  const n = unit(e.extrusion, [0, 0, 1]);
  let x = unit(e.direction, [1, 0, 0]);
  // Keep x in the frame's plane.
  const d = dot(x, n);
  x = unit([x[0] - n[0] * d, x[1] - n[1] * d, x[2] - n[2] * d], [1, 0, 0]);
  const y = cross(n, x);
  const m = multiply(ctx.matrix, fromAxes(x, y, n, e.insertion));
  const lineStyle = styleOf(ctx, e, v.num(176));
  const textColor = v.num(178);
  const symStyle = styleOf(ctx, e, textColor);
  const ocsX = wcsToOcs(e.extrusion, x);
  const rotation = (Math.atan2(ocsX[1], ocsX[0]) * 180) / Math.PI;

  const measure = (s: string): number => {
    const plain = s.replace(/%%[cdp]/gi, 'W');
    const font = ctx.fonts.resolve(textStyle, plain);
    return font.measure(plain) * (h / (font.capHeight || 0.72)) * (textStyle?.widthFactor || 1);
  };
  const tokenWidth = (t: Token): number => ('sym' in t ? (gdtSymbol(t.sym)?.advance ?? 1) * h : measure(t.text));

  rows.forEach((boxes, r) => {
    const top = rowH / 2 - r * rowH;
    const mid = top - rowH / 2;
    let left = 0;
    for (const tokens of boxes) {
      if (!tokens.length) continue;
      const content = tokens.reduce((s, t) => s + tokenWidth(t), 0);
      const w = Math.max(content + 2 * pad, rowH);
      ctx.stroke(lineStyle, m, [left, top, left + w, top, left + w, top - rowH, left, top - rowH], true);
      let cx = left + (w - content) / 2;
      for (const t of tokens) {
        const tw = tokenWidth(t);
        if ('sym' in t) drawSymbol(ctx, symStyle, m, t.sym, cx, mid - h / 2, h);
        else {
          const p = apply(e.insertion, x, y, cx, mid);
          ctx.drawEntity(
            virtualMText(e, {
              text: t.text,
              insertion: wcsToOcs(e.extrusion, p),
              height: h,
              rotation,
              attachment: 4,
              style: styleName,
              ...(textColor > 0 && textColor <= 256 ? { color: { aci: textColor } } : {}),
            }),
          );
        }
        cx += tw;
      }
      left += w;
    }
  });
};

function drawSymbol(ctx: DrawContext, style: number, m: Mat, ch: string, x0: number, y0: number, h: number): void {
  const s = gdtSymbol(ch);
  if (!s) return;
  const map = (xy: number[]): number[] => xy.map((c, i) => (i % 2 === 0 ? x0 + c * h : y0 + c * h));
  for (const st of s.strokes) ctx.stroke(style, m, map(st.xy), st.closed);
  if (s.fills.length) ctx.fill(style, m, s.fills.map(map), { rule: 'nonzero' });
}

function styleOf(ctx: DrawContext, e: EntityBase, aci: number): number {
  return aci > 0 && aci <= 256 ? ctx.styleWith(e, { aci }) : ctx.style(e);
}

function unit(v: Vec3, def: Vec3): Vec3 {
  const l = Math.hypot(v[0], v[1], v[2]);
  return l > 1e-12 && Number.isFinite(l) ? [v[0] / l, v[1] / l, v[2] / l] : def;
}
const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const apply = (o: Vec3, x: Vec3, y: Vec3, u: number, w: number): Vec3 => [
  o[0] + x[0] * u + y[0] * w,
  o[1] + x[1] * u + y[1] * w,
  o[2] + x[2] * u + y[2] * w,
];
