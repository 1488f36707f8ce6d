/**
 * Shapes from shape files (.shx): the SHAPE entity and the shapes of complex linetypes. A shape
 * is looked up in the shape file its text style loads (a style with flag 1, its font the file),
 * through the font provider's folders; a SHAPE entity of a DXF file names its shape, which is
 * looked for in every shape file the drawing loads. When no file is found, the common shapes of
 * AutoCAD's `ltypeshp.shx` (the fence, track, zigzag and batting linetypes' shapes) are drawn
 * from outlines made here.
 *
 * Strokes come in vector units: a shape file's unit vector is one unit of the SHAPE's size (or the
 * linetype element's scale); a font's glyph is in units of its height.
 */
import type { Drawing, ShapeEntity, TextStyle } from '../model';
import type { DrawContext } from './context';
import type { FontProvider } from '../text/fonts';
import { fromAxes, multiply, rotationZ, translation } from '../geom/matrix';

function circle(cx: number, cy: number, r: number, from: number, to: number): number[] {
  const n = Math.max(4, Math.ceil((24 * Math.abs(to - from)) / (Math.PI * 2)));
  const out: number[] = [];
  for (let i = 0; i <= n; i++) {
    const t = from + ((to - from) * i) / n;
    out.push(cx + r * Math.cos(t), cy + r * Math.sin(t));
  }
  return out;
}

/** The shapes of ltypeshp.shx by number, drawn here: one unit is the element's scale. */
const LTYPESHP: Record<number, { name: string; strokes: number[][] }> = {
  // TRACKS: a cross tie.
  130: { name: 'TRACK1', strokes: [[0, -1, 0, 1]] },
  // ZIGZAG: one leg up and down (the pattern draws it again turned half round below the line).
  131: { name: 'ZIG', strokes: [[0, 0, 1, 1, 2, 0]] },
  // FENCELINE2: a square on the line.
  132: { name: 'BOX', strokes: [[0, -1, 0, 1, 2, 1, 2, -1, 0, -1]] },
  // FENCELINE1: a circle on the line.
  133: { name: 'CIRC1', strokes: [circle(1, 0, 1, 0, Math.PI * 2)] },
  // BATTING: a loop across the band (the pattern turns every second one half round).
  134: { name: 'BAT', strokes: [[0, -1, 0, 0, ...circle(1, 0, 1, Math.PI, 0).slice(2), 2, -1]] },
};

const LTYPESHP_BY_NAME = new Map(Object.entries(LTYPESHP).map(([k, v]) => [v.name, Number(k)]));

const isLtypeShp = (file: string): boolean => /(^|[\\/])ltypeshp(\.shx)?$/i.test(file.trim());

/** The file name of a path as a drawing records it (Windows or not). */
function baseName(file: string): string {
  return file.trim().replace(/^.*[\\/]/, '');
}

/** A shape of `file` by number (or by name when number is undefined), in vector units; undefined when not found. */
export function shapeStrokes(fonts: FontProvider, file: string, number: number | undefined, name?: string): number[][] | undefined {
  const font = fonts.shapeFile?.(file) ?? fonts.shapeFile?.(baseName(file));
  if (font) {
    const code = number ?? (name ? font.codeOf(name) : undefined);
    const g = code !== undefined ? font.glyph(code) : undefined;
    if (g) {
      const k = font.fontInfo ? 1 : font.above;
      return g.strokes.map((s) => s.map((c) => c * k));
    }
    return undefined;
  }
  if (!isLtypeShp(baseName(file))) return undefined;
  const code = number ?? (name ? LTYPESHP_BY_NAME.get(name.trim().toUpperCase()) : undefined);
  return code !== undefined ? LTYPESHP[code]?.strokes : undefined;
}

/** The text style by handle (linetype elements) or name. */
export function styleByHandle(d: Drawing, handle: string | undefined): TextStyle | undefined {
  if (!handle) return undefined;
  const key = handle.toUpperCase();
  return Object.values(d.textStyles).find((s) => s.handle?.toUpperCase() === key);
}

/** Shape files the drawing loads: the fonts of its shape-file styles (flag 1). */
function shapeFiles(d: Drawing): string[] {
  const out: string[] = [];
  for (const s of Object.values(d.textStyles)) if (s.flags & 1 && s.font && !out.includes(s.font)) out.push(s.font);
  return out;
}

/** A SHAPE entity's strokes and the file they came from; `missing` names the files looked in when none has it. */
function findShape(ctx: DrawContext, e: ShapeEntity): { strokes?: number[][]; missing: string[] } {
  const d = ctx.drawing;
  const style = styleByHandle(d, e.styleHandle);
  const files = style?.font ? [style.font] : shapeFiles(d);
  for (const f of files) {
    const strokes = shapeStrokes(ctx.fonts, f, e.name ? undefined : e.shapeNumber, e.name);
    if (strokes) return { strokes, missing: [] };
  }
  // A shape of ltypeshp.shx by name, in a drawing that does not list the file.
  const own = e.name ? shapeStrokes(ctx.fonts, 'ltypeshp.shx', undefined, e.name) : undefined;
  if (own) return { strokes: own, missing: [] };
  return { missing: files.filter((f) => !ctx.fonts.shapeFile?.(f) && !ctx.fonts.shapeFile?.(baseName(f))).map(baseName) };
}

/**
 * SHAPE: the shape's strokes at the insertion point, scaled by the size (and the width factor
 * along X), obliqued and rotated, in the entity's OCS. A shape whose file is not in the font
 * folders is reported as a missing font (the file's name), as AutoCAD reports it, and not drawn
 * (nor counted as drawn).
 */
export function drawShape(e: ShapeEntity, ctx: DrawContext): boolean {
  const { strokes, missing } = findShape(ctx, e);
  if (!strokes) {
    const file = missing[0];
    const name = e.name || String(e.shapeNumber ?? '');
    ctx.warn({
      code: 'missing-font',
      subject: file ?? `shape ${name}`,
      message: file
        ? `Shape "${name}" is not drawn: its shape file ${file} is not in the font folders`
        : `Shape "${name}" is not drawn: no shape file the drawing loads has it`,
    });
    return false;
  }
  const size = e.size > 0 && Number.isFinite(e.size) ? e.size : 1;
  const wf = e.widthFactor > 0 ? e.widthFactor : 1;
  const t = Math.tan((e.oblique * Math.PI) / 180);
  const local = fromAxes([size * wf, 0, 0], [size * t, size, 0], [0, 0, size]);
  const m = multiply(
    ctx.ocs(e, e.insertion[2]),
    multiply(translation(e.insertion[0], e.insertion[1], 0), multiply(rotationZ((e.rotation * Math.PI) / 180), local)),
  );
  const style = ctx.style(e);
  for (const s of strokes) ctx.stroke(style, m, s, false);
  return true;
}
