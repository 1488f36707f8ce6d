/**
 * OLE2FRAME: the embedded object's own preview picture (codec/ole.ts) in the frame's rectangle,
 * as AutoCAD shows and plots it. The display list has no raster primitive, so the picture is
 * drawn as filled cells: sampled to at most PICTURE_CELLS on its long side (each cell the mean of
 * the pixels it covers), colours rounded to 4 bits a channel, runs of one colour merged, and each
 * colour's cells filled at once; white cells are left to the paper. An object without a picture we can decode is drawn as its frame,
 * with a notice (code 'image', like a raster image that is not loaded).
 */
import type { Ole2FrameEntity } from '../model';
import type { EntityHandler } from './context';
import { olePreview, type Picture } from '../codec/ole';
import { multiply, translation } from '../geom/matrix';

/** Cells on the picture's long side. */
const PICTURE_CELLS = 240;

const pictures = new WeakMap<Ole2FrameEntity, Picture | null>();

function pictureOf(e: Ole2FrameEntity): Picture | null {
  let p = pictures.get(e);
  if (p === undefined) {
    p = olePreview(e.data);
    pictures.set(e, p);
  }
  return p;
}

/** The picture as cells: per colour (0xRRGGBB), its rectangles [x0, y0, x1, y1] in cell units (y down). */
export function pictureCells(p: Picture, maxCells = PICTURE_CELLS): { cols: number; rows: number; byColor: Map<number, number[]> } {
  const step = Math.max(1, Math.ceil(Math.max(p.width, p.height) / maxCells));
  const cols = Math.ceil(p.width / step);
  const rows = Math.ceil(p.height / step);
  const byColor = new Map<number, number[]>();
  const q = (v: number): number => Math.min(15, Math.round(v / 17)) * 17;
  for (let r = 0; r < rows; r++) {
    let runColor = -1;
    let runStart = 0;
    const flush = (end: number): void => {
      if (runColor < 0) return;
      let list = byColor.get(runColor);
      if (!list) byColor.set(runColor, (list = []));
      list.push(runStart, r, end, r + 1);
    };
    for (let c = 0; c < cols; c++) {
      let sr = 0,
        sg = 0,
        sb = 0,
        n = 0;
      for (let y = r * step; y < Math.min(p.height, (r + 1) * step); y++)
        for (let x = c * step; x < Math.min(p.width, (c + 1) * step); x++) {
          const i = (y * p.width + x) * 4;
          sr += p.rgba[i]!;
          sg += p.rgba[i + 1]!;
          sb += p.rgba[i + 2]!;
          n++;
        }
      const color = n ? (q(sr / n) << 16) | (q(sg / n) << 8) | q(sb / n) : 0xffffff;
      if (color !== runColor) {
        flush(c);
        runColor = color;
        runStart = c;
      }
    }
    flush(cols);
  }
  return { cols, rows, byColor };
}

const isPaperWhite = (rgb: number): boolean => ((rgb >> 16) & 255) >= 0xee && ((rgb >> 8) & 255) >= 0xee && (rgb & 255) >= 0xee;

export const drawOle2Frame: EntityHandler<Ole2FrameEntity> = (e, ctx) => {
  const [ax, ay, az] = e.corner1;
  const [bx, by] = e.corner2;
  if (![ax, ay, az, bx, by].every(Number.isFinite) || (ax === bx && ay === by)) return;
  // In the frame's plane (the z of its first corner).
  const m = az ? multiply(ctx.matrix, translation(0, 0, az)) : ctx.matrix;
  const picture = pictureOf(e);
  if (!picture) {
    ctx.stroke(ctx.style(e), m, [ax, ay, bx, ay, bx, by, ax, by], true);
    ctx.warn({
      code: 'image',
      subject: 'OLE',
      message: 'An OLE object holds no preview picture this viewer can show: only its frame is drawn',
    });
    return;
  }
  const { cols, rows, byColor } = pictureCells(picture);
  const sx = (bx - ax) / cols;
  const sy = (by - ay) / rows;
  // Cell (c, r) from the upper-left corner down.
  for (const [color, rects] of byColor) {
    // White is the paper showing through (renderers draw a colour close to the page in the
    // foreground colour, which would turn a picture's white background black).
    if (isPaperWhite(color)) continue;
    const rings: number[][] = [];
    for (let i = 0; i < rects.length; i += 4) {
      const x0 = ax + rects[i]! * sx,
        y0 = ay + rects[i + 1]! * sy,
        x1 = ax + rects[i + 2]! * sx,
        y1 = ay + rects[i + 3]! * sy;
      rings.push([x0, y0, x1, y0, x1, y1, x0, y1]);
    }
    ctx.fill(ctx.styleWith(e, { rgb: color }), m, rings, { rule: 'nonzero' });
  }
};
