/**
 * IMAGE: the picture, when its file came with the drawing (companions.ts), clipped as the entity
 * says, and its frame (the clip boundary when clipping is on, else the image rectangle); without
 * the file only the frame, which is reported once per file name. WIPEOUT: its clip boundary filled in the
 * background colour, plus the frame when the drawing's WIPEOUTFRAME setting is 1 (displayed and
 * plotted; the default here is no frame, as in plots of most drawings).
 *
 * Clip boundaries are in pixel coordinates with the origin at the image's top-left corner and
 * pixel centres on integers: pixel (x, y) is at insertion + u·(x + ½) + v·(height − y − ½).
 */
import type { Drawing, ImageEntity } from '../model';
import type { EntityHandler } from './context';
import { fromAxes, multiply, type Mat } from '../geom/matrix';

export const drawImage: EntityHandler<ImageEntity> = (e, ctx) => {
  const [w, h] = e.imageSize;
  const { u, v } = e;
  const n: [number, number, number] = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
  const nl = Math.hypot(...n) || 1;
  const height = h > 0 ? h : 1;
  // Pixel space → WCS: x along u, y down the image (against v).
  const origin: [number, number, number] = [
    e.insertion[0] + u[0] * 0.5 + v[0] * (height - 0.5),
    e.insertion[1] + u[1] * 0.5 + v[1] * (height - 0.5),
    e.insertion[2] + u[2] * 0.5 + v[2] * (height - 0.5),
  ];
  const m: Mat = multiply(ctx.matrix, fromAxes(u, [-v[0], -v[1], -v[2]], [n[0] / nl, n[1] / nl, n[2] / nl], origin));
  const ring = boundary(e, w > 0 ? w : 1, height);
  if (ring.length < 6 || !ring.every(Number.isFinite)) return;
  const style = ctx.style(e);
  if (e.type === 'WIPEOUT') {
    ctx.fill(style, m, [ring], { wipeout: true });
    if (wipeoutFrame(ctx.drawing)) ctx.stroke(style, m, ring, true);
    return;
  }
  const picture = e.imageDefHandle ? ctx.drawing.imageDefs[e.imageDefHandle]?.attached : undefined;
  if (picture && ctx.image) {
    // The picture fills the image's rectangle, stretched as the entity's size in pixels says.
    const clipped = e.clipping && e.clipBoundary.length >= 2;
    ctx.image(style, m, picture, [-0.5, -0.5, w > 0 ? w : 1, 0, 0, height], clipped ? ring : null);
  } else {
    const name = e.fileName || (e.imageDefHandle ? `image ${e.imageDefHandle}` : 'image');
    ctx.warn({ code: 'image', subject: name, message: `Raster image "${name}" is not loaded: only its frame is drawn` });
  }
  ctx.stroke(style, m, ring, true);
};

/** The clip polygon in pixel coordinates (x, y pairs, not repeating the first point). */
function boundary(e: ImageEntity, w: number, h: number): number[] {
  const pts = e.clipBoundary;
  const useClip = (e.type === 'WIPEOUT' || e.clipping) && pts.length >= 2;
  if (!useClip || pts.length === 2) {
    // A rectangle given by two opposite corners (clip type 1), or the whole image.
    const [a, b] = useClip ? [pts[0]!, pts[1]!] : [[-0.5, -0.5] as [number, number], [w - 0.5, h - 0.5] as [number, number]];
    return [a[0], a[1], b[0], a[1], b[0], b[1], a[0], b[1]];
  }
  const out: number[] = [];
  for (const p of pts) out.push(p[0], p[1]);
  const k = out.length;
  if (k >= 4 && out[0] === out[k - 2] && out[1] === out[k - 1]) out.length -= 2;
  return out;
}

/**
 * WIPEOUTFRAME: 0 frames off, 1 displayed and plotted, 2 displayed but not plotted. The drawing
 * model keeps it, when the reader finds it, as the header variable $WIPEOUTFRAME (AutoCAD stores it
 * in the WIPEOUTVARIABLES object); absent = no frame.
 */
function wipeoutFrame(d: Drawing): boolean {
  const v = d.header.vars['$WIPEOUTFRAME'];
  return v === 1 || v === true;
}
