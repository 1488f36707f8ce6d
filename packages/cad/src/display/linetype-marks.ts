/**
 * Complex linetypes: the shapes and texts their elements carry (LTYPE groups 74 flags: 2 text,
 * 4 shape, 1 absolute rotation; 75 shape number, 340 the text style that loads the shape file or
 * sets the text, 9 text, 46 scale, 50 rotation, 44/45 offsets). As AutoCAD places them, each sits
 * where its element ends, moved by the offsets along and across the line, turned with the line
 * (or absolutely), scaled like the dashes (LTSCALE, the entity's and its block's).
 *
 * Shapes come from the style's shape file (shapes.ts: ltypeshp.shx's common shapes made here when
 * the file is not in the font folders); a text's height is the element's scale times the style's
 * fixed height (the scale alone when the style has none).
 */
import type { Drawing, Linetype } from '../model';
import type { DrawContext, LinetypeMark } from './context';
import type { FontProvider } from '../text/fonts';
import { IDENTITY } from '../geom/matrix';
import { shapeStrokes, styleByHandle } from './shapes';
import { emitTextLine } from './text';

const DEG = Math.PI / 180;

/** The marks of a linetype's elements; undefined when it has none (or none that can be drawn). */
export function linetypeMarks(d: Drawing, fonts: FontProvider, lt: Linetype): (LinetypeMark | undefined)[] | undefined {
  let any = false;
  const marks = lt.elements.map((el): LinetypeMark | undefined => {
    if (!(el.kind & 6)) return undefined;
    const style = styleByHandle(d, el.styleHandle);
    const scale = el.scale && Number.isFinite(el.scale) ? el.scale : 1;
    const base = {
      dx: el.offset?.[0] ?? 0,
      dy: el.offset?.[1] ?? 0,
      rotation: (el.rotation ?? 0) * DEG,
      absolute: (el.kind & 1) !== 0,
    };
    if (el.kind & 2) {
      if (!el.text) return undefined;
      any = true;
      const fixed = style && style.fixedHeight > 0 ? style.fixedHeight : 1;
      return { ...base, text: el.text, ...(style ? { style } : {}), height: scale * fixed };
    }
    // A shape: its style's file, else ltypeshp.shx (linetypes that name no style).
    const strokes = shapeStrokes(fonts, style?.font || 'ltypeshp.shx', el.shapeNumber ?? 0);
    if (!strokes) return undefined;
    any = true;
    return { ...base, strokes: strokes.map((s) => s.map((c) => c * scale)) };
  });
  return any ? marks : undefined;
}

/**
 * Draws a mark in world coordinates where an element ends: at (x, y) on a line running along the
 * unit vector (ux, uy); `f` maps linetype units to world units.
 */
export function drawMark(
  ctx: DrawContext,
  style: number,
  mark: LinetypeMark,
  x: number,
  y: number,
  ux: number,
  uy: number,
  f: number,
): void {
  const px = x + (ux * mark.dx - uy * mark.dy) * f;
  const py = y + (uy * mark.dx + ux * mark.dy) * f;
  const a = (mark.absolute ? 0 : Math.atan2(uy, ux)) + mark.rotation;
  const c = Math.cos(a),
    s = Math.sin(a);
  if (mark.strokes) {
    for (const st of mark.strokes) {
      const w = new Array<number>(st.length);
      for (let i = 0; i + 1 < st.length; i += 2) {
        const sx = (st[i] as number) * f,
          sy = (st[i + 1] as number) * f;
        w[i] = px + c * sx - s * sy;
        w[i + 1] = py + s * sx + c * sy;
      }
      ctx.stroke(style, IDENTITY, w, false);
    }
    return;
  }
  if (mark.text && mark.height) emitTextLine(ctx, style, mark.style, mark.text, mark.height * f, [c, s, -s, c, px, py]);
}
