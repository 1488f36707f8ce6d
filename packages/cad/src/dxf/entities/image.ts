/** IMAGE and WIPEOUT: the raster frame and its clip boundary. */
import type { Entity } from '../../model';
import { asStr, type DxfRecord } from '../record';
import { mk } from './base';

export function image(r: DxfRecord, type: 'IMAGE' | 'WIPEOUT'): Entity {
  const clipBoundary: [number, number][] = [];
  for (let i = r.indexOf(14); i >= 0; i = r.indexOf(14, i + 1)) {
    const p = r.ptAt(i);
    clipBoundary.push([p[0], p[1]]);
  }
  const size = r.pt(13);
  const e: Entity = mk(r, {
    type,
    insertion: r.pt(10),
    u: r.pt(11, [1, 0, 0]),
    v: r.pt(12, [0, 1, 0]),
    imageSize: [size[0], size[1]],
    displayFlags: r.num(70),
    clipping: r.num(280) !== 0,
    clipType: r.num(71, 1),
    clipBoundary,
  });
  const def = r.optStr(340);
  if (def) e.imageDefHandle = def;
  return e;
}

/** OLE2FRAME (AcDbOle2Frame): corners (10, 11) and the object data (the 310 groups after the 90 size). */
export function ole2frame(r: DxfRecord): Entity {
  const parts: string[] = [];
  for (let i = r.indexOf(310); i >= 0; i = r.indexOf(310, i + 1)) parts.push(asStr(r.vals[i]).trim());
  return mk(r, { type: 'OLE2FRAME', corner1: r.pt(10), corner2: r.pt(11), data: parts.join('') });
}
