/** IMAGE and WIPEOUT: the raster frame and its clip boundary. */
import type { ImageEntity } from '@xcad/cad/model';
import { hex } from '../access';
import type { EntityContext, Owner } from './context';

export function image(r: EntityContext, obj: number, tio: number, type: number, owner: Owner, kind: 'IMAGE' | 'WIPEOUT'): ImageEntity {
  const a = r.a;
  const size = a.p2(tio, type, 'image_size');
  const n = a.u32(tio, type, 'num_clip_verts');
  const vp = a.ptr(tio, type, 'clip_verts');
  const clipBoundary: [number, number][] = [];
  if (vp) for (let i = 0; i < Math.min(n, 100_000); i++) clipBoundary.push(a.p2At(vp + 16 * i));
  const clipType = a.u16(tio, type, 'clip_boundary_type', 1) || 1;
  // DXF repeats the first vertex of a polygonal boundary at its end; so does this reader.
  const first = clipBoundary[0];
  const last = clipBoundary[clipBoundary.length - 1];
  if (clipType === 2 && first && last && clipBoundary.length >= 3 && (first[0] !== last[0] || first[1] !== last[1]))
    clipBoundary.push([first[0], first[1]]);
  const e: ImageEntity = {
    ...r.base(obj, tio, type, owner),
    type: kind,
    insertion: a.p3(tio, type, 'pt0'),
    u: a.p3(tio, type, 'uvec', [1, 0, 0]),
    v: a.p3(tio, type, 'vvec', [0, 1, 0]),
    imageSize: size,
    displayFlags: a.u16(tio, type, 'display_props'),
    clipping: a.u8(tio, type, 'clipping') !== 0,
    clipType,
    clipBoundary,
  };
  const def = a.refHandle(a.ptr(tio, type, 'imagedef'));
  if (def) e.imageDefHandle = hex(def);
  return e;
}
