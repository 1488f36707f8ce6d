/** Applies a linetype's dash pattern to a polyline in world coordinates. */
import type { DashPattern } from './context';

/** More dashes than this on one polyline and it is drawn continuous (they would merge anyway). */
const MAX_DASHES = 20_000;

/**
 * Splits polyline `w` (x, y pairs) into the dashes of `pattern`, calling `emit` with each pen-down
 * run. Dots (zero-length elements) become runs `dot` long. With `restart`, every segment starts the
 * pattern afresh (LWPOLYLINE without linetype generation).
 */
export function dashPolyline(
  w: number[],
  pattern: DashPattern,
  restart: boolean,
  dot: number,
  emit: (run: number[]) => void,
  /** Called where an element ends (complex linetypes draw its shape or text there), with the line's direction. */
  mark?: (element: number, x: number, y: number, ux: number, uy: number) => void,
): void {
  const n = w.length >> 1;
  let length = 0;
  for (let i = 1; i < n; i++)
    length += Math.hypot((w[2 * i] as number) - (w[2 * i - 2] as number), (w[2 * i + 1] as number) - (w[2 * i - 1] as number));
  if (!(pattern.total > 0) || length / pattern.total > MAX_DASHES) {
    emit(w);
    return;
  }
  const els = pattern.dashes;
  let idx = 0;
  let left = Math.abs(els[0] as number) || dot;
  let run: number[] | null = (els[0] as number) >= 0 ? [w[0] as number, w[1] as number] : null;
  const penDown = (): boolean => (els[idx] as number) >= 0;
  const next = (x: number, y: number, ux: number, uy: number): void => {
    if (run && run.length >= 4) emit(run);
    if (mark) mark(idx, x, y, ux, uy);
    idx = (idx + 1) % els.length;
    const v = els[idx] as number;
    left = v === 0 ? dot : Math.abs(v);
    run = v >= 0 ? [x, y] : null;
  };
  for (let i = 1; i < n; i++) {
    let x0 = w[2 * i - 2] as number,
      y0 = w[2 * i - 1] as number;
    const x1 = w[2 * i] as number,
      y1 = w[2 * i + 1] as number;
    if (restart && i > 1) {
      if (run && (run as number[]).length >= 4) emit(run);
      idx = 0;
      left = Math.abs(els[0] as number) || dot;
      run = (els[0] as number) >= 0 ? [x0, y0] : null;
    }
    let seg = Math.hypot(x1 - x0, y1 - y0);
    if (seg === 0) continue;
    const ux = (x1 - x0) / seg,
      uy = (y1 - y0) / seg;
    while (seg > left) {
      x0 += ux * left;
      y0 += uy * left;
      seg -= left;
      if (penDown() && run) (run as number[]).push(x0, y0);
      next(x0, y0, ux, uy);
    }
    left -= seg;
    if (penDown() && run) (run as number[]).push(x1, y1);
  }
  if (run && (run as number[]).length >= 4) emit(run);
}
