/** Polylines and splines: LWPOLYLINE, POLYLINE with its VERTEX records, SPLINE, MLINE. */
import type { Entity, LwVertex, MLineVertex, PolylineEntity, PolylineVertex, SplineEntity } from '../../model';
import type { Vec3 } from '../../geom/vector';
import { asNum, type DxfRecord } from '../record';
import { mk } from './base';

export function lwpolyline(r: DxfRecord): Entity {
  const vertices: LwVertex[] = [];
  const { codes, vals } = r;
  const end = r.length;
  let cur: LwVertex | undefined;
  for (let i = 0; i < end; i++) {
    const c = codes[i] as number;
    const v = vals[i];
    if (c === 10) {
      cur = { x: asNum(v), y: 0, bulge: 0, startWidth: 0, endWidth: 0 };
      vertices.push(cur);
    } else if (!cur) continue;
    else if (c === 20) cur.y = asNum(v);
    else if (c === 42) cur.bulge = asNum(v);
    else if (c === 40) cur.startWidth = asNum(v);
    else if (c === 41) cur.endWidth = asNum(v);
  }
  const flags = r.num(70);
  return mk(r, {
    type: 'LWPOLYLINE',
    vertices,
    closed: (flags & 1) !== 0,
    plinegen: (flags & 128) !== 0,
    constantWidth: r.num(43),
    elevation: r.num(38),
  });
}

export function polyline(r: DxfRecord): PolylineEntity {
  const flags = r.num(70);
  const kind = flags & 64 ? 'polyface' : flags & 16 ? 'mesh' : flags & 8 ? '3d' : '2d';
  return mk(r, {
    type: 'POLYLINE',
    kind,
    flags,
    closed: (flags & 1) !== 0,
    elevation: r.pt(10)[2],
    defaultStartWidth: r.num(40),
    defaultEndWidth: r.num(41),
    m: r.num(71),
    n: r.num(72),
    meshClosedN: (flags & 32) !== 0,
    vertices: [],
    faces: [],
  });
}

/** Adds a VERTEX record to its POLYLINE. */
export function addVertex(pl: PolylineEntity, r: DxfRecord): void {
  const flags = r.num(70);
  if (pl.kind === 'polyface' && flags & 128 && !(flags & 64)) {
    const face: number[] = [];
    for (const c of [71, 72, 73, 74]) {
      const idx = r.num(c);
      if (idx !== 0) face.push(idx);
    }
    pl.faces.push(face);
    return;
  }
  const v: PolylineVertex = {
    position: r.pt(10),
    bulge: r.num(42),
    startWidth: r.num(40, pl.defaultStartWidth),
    endWidth: r.num(41, pl.defaultEndWidth),
    flags,
  };
  pl.vertices.push(v);
}

export function spline(r: DxfRecord): SplineEntity {
  const knots: number[] = [];
  const weights: number[] = [];
  const controlPoints: Vec3[] = [];
  const fitPoints: Vec3[] = [];
  const { codes, vals } = r;
  for (let i = 0; i < r.length; i++) {
    const c = codes[i] as number;
    if (c === 40) knots.push(asNum(vals[i]));
    else if (c === 41) weights.push(asNum(vals[i]));
    else if (c === 10) controlPoints.push(r.ptAt(i));
    else if (c === 11) fitPoints.push(r.ptAt(i));
  }
  const flags = r.num(70);
  const e: SplineEntity = mk(r, {
    type: 'SPLINE',
    degree: r.num(71, 3),
    flags,
    closed: (flags & 1) !== 0,
    periodic: (flags & 2) !== 0,
    rational: (flags & 4) !== 0,
    knots,
    weights: weights.every((w) => w === 1) ? [] : weights,
    controlPoints,
    fitPoints,
  });
  const st = r.optPt(12);
  const et = r.optPt(13);
  if (st) e.startTangent = st;
  if (et) e.endTangent = et;
  return e;
}

export function mline(r: DxfRecord): Entity {
  const { codes, vals } = r;
  const vertices: MLineVertex[] = [];
  let cur: MLineVertex | undefined;
  let el: number[] | undefined;
  let want = 0;
  for (let i = 0; i < r.length; i++) {
    const c = codes[i] as number;
    if (c === 11) {
      cur = { position: r.ptAt(i), direction: [1, 0, 0], miter: [0, 1, 0], params: [] };
      vertices.push(cur);
      el = undefined;
    } else if (!cur) continue;
    else if (c === 12) cur.direction = r.ptAt(i);
    else if (c === 13) cur.miter = r.ptAt(i);
    else if (c === 74) {
      el = [];
      want = asNum(vals[i]);
      cur.params.push(el);
    } else if (c === 41 && el && el.length < want) el.push(asNum(vals[i]));
  }
  const e: Entity = mk(r, {
    type: 'MLINE',
    style: r.str(2, 'STANDARD'),
    scale: r.num(40, 1),
    justification: r.num(70),
    closed: (r.num(71) & 2) !== 0,
    vertices,
  });
  const sh = r.optStr(340);
  if (sh) e.styleHandle = sh;
  return e;
}
