import type { Box } from './types';

// The view of a scene on the canvas: which scene point is at the canvas centre and how many device
// pixels one drawing unit takes. Screen coordinates are device pixels, y down; drawing
// coordinates are y up. Everything the pointer does (pan, wheel, pinch, double-click, window
// zoom, zoom to extents) is a function from one view to the next.

export interface View {
  /** Scene point at the centre of the canvas. */
  cx: number;
  cy: number;
  /** Device pixels per drawing unit. */
  scale: number;
  /** Canvas size in device pixels. */
  width: number;
  height: number;
}

export type Affine = [number, number, number, number, number, number];

/** Share of the canvas left around the drawing when it is fitted. */
const FIT_MARGIN = 0.04;
/** How far in and out one may zoom, relative to the fitted view. */
export const MAX_ZOOM_IN = 1e6;
const MAX_ZOOM_OUT = 1e-3;

export function fitView(box: Box | null, width: number, height: number, margin = FIT_MARGIN): View {
  const w = Math.max(1, width),
    h = Math.max(1, height);
  if (!box || !(box.maxX >= box.minX) || !(box.maxY >= box.minY)) return { cx: 0, cy: 0, scale: 1, width: w, height: h };
  const bw = Math.max(box.maxX - box.minX, 1e-9),
    bh = Math.max(box.maxY - box.minY, 1e-9);
  const usable = 1 - 2 * margin;
  const scale = Math.min((w * usable) / bw, (h * usable) / bh);
  return {
    cx: (box.minX + box.maxX) / 2,
    cy: (box.minY + box.maxY) / 2,
    scale: Number.isFinite(scale) && scale > 0 ? scale : 1,
    width: w,
    height: h,
  };
}

/** Scene → device pixels. */
export function viewMatrix(v: View): Affine {
  return [v.scale, 0, 0, -v.scale, v.width / 2 - v.scale * v.cx, v.height / 2 + v.scale * v.cy];
}

export function toScene(v: View, sx: number, sy: number): [number, number] {
  return [v.cx + (sx - v.width / 2) / v.scale, v.cy - (sy - v.height / 2) / v.scale];
}

export function toScreen(v: View, x: number, y: number): [number, number] {
  return [v.width / 2 + (x - v.cx) * v.scale, v.height / 2 - (y - v.cy) * v.scale];
}

/** The scene box the canvas shows. */
export function visibleBox(v: View): Box {
  const hw = v.width / 2 / v.scale,
    hh = v.height / 2 / v.scale;
  return { minX: v.cx - hw, minY: v.cy - hh, maxX: v.cx + hw, maxY: v.cy + hh };
}

/** Scale limits for a scene whose fitted scale is `fitScale`. */
function clampScale(scale: number, fitScale: number): number {
  const lo = fitScale * MAX_ZOOM_OUT,
    hi = fitScale * MAX_ZOOM_IN;
  return Math.min(hi, Math.max(lo, scale));
}

/** Zoom by `factor` keeping the scene point under (sx, sy) where it is. */
export function zoomAt(v: View, factor: number, sx: number, sy: number, fitScale = v.scale): View {
  const scale = clampScale(v.scale * factor, fitScale);
  const [wx, wy] = toScene(v, sx, sy);
  return {
    ...v,
    scale,
    cx: wx - (sx - v.width / 2) / scale,
    cy: wy + (sy - v.height / 2) / scale,
  };
}

/** The content follows the pointer by (dx, dy) device pixels. */
export function panBy(v: View, dx: number, dy: number): View {
  return { ...v, cx: v.cx - dx / v.scale, cy: v.cy + dy / v.scale };
}

/** Wheel delta → zoom factor: one notch (100 px) zooms by 1.25; trackpads' small deltas zoom smoothly. */
export function wheelFactor(deltaY: number, deltaMode: number): number {
  const px = deltaMode === 1 ? deltaY * 33 : deltaMode === 2 ? deltaY * 400 : deltaY;
  const clamped = Math.max(-300, Math.min(300, px));
  return Math.pow(1.25, -clamped / 100);
}

/** Zoom so the screen rectangle between two corners fills the canvas (window zoom). */
export function windowZoom(v: View, x0: number, y0: number, x1: number, y1: number, fitScale = v.scale): View {
  const [ax, ay] = toScene(v, x0, y0);
  const [bx, by] = toScene(v, x1, y1);
  const box = { minX: Math.min(ax, bx), minY: Math.min(ay, by), maxX: Math.max(ax, bx), maxY: Math.max(ay, by) };
  const fitted = fitView(box, v.width, v.height, 0);
  return { ...fitted, scale: clampScale(fitted.scale, fitScale) };
}

export interface Touch2 {
  ax: number;
  ay: number;
  bx: number;
  by: number;
}

/**
 * Two fingers: the scene points under the fingers when the pinch began stay under them (zoom by
 * the change of their distance, pan by the move of their midpoint).
 */
export function pinchView(start: View, from: Touch2, to: Touch2, fitScale = start.scale): View {
  const d0 = Math.hypot(from.bx - from.ax, from.by - from.ay);
  const d1 = Math.hypot(to.bx - to.ax, to.by - to.ay);
  const factor = d0 > 1 && d1 > 1 ? d1 / d0 : 1;
  const m0x = (from.ax + from.bx) / 2,
    m0y = (from.ay + from.by) / 2;
  const m1x = (to.ax + to.bx) / 2,
    m1y = (to.ay + to.by) / 2;
  const zoomed = zoomAt(start, factor, m0x, m0y, fitScale);
  return panBy(zoomed, m1x - m0x, m1y - m0y);
}

/** The same scene region on a canvas of a new size (a resize or rotation keeps what was in view centred). */
export function resizeView(v: View, width: number, height: number): View {
  if (v.width === width && v.height === height) return v;
  const k = Math.min(width / Math.max(1, v.width), height / Math.max(1, v.height));
  return { ...v, width, height, scale: v.scale * (Number.isFinite(k) && k > 0 ? k : 1) };
}

/** a ∘ b (apply b, then a). */
export function compose(a: ArrayLike<number>, b: ArrayLike<number>): Affine {
  const a0 = a[0] as number,
    a1 = a[1] as number,
    a2 = a[2] as number,
    a3 = a[3] as number,
    a4 = a[4] as number,
    a5 = a[5] as number;
  const b0 = b[0] as number,
    b1 = b[1] as number,
    b2 = b[2] as number,
    b3 = b[3] as number,
    b4 = b[4] as number,
    b5 = b[5] as number;
  return [a0 * b0 + a2 * b1, a1 * b0 + a3 * b1, a0 * b2 + a2 * b3, a1 * b2 + a3 * b3, a0 * b4 + a2 * b5 + a4, a1 * b4 + a3 * b5 + a5];
}

export function invert(m: Affine): Affine | null {
  const [a, b, c, d, e, f] = m;
  const det = a * d - b * c;
  if (!det || !Number.isFinite(det)) return null;
  return [d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det];
}

export function apply(m: Affine, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

/** The box of `b` through `m`. */
export function transformBox(b: Box, m: Affine): Box {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (const x of [b.minX, b.maxX])
    for (const y of [b.minY, b.maxY]) {
      const [tx, ty] = apply(m, x, y);
      if (tx < minX) minX = tx;
      if (tx > maxX) maxX = tx;
      if (ty < minY) minY = ty;
      if (ty > maxY) maxY = ty;
    }
  return { minX, minY, maxX, maxY };
}

export function boxesOverlap(a: Box, b: Box): boolean {
  return a.minX <= b.maxX && a.maxX >= b.minX && a.minY <= b.maxY && a.maxY >= b.minY;
}
