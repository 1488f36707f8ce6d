/** Filled and faceted surfaces: SOLID, TRACE, 3DFACE and MESH. */
import type { Entity, MeshEntity } from '@xcad/cad/model';
import type { Vec3 } from '@xcad/cad/geom';
import { T } from '../types';
import type { EntityContext, Owner } from './context';

/** SOLID and TRACE: four 2D corners at the elevation. */
export function solid(r: EntityContext, obj: number, tio: number, type: number, owner: Owner): Entity {
  const a = r.a;
  const z = a.d(tio, type, 'elevation');
  const c = (f: string): Vec3 => {
    const p = a.p2(tio, type, f);
    return [p[0], p[1], z];
  };
  return {
    ...r.base(obj, tio, type, owner),
    type: type === T.SOLID ? 'SOLID' : 'TRACE',
    points: [c('corner1'), c('corner2'), c('corner3'), c('corner4')],
  };
}

export function face3d(r: EntityContext, obj: number, tio: number, type: number, owner: Owner): Entity {
  const a = r.a;
  return {
    ...r.base(obj, tio, type, owner),
    type: '3DFACE',
    points: [a.p3(tio, type, 'corner1'), a.p3(tio, type, 'corner2'), a.p3(tio, type, 'corner3'), a.p3(tio, type, 'corner4')],
    invisibleEdges: a.u16(tio, type, 'invis_flags'),
  };
}
/** MESH (subdivision mesh): the level-0 cage; the face list as DXF 93/90 writes it. */
export function mesh(r: EntityContext, obj: number, tio: number, type: number, owner: Owner): MeshEntity {
  const a = r.a;
  const nv = a.u32(tio, type, 'num_vertex');
  const vp = a.ptr(tio, type, 'vertex');
  const vertices: Vec3[] = [];
  if (vp) for (let i = 0; i < Math.min(nv, 10_000_000); i++) vertices.push(a.p3At(vp + 24 * i));
  const nf = a.u32(tio, type, 'num_faces');
  const fp = a.ptr(tio, type, 'faces');
  const faces: number[][] = [];
  if (fp)
    for (let k = 0; k < Math.min(nf, 10_000_000);) {
      const count = a.u32At(fp + 4 * k);
      if (!(count > 0) || k + count >= nf) break;
      const face: number[] = [];
      for (let j = 1; j <= count; j++) face.push(a.u32At(fp + 4 * (k + j)));
      faces.push(face);
      k += count + 1;
    }
  const ne = a.u32(tio, type, 'num_edges');
  const ep = a.ptr(tio, type, 'edges');
  const size = a.subSize('MESH_edge') || 12;
  const from = a.subOff('MESH_edge', 'idxfrom');
  const to = a.subOff('MESH_edge', 'idxto');
  const edges: [number, number][] = [];
  if (ep && from >= 0 && to >= 0)
    for (let i = 0; i < Math.min(ne, 10_000_000); i++) edges.push([a.u32At(ep + i * size + from), a.u32At(ep + i * size + to)]);
  return { ...r.base(obj, tio, type, owner), type: 'MESH', vertices, faces, edges };
}
