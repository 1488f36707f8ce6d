/** Polylines and splines: LWPOLYLINE, POLYLINE with its VERTEX records and SEQEND, SPLINE. */
import type { EntityOf, PolylineEntity } from '../../model';
import type { Groups } from '../encode';
import { common, extrusion, layerName, seqend, sub, thickness, type EntityWriterContext } from './common';

export function writeLwPolyline(w: EntityWriterContext, out: Groups, e: EntityOf<'LWPOLYLINE'>, owner: string, paper: boolean): void {
  common(w, out, e, 'LWPOLYLINE', owner, paper);
  sub(w, out, 'AcDbPolyline');
  out.g(90, e.vertices.length).g(70, (e.closed ? 1 : 0) | (e.plinegen ? 128 : 0));
  if (e.constantWidth) out.g(43, e.constantWidth);
  if (e.elevation) out.g(38, e.elevation);
  thickness(out, e);
  for (const v of e.vertices) {
    out.g(10, v.x).g(20, v.y);
    if (v.startWidth || v.endWidth) out.g(40, v.startWidth).g(41, v.endWidth);
    if (v.bulge) out.g(42, v.bulge);
  }
  extrusion(out, e);
}

export function writePolyline(w: EntityWriterContext, out: Groups, e: PolylineEntity, owner: string, paper: boolean): void {
  const h = common(w, out, e, 'POLYLINE', owner, paper);
  const kindFlag = e.kind === 'polyface' ? 64 : e.kind === 'mesh' ? 16 : e.kind === '3d' ? 8 : 0;
  const subclass = { '2d': 'AcDb2dPolyline', '3d': 'AcDb3dPolyline', mesh: 'AcDbPolygonMesh', polyface: 'AcDbPolyFaceMesh' }[e.kind];
  sub(w, out, subclass);
  out.g(66, 1).pt(10, [0, 0, e.kind === '2d' ? e.elevation : 0]);
  thickness(out, e);
  out.g(70, (e.flags & ~(8 | 16 | 64)) | kindFlag | (e.closed ? 1 : 0));
  if (e.defaultStartWidth) out.g(40, e.defaultStartWidth);
  if (e.defaultEndWidth) out.g(41, e.defaultEndWidth);
  if (e.kind === 'mesh') out.g(71, e.m).g(72, e.n);
  // Faces of more than four corners become fans of triangles (a face record holds four).
  const faces: number[][] = [];
  if (e.kind === 'polyface')
    for (const f of e.faces) {
      if (f.length <= 4) faces.push(f);
      else for (let i = 1; i + 1 < f.length; i++) faces.push([f[0] as number, f[i] as number, f[i + 1] as number]);
    }
  if (e.kind === 'polyface') out.g(71, e.vertices.length).g(72, faces.length);
  if (e.kind === '2d') extrusion(out, e);
  const vsub = { '2d': 'AcDb2dVertex', '3d': 'AcDb3dPolylineVertex', mesh: 'AcDbPolygonMeshVertex', polyface: 'AcDbPolyFaceMeshVertex' }[
    e.kind
  ];
  const vflag = e.kind === 'polyface' ? 192 : e.kind === 'mesh' ? 64 : e.kind === '3d' ? 32 : 0;
  const vertexHead = (): void => {
    out.g(0, 'VERTEX').g(5, w.handle());
    if (!w.r12) out.g(330, h).g(100, 'AcDbEntity');
    if (paper) out.g(67, 1);
    out.g(8, layerName(w, e.layer));
  };
  for (const v of e.vertices) {
    vertexHead();
    sub(w, out, 'AcDbVertex');
    sub(w, out, vsub);
    out.pt(10, v.position);
    if (v.startWidth) out.g(40, v.startWidth);
    if (v.endWidth) out.g(41, v.endWidth);
    if (v.bulge) out.g(42, v.bulge);
    out.g(70, (v.flags & ~(32 | 64 | 128)) | vflag);
  }
  for (const f of faces) {
    vertexHead();
    sub(w, out, 'AcDbFaceRecord');
    out.pt(10, [0, 0, 0]).g(70, 128);
    f.forEach((idx, i) => out.g(71 + i, idx));
  }
  seqend(w, out, e, h, paper);
}

export function writeSpline(w: EntityWriterContext, out: Groups, e: EntityOf<'SPLINE'>, owner: string, paper: boolean): void {
  common(w, out, e, 'SPLINE', owner, paper);
  sub(w, out, 'AcDbSpline');
  if (e.normal) out.pt(210, e.normal);
  const rational = e.weights.length > 0 && e.weights.length === e.controlPoints.length;
  out
    .g(70, (e.flags & ~4) | (rational ? 4 : 0))
    .g(71, e.degree)
    .g(72, e.knots.length)
    .g(73, e.controlPoints.length)
    .g(74, e.fitPoints.length);
  out.g(42, 1e-10).g(43, 1e-10);
  if (e.fitPoints.length) out.g(44, 1e-10);
  if (e.startTangent) out.pt(12, e.startTangent);
  if (e.endTangent) out.pt(13, e.endTangent);
  for (const k of e.knots) out.g(40, k);
  if (rational) for (const w of e.weights) out.g(41, w);
  for (const p of e.controlPoints) out.pt(10, p);
  for (const p of e.fitPoints) out.pt(11, p);
}
