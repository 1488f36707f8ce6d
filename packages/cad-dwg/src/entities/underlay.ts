/** PDFUNDERLAY, DWFUNDERLAY, DGNUNDERLAY (LibreDWG's UNDERLAY struct). */
import type { UnderlayEntity } from '@xcad/cad/model';
import { hex, RAD2DEG } from '../access';
import type { EntityContext, Owner } from './context';

export function underlay(r: EntityContext, obj: number, tio: number, type: number, owner: Owner, dxfType: string): UnderlayEntity {
  const a = r.a;
  const n = a.u32(tio, type, 'num_clip_verts');
  const vp = a.ptr(tio, type, 'clip_verts');
  const clipBoundary: [number, number][] = [];
  if (vp) for (let i = 0; i < Math.min(n, 100_000); i++) clipBoundary.push(a.p2At(vp + 16 * i));
  const s = a.p3(tio, type, 'scale', [1, 1, 1]);
  const e: UnderlayEntity = {
    ...r.base(obj, tio, type, owner),
    type: 'UNDERLAY',
    dxfType,
    insertion: a.p3(tio, type, 'ins_pt'),
    scale: [s[0] || 1, s[1] || 1, s[2] || 1],
    rotation: a.d(tio, type, 'angle') * RAD2DEG,
    flags: a.u8(tio, type, 'flag', 2),
    contrast: a.u8(tio, type, 'contrast', 100),
    fade: a.u8(tio, type, 'fade'),
    clipBoundary,
  };
  const def = a.refHandle(a.ptr(tio, type, 'definition_id'));
  if (def) e.defHandle = hex(def);
  return e;
}
