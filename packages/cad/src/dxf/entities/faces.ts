/** Filled and faceted surfaces: SOLID, TRACE, 3DFACE and MESH. */
import type { Entity } from '../../model';
import type { Vec3 } from '../../geom/vector';
import { asNum, type DxfRecord } from '../record';
import { mk } from './base';

/** SOLID, TRACE and 3DFACE: four corners (the fourth defaults to the third). */
export function quad(r: DxfRecord, type: 'SOLID' | 'TRACE' | '3DFACE'): Entity {
  const p1 = r.pt(10);
  const p2 = r.pt(11);
  const p3 = r.pt(12);
  const p4 = r.has(13) ? r.pt(13) : p3;
  const e: Entity = mk(r, { type, points: [p1, p2, p3, p4] });
  if (type === '3DFACE') e.invisibleEdges = r.num(70);
  return e;
}

export function mesh(r: DxfRecord): Entity {
  const { codes, vals } = r;
  const vertices: Vec3[] = [];
  const faces: number[][] = [];
  const edges: [number, number][] = [];
  let i = r.indexOf(92);
  const nv = i >= 0 ? asNum(vals[i]) : 0;
  for (let k = i + 1; k < r.length && vertices.length < nv; k++) if (codes[k] === 10) vertices.push(r.ptAt(k));
  i = r.indexOf(93);
  if (i >= 0) {
    const size = asNum(vals[i]);
    const list: number[] = [];
    for (let k = i + 1; k < r.length && list.length < size && codes[k] === 90; k++) list.push(asNum(vals[k]));
    for (let k = 0; k < list.length;) {
      const n = list[k] as number;
      if (!(n > 0)) break;
      faces.push(list.slice(k + 1, k + 1 + n));
      k += n + 1;
    }
  }
  i = r.indexOf(94);
  if (i >= 0) {
    const count = asNum(vals[i]);
    const list: number[] = [];
    for (let k = i + 1; k < r.length && list.length < count * 2 && codes[k] === 90; k++) list.push(asNum(vals[k]));
    for (let k = 0; k + 1 < list.length; k += 2) edges.push([list[k] as number, list[k + 1] as number]);
  }
  return mk(r, { type: 'MESH', vertices, faces, edges });
}
