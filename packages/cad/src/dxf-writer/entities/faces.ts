/** Filled and faceted surfaces: SOLID, TRACE, 3DFACE and MESH. */
import type { EntityOf } from '../../model';
import type { Groups } from '../encode';
import { common, extrusion, sub, thickness, type EntityWriterContext } from './common';

export function writeQuad(
  w: EntityWriterContext,
  out: Groups,
  e: EntityOf<'SOLID' | 'TRACE' | '3DFACE'>,
  owner: string,
  paper: boolean,
): void {
  common(w, out, e, e.type, owner, paper);
  sub(w, out, e.type === '3DFACE' ? 'AcDbFace' : 'AcDbTrace');
  e.points.forEach((p, i) => out.pt(10 + i, p));
  if (e.type === '3DFACE') {
    if (e.invisibleEdges) out.g(70, e.invisibleEdges);
  } else {
    thickness(out, e);
    extrusion(out, e);
  }
}

export function writeMesh(w: EntityWriterContext, out: Groups, e: EntityOf<'MESH'>, owner: string, paper: boolean): void {
  w.classes.add('MESH');
  common(w, out, e, 'MESH', owner, paper);
  sub(w, out, 'AcDbSubDMesh');
  out.g(71, 2).g(72, 0).g(91, 0).g(92, e.vertices.length);
  for (const v of e.vertices) out.pt(10, v);
  out.g(
    93,
    e.faces.reduce((t, f) => t + f.length + 1, 0),
  );
  for (const f of e.faces) {
    out.g(90, f.length);
    for (const i of f) out.g(90, i);
  }
  out.g(94, e.edges.length);
  for (const [a, b] of e.edges) out.g(90, a).g(90, b);
  out.g(95, 0);
}
