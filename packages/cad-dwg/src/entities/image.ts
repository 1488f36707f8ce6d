/** IMAGE and WIPEOUT: the raster frame and its clip boundary. */
import type { ImageEntity, Ole2FrameEntity } from '@xcad/cad/model';
import type { Vec3 } from '@xcad/cad/geom';
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

/** Largest OLE object kept (bytes): a bigger one is drawn as its frame. */
const MAX_OLE_BYTES = 16 << 20;

/**
 * OLE2FRAME: the object data as DXF writes it (after a 2-byte tag, the frame's corners as four
 * points: upper left, upper right, lower right, lower left; the compound document from byte 128).
 */
export function ole2frame(r: EntityContext, obj: number, tio: number, type: number, owner: Owner): Ole2FrameEntity {
  const a = r.a;
  const size = a.u32(tio, type, 'data_size');
  const ptr = a.ptr(tio, type, 'data');
  const ok = ptr !== 0 && size >= 66 && size <= MAX_OLE_BYTES;
  const corner = (k: number): Vec3 => (ok ? a.p3At(ptr + 2 + 24 * k) : [0, 0, 0]);
  return {
    ...r.base(obj, tio, type, owner),
    type: 'OLE2FRAME',
    corner1: corner(0),
    corner2: corner(2),
    data: ok ? a.hexAt(ptr, size) : '',
  };
}
