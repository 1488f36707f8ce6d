/** Polylines and splines: LWPOLYLINE, the POLYLINE kinds (2D, 3D, polyface, mesh) with their vertices, SPLINE, MLINE. */
import type { Entity, LwVertex, MLineEntity, MLineVertex, PolylineEntity, PolylineVertex, SplineEntity } from '@xcad/cad/model';
import type { Vec3 } from '@xcad/cad/geom';
import { hex } from '../access';
import { T } from '../types';
import { isZero, type EntityContext, type Owner } from './context';

export function lwpolyline(r: EntityContext, obj: number, tio: number, type: number, owner: Owner): Entity {
  const a = r.a;
  const flag = a.u16(tio, type, 'flag');
  const n = a.u32(tio, type, 'num_points');
  const pts = a.ptr(tio, type, 'points');
  const nb = a.u32(tio, type, 'num_bulges');
  const bulges = a.ptr(tio, type, 'bulges');
  const nw = a.u32(tio, type, 'num_widths');
  const widths = a.ptr(tio, type, 'widths');
  const vertices: LwVertex[] = new Array<LwVertex>(pts ? n : 0);
  for (let i = 0; i < vertices.length; i++) {
    const p = pts + 16 * i;
    vertices[i] = {
      x: a.f64At(p),
      y: a.f64At(p + 8),
      bulge: bulges && i < nb ? a.f64At(bulges + 8 * i) : 0,
      startWidth: widths && i < nw ? a.f64At(widths + 16 * i) : 0,
      endWidth: widths && i < nw ? a.f64At(widths + 16 * i + 8) : 0,
    };
  }
  return {
    ...r.base(obj, tio, type, owner),
    type: 'LWPOLYLINE',
    vertices,
    closed: (flag & 512) !== 0,
    plinegen: (flag & 256) !== 0,
    constantWidth: a.d(tio, type, 'const_width'),
    elevation: a.d(tio, type, 'elevation'),
  };
}

export function polyline(r: EntityContext, obj: number, tio: number, type: number, owner: Owner): PolylineEntity {
  const a = r.a;
  const w = r.a.w;
  let flags: number;
  let kind: PolylineEntity['kind'];
  let m = 0;
  let n = 0;
  let elevation = 0;
  let sw = 0;
  let ew = 0;
  if (type === T.POLYLINE_2D) {
    flags = a.u16(tio, type, 'flag') & ~(8 | 16 | 64);
    kind = '2d';
    elevation = a.d(tio, type, 'elevation');
    sw = a.d(tio, type, 'start_width');
    ew = a.d(tio, type, 'end_width');
  } else if (type === T.POLYLINE_3D) {
    const f = a.u8(tio, type, 'flag');
    const curve = a.u8(tio, type, 'curve_type');
    // DWG flag: 1 closed (and 2 curve-fit bits in curve_type); DXF 70: 1 closed, 4 spline fit, 8 3D.
    flags = 8 | (f & 1) | (curve === 5 || curve === 6 ? 4 : 0);
    kind = '3d';
  } else if (type === T.POLYLINE_PFACE) {
    flags = 64;
    kind = 'polyface';
    m = a.u16(tio, type, 'numverts');
    n = a.u16(tio, type, 'numfaces');
  } else {
    flags = (a.u16(tio, type, 'flag') & ~(8 | 64)) | 16;
    kind = 'mesh';
    m = a.u16(tio, type, 'num_m_verts');
    n = a.u16(tio, type, 'num_n_verts');
  }
  const pl: PolylineEntity = {
    ...r.base(obj, tio, type, owner),
    type: 'POLYLINE',
    kind,
    flags,
    closed: (flags & 1) !== 0,
    elevation,
    defaultStartWidth: sw,
    defaultEndWidth: ew,
    m,
    n,
    meshClosedN: (flags & 32) !== 0,
    vertices: [],
    faces: [],
  };
  for (const v of r.owned(obj, tio, type, 'vertex', 'first_vertex', 'last_vertex')) {
    const vt = w.dwg_object_get_fixedtype(v);
    const vtio = w.dwg_object_to_entity_tio(v);
    if (!vtio) continue;
    if (vt === T.VERTEX_PFACE_FACE) {
      const o = a.off(vtio, vt, 'vertind');
      const face: number[] = [];
      if (o >= 0)
        for (let k = 0; k < 4; k++) {
          const idx = a.i16At(vtio + o + 2 * k);
          if (idx !== 0) face.push(idx);
        }
      pl.faces.push(face);
      continue;
    }
    if (vt !== T.VERTEX_2D && vt !== T.VERTEX_3D && vt !== T.VERTEX_MESH && vt !== T.VERTEX_PFACE) continue;
    const vflag = a.u8(vtio, vt, 'flag');
    const vertex: PolylineVertex = { position: a.p3(vtio, vt, 'point'), bulge: 0, startWidth: 0, endWidth: 0, flags: vflag };
    if (vt === T.VERTEX_2D) {
      vertex.bulge = a.d(vtio, vt, 'bulge');
      let s = a.d(vtio, vt, 'start_width');
      let e = a.d(vtio, vt, 'end_width');
      // A negative start width stands for equal start and end widths.
      if (s < 0) e = s = -s;
      vertex.startWidth = s;
      vertex.endWidth = e;
    } else if (vt === T.VERTEX_PFACE) vertex.flags = vflag | 64 | 128;
    else if (vt === T.VERTEX_MESH) vertex.flags = vflag | 64;
    else vertex.flags = vflag | 32;
    pl.vertices.push(vertex);
  }
  return pl;
}

export function spline(r: EntityContext, obj: number, tio: number, type: number, owner: Owner): SplineEntity {
  const a = r.a;
  const closed = a.u8(tio, type, 'closed_b') !== 0;
  const periodic = a.u8(tio, type, 'periodic') !== 0;
  const rational = a.u8(tio, type, 'rational') !== 0;
  const weighted = a.u8(tio, type, 'weighted') !== 0;
  let flags = a.u16(tio, type, 'flag');
  if (closed) flags |= 1;
  if (periodic) flags |= 2;
  if (rational) flags |= 4;
  const nk = a.u32(tio, type, 'num_knots');
  const knotsPtr = a.ptr(tio, type, 'knots');
  const knots = knotsPtr ? a.doublesAt(knotsPtr, nk) : [];
  const nc = a.u32(tio, type, 'num_ctrl_pts');
  const ctrl = a.ptr(tio, type, 'ctrl_pts');
  const size = a.subSize('SPLINE_control_point') || 40;
  const ox = Math.max(0, a.subOff('SPLINE_control_point', 'x'));
  const ow = a.subOff('SPLINE_control_point', 'w');
  const controlPoints: Vec3[] = [];
  const weights: number[] = [];
  if (ctrl)
    for (let i = 0; i < nc; i++) {
      const p = ctrl + size * i;
      controlPoints.push(a.p3At(p + ox));
      weights.push(ow >= 0 ? a.f64At(p + ow) : 1);
    }
  const nf = a.u16(tio, type, 'num_fit_pts');
  const fit = a.ptr(tio, type, 'fit_pts');
  const fitPoints: Vec3[] = [];
  if (fit) for (let i = 0; i < nf; i++) fitPoints.push(a.p3At(fit + 24 * i));
  const e: SplineEntity = {
    ...r.base(obj, tio, type, owner),
    type: 'SPLINE',
    degree: a.u16(tio, type, 'degree', 3),
    flags,
    closed,
    periodic,
    rational,
    knots,
    weights: (rational || weighted) && !weights.every((x) => x === 1) ? weights : [],
    controlPoints,
    fitPoints,
  };
  if (fitPoints.length) {
    const st = a.p3(tio, type, 'beg_tan_vec');
    const et = a.p3(tio, type, 'end_tan_vec');
    if (!isZero(st)) e.startTangent = st;
    if (!isZero(et)) e.endTangent = et;
  }
  return e;
}

export function mline(r: EntityContext, obj: number, tio: number, type: number, owner: Owner): MLineEntity {
  const a = r.a;
  const V = 'MLINE_vertex';
  const L = 'MLINE_line';
  const n = a.u16(tio, type, 'num_verts');
  const verts = a.ptr(tio, type, 'verts');
  const vSize = a.subSize(V);
  const lSize = a.subSize(L);
  const vertices: MLineVertex[] = [];
  if (verts && vSize > 0)
    for (let i = 0; i < Math.min(n, 100_000); i++) {
      const v = verts + i * vSize;
      const params: number[][] = [];
      const nl = a.u8At(v + a.subOff(V, 'num_lines'));
      const lines = a.u32At(v + a.subOff(V, 'lines'));
      if (lines && lSize > 0)
        for (let j = 0; j < nl; j++) {
          const l = lines + j * lSize;
          const np = a.u16At(l + a.subOff(L, 'num_segparms'));
          const pp = a.u32At(l + a.subOff(L, 'segparms'));
          params.push(pp ? a.doublesAt(pp, Math.min(np, 1000)) : []);
        }
      vertices.push({
        position: a.p3At(v + a.subOff(V, 'vertex')),
        direction: a.p3At(v + a.subOff(V, 'vertex_direction')),
        miter: a.p3At(v + a.subOff(V, 'miter_direction')),
        params,
      });
    }
  const styleHandle = a.refHandle(a.ptr(tio, type, 'mlinestyle'));
  const e: MLineEntity = {
    ...r.base(obj, tio, type, owner),
    type: 'MLINE',
    style: r.names.mlineStyles.get(styleHandle) ?? 'STANDARD',
    scale: a.d(tio, type, 'scale', 1),
    justification: a.u8(tio, type, 'justification'),
    closed: (a.u16(tio, type, 'flags') & 2) !== 0,
    vertices,
  };
  if (styleHandle) e.styleHandle = hex(styleHandle);
  return e;
}
