/** VIEWPORT: R12 keeps its view in the ACAD extended data, 2000+ in its own groups. */
import type { EntityOf } from '../../model';
import type { Groups } from '../encode';
import { common, frozenLayerNames, sub, type EntityWriterContext } from './common';

export function writeViewport(w: EntityWriterContext, out: Groups, e: EntityOf<'VIEWPORT'>, owner: string, paper: boolean): void {
  common(w, out, e, 'VIEWPORT', owner, paper);
  sub(w, out, 'AcDbViewport');
  out.pt(10, e.center).g(40, e.width).g(41, e.height).g(68, e.status).g(69, e.id);
  if (w.r12) {
    // R12 keeps the view in the "MVIEW" list of the ACAD extended data.
    out.g(1001, 'ACAD').g(1000, 'MVIEW').g(1002, '{').g(1070, 16).pt(1010, e.viewTarget).pt(1010, e.viewDirection);
    out.g(1040, e.twist).g(1040, e.viewHeight).g(1040, e.viewCenter[0]).g(1040, e.viewCenter[1]).g(1040, 50).g(1040, 0).g(1040, 0);
    for (const flag of [0, 1000, 1, 0, 0, 0, 0, 0]) out.g(1070, flag);
    for (const n of [0, 0, 0, 10, 10, 10, 10]) out.g(1040, n);
    out.g(1070, 0).g(1002, '{');
    for (const l of frozenLayerNames(w, e.frozenLayers)) out.g(1003, l);
    out.g(1002, '}').g(1002, '}');
    return;
  }
  out.pt(12, e.viewCenter, true).pt(13, [0, 0], true).pt(14, [10, 10], true).pt(15, [10, 10], true);
  out.pt(16, e.viewDirection).pt(17, e.viewTarget).g(42, 50).g(43, 0).g(44, 0).g(45, e.viewHeight).g(50, 0).g(51, e.twist).g(72, 1000);
  for (const l of frozenLayerNames(w, e.frozenLayers)) out.g(331, w.layers.get(l));
  // The clip boundary of a non-rectangular viewport: a paper-space entity of its layout, written as itself.
  const clip = e.clipBoundaryHandle ? clipBoundary(w, e.clipBoundaryHandle) : null;
  if (clip) out.g(340, clip);
  out.g(90, e.flags).g(281, 0).g(71, 1).g(74, 0);
  out.pt(110, [0, 0, 0]).pt(111, [1, 0, 0]).pt(112, [0, 1, 0]).g(79, 0).g(146, 0);
}

const CLIP_TYPES = new Set(['LWPOLYLINE', 'POLYLINE', 'CIRCLE', 'ELLIPSE', 'SPLINE']);

/** The new handle of a viewport's clip boundary, when that entity is in a layout and kept as itself. */
function clipBoundary(w: EntityWriterContext, source: string): string | null {
  const key = source.toUpperCase();
  const found = w.d.layouts.some((l) => (l.entities ?? []).some((x) => x.handle?.toUpperCase() === key && CLIP_TYPES.has(x.type)));
  return found ? w.refHandle(source) : null;
}
