/** VIEWPORT: a paper-space window on the model. */
import type { Entity } from '../../model';
import { asStr, type DxfRecord } from '../record';
import { mk } from './base';

export function viewport(r: DxfRecord): Entity {
  const frozenLayers: string[] = [];
  for (let i = r.indexOf(331); i >= 0; i = r.indexOf(331, i + 1)) frozenLayers.push(asStr(r.vals[i]));
  const height = r.num(41);
  const viewHeight = r.num(45, height);
  const status = r.num(68);
  const vc = r.pt(12);
  const flags = r.num(90);
  const e: Entity = mk(r, {
    type: 'VIEWPORT',
    center: r.pt(10),
    width: r.num(40),
    height,
    id: r.num(69),
    status,
    on: status !== 0 && !(flags & 0x20000),
    viewCenter: [vc[0], vc[1]],
    viewTarget: r.pt(17),
    viewDirection: r.pt(16, [0, 0, 1]),
    viewHeight,
    scale: viewHeight ? height / viewHeight : 1,
    twist: r.num(51),
    flags,
    frozenLayers,
  });
  const clip = r.optStr(340);
  if (clip) e.clipBoundaryHandle = clip;
  return e;
}
